import FoundationEssentials
import GalleryFormat
import GalleryMetadata
import GallerySystem
import SystemPackage

// Removing location and identity from a gallery's images: one edit, like any other, so the
// editor can undo it, a save makes a new revision, and a conflicting save keeps a version.
// Image ids, order and captions stay; each changed blob gets its new SHA-256 and size.

/// What a strip did to a gallery.
public struct MetadataStripReport: Sendable, Encodable {
    /// An image whose metadata changed, and the fields that are gone.
    public struct Changed: Sendable, Encodable {
        /// The image's id.
        public var id: String
        /// Its position, 1 for the first.
        public var position: Int
        /// The fields that are gone ("EXIF GPS").
        public var removed: [String]
    }

    /// An image left as it was, and why (a structure that does not read, a motion photo).
    public struct Left: Sendable, Encodable {
        /// The image's id.
        public var id: String
        /// Its position, 1 for the first.
        public var position: Int
        /// Why it was left: the metadata error, with its byte offset.
        public var reason: String
    }

    /// Images whose metadata changed.
    public var changed: [Changed] = []
    /// Images left as they were.
    public var left: [Left] = []
    /// Images whose original file names became neutral ones.
    public var renamed = 0
}

extension GalleryDocument {
    /// Rewrites the images' blobs without what `scope` names, and with `neutralNames` gives
    /// every image a file name from its position (`001.jpg`…), as one edit. Nothing is
    /// re-encoded. An image whose metadata cannot be rewritten safely is left as it was and
    /// listed in the report; the others are still stripped.
    ///
    /// - Throws: ``DocumentError/Kind/closed`` or ``DocumentError/Kind/editingDisabled``;
    ///   ``DocumentError/Kind/noSuchImage`` when an image's bytes are not at hand.
    public func stripMetadata(_ scope: MetadataScope, neutralNames: Bool = false,
                              progress: (Int, Int) -> Void = { _, _ in }) throws -> MetadataStripReport {
        try requireEditable()
        let gallery = history[position].gallery
        var report = MetadataStripReport()
        // The new digest and size of each blob that changes; its bytes are made again at save
        // time (BlobSupply.stripped), so that they are never all held at once.
        var replacements: [SHA256Digest: (sha: SHA256Digest, size: Int, supply: BlobSupply)] = [:]
        var outcomes: [SHA256Digest: Result<[String], MetadataError>] = [:]
        for (index, image) in gallery.images.enumerated() {
            progress(index, gallery.images.count)
            if outcomes[image.sha256] == nil {
                do {
                    guard image.byteSize <= PrivacySurvey.maximumBlobBytes else {
                        throw MetadataError("it holds \(image.byteSize) bytes, more than the \(PrivacySurvey.maximumBlobBytes) "
                                            + "read for metadata")
                    }
                    let source = try supply(for: image)
                    let strip = try ImageMetadata.strip(try source.bytes(of: image), type: image.mediaType, scope: scope)
                    if let bytes = strip.bytes {
                        replacements[image.sha256] = (SHA256Hasher.of(bytes), bytes.count,
                                                      .stripped(original: image, source: source, scope: scope))
                    }
                    outcomes[image.sha256] = .success(strip.removed)
                } catch let error as MetadataError {
                    outcomes[image.sha256] = .failure(error)
                }
            }
            let id = image.id.manifestString
            switch outcomes[image.sha256]! {
            case .success(let removed) where !removed.isEmpty || replacements[image.sha256] != nil:
                report.changed.append(.init(id: id, position: index + 1, removed: removed))
            case .success: break
            case .failure(let error): report.left.append(.init(id: id, position: index + 1, reason: error.reason))
            }
        }
        progress(gallery.images.count, gallery.images.count)
        let width = max(3, String(gallery.images.count).count)
        try edit { gallery in
            for index in gallery.images.indices {
                let old = gallery.images[index]
                if let replacement = replacements[old.sha256] {
                    gallery.images[index].sha256 = replacement.sha
                    gallery.images[index].byteSize = UInt64(replacement.size)
                }
                if neutralNames {
                    let name = String(index + 1).leftPadded(toLength: width, with: "0") + "." + old.mediaType.fileExtension
                    if gallery.images[index].filename != name { report.renamed += 1 }
                    gallery.images[index].filename = name
                }
            }
        }
        for replacement in replacements.values where supplies[replacement.sha] == nil && !isInReader(replacement.sha) {
            supplies[replacement.sha] = replacement.supply
        }
        return report
    }
}

extension String {
    /// The string with `pad` before it up to `length` characters.
    func leftPadded(toLength length: Int, with pad: Character) -> String {
        count >= length ? self : String(repeating: pad, count: length - count) + self
    }
}
