import FoundationEssentials
import GalleryFormat

extension GalleryMerge {
    /// Merges three gallery files into `output` (git's merge driver: %O %A %B, writing %A).
    /// The result is always a valid gallery: where the sides conflict, ours is kept and the
    /// conflict reported. A base that is missing or not a gallery (git passes an empty file
    /// when the branches share no ancestor) is replaced by what both sides have in common.
    /// The result's revision is derived from its content, so the same merge gives the same file.
    ///
    /// - Throws: the reader's `GalleryError` or `FileSystemError` for `ours` or `theirs`;
    ///   ``DifferentDocuments`` when they are different documents; what writing `output`
    ///   throws, which leaves it untouched.
    public static func mergeFiles(base basePath: String?, ours oursPath: String, theirs theirsPath: String,
                                  output: String, durable: Bool = true) throws -> Outcome {
        let ours = try GalleryReader(path: oursPath)
        let theirs = try GalleryReader(path: theirsPath)
        let base = basePath.flatMap { try? GalleryReader(path: $0).gallery }
            ?? GalleryDocument.commonBase(ours.gallery, theirs.gallery)
        var outcome = try merge(base: base, ours: ours.gallery, theirs: theirs.gallery)
        outcome.gallery.generator = Gallery.generatorName
        outcome.gallery.revision = Manifest.contentRevision(of: outcome.gallery)

        func holder(of image: GalleryImage) -> GalleryReader? {
            [ours, theirs].first { $0.archive.entry(named: image.path) != nil }
        }
        let thumbnail: [UInt8]
        if outcome.gallery.coverImage?.sha256 == ours.gallery.coverImage?.sha256, let stored = try? ours.thumbnail() {
            thumbnail = stored
        } else {
            thumbnail = try DocumentThumbnail.png(for: outcome.gallery) { image in
                try holder(of: image)?.blobBytes(image)
            }
        }
        try GalleryWriter.write(outcome.gallery, thumbnail: thumbnail, to: output, overwrite: true, durable: durable) { image in
            guard let reader = holder(of: image) else {
                throw GalleryError(.blobMissing, "neither side holds \(image.path)", location: Location(file: oursPath))
            }
            return .entry(reader.archive, try reader.blobEntry(for: image))
        }
        return outcome
    }
}
