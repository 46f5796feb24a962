import ArgumentParser
import Foundation
import GalleryFormat
import GalleryImaging

/// A gallery to be made from images: what `create` asks for, and `convert` of a folder or an
/// archive too, each from its own command line, so that no command parses another's.
struct GalleryCreation {
    var output: String
    var title: String
    /// RFC 3339, already checked.
    var date: String?
    /// A UUID, already checked.
    var id: String?
    var force: Bool
    var noSync: Bool
    var json: Bool

    struct Report: Encodable {
        var path: String
        var id: String
        var revision: String
        var imageCount: Int
        var blobCount: Int
        var totalBytes: UInt64
        var skipped: [String]
        /// What became of each item, when some were URLs.
        var items: [ItemReport]?
    }

    /// Writes a gallery of `sources` (files, folders, URLs) and reports it. `fetching` is nil
    /// for a caller whose sources cannot hold URLs (convert of a folder).
    func run(_ sources: [String], fetching: FetchCommandOptions?) throws {
        if !force, PathKind.of(output) != .missing {
            throw CommandFailure(message: "\(output): already exists (use --force to replace it)",
                                 status: ExitStatus.cannotCreate)
        }
        let (items, skipped) = try Fetching.items(sources)
        for path in skipped { Terminal.warning("\(path): skipped: \(ImageFile.refusal(ofFileAt: path))") }
        let paths = items.compactMap { item -> String? in if case .file(let path) = item { path } else { nil } }

        let hashing = ProgressBar("Reading", total: UInt64(paths.count))
        let inspected: [InspectedImageFile]
        do {
            inspected = try ImageFile.inspectAll(paths) { done in hashing.update(UInt64(done), detail: "\(done)/\(paths.count)") }
        } catch let error as NotAnImageError {
            hashing.finish()
            throw CommandFailure(message: error.description, status: ExitStatus.dataError)
        }
        hashing.finish()
        let fetched = try fetching.map { try Fetching.fetch(items, options: $0, quiet: false) } ?? .none
        defer { fetched.removeSpool() }
        let images = Self.images(items, inspected: inspected, fetched: fetched)
        let failed = items.count - images.count
        if failed > 0, images.isEmpty {
            try Fetching.failNothingAdded(path: output, message: "\(output): no image could be fetched; nothing was written",
                                          items: items, fetched: fetched, json: json)
        }

        let (gallery, total) = try write(images, recheck: inspected)

        let report = Report(path: output, id: gallery.id.manifestString, revision: gallery.revision.manifestString,
                            imageCount: gallery.images.count, blobCount: gallery.distinctBlobs.count,
                            totalBytes: total, skipped: skipped,
                            items: fetched.isEmpty ? nil : Self.itemReports(items, fetched: fetched, gallery: gallery))
        if json {
            try Terminal.printJSON(report)
        } else {
            let duplicates = report.imageCount - report.blobCount
            print("created \(output): \(report.imageCount) image\(report.imageCount == 1 ? "" : "s")"
                  + (duplicates > 0 ? " (\(duplicates) identical, stored once)" : "")
                  + ", \(ByteCount.describe(total))"
                  + (failed > 0 ? "; \(failed) could not be fetched" : ""))
        }
        let status = Fetching.status(failed: failed, of: items.count)
        if status != 0 { throw ExitCode(status) }
    }

    /// Writes the gallery of `images` to the output, with a progress bar. `inspected` files are
    /// checked again just before the commit: one rewritten since it was hashed would make the
    /// gallery lie about it.
    func write(_ images: [CreateImage], recheck inspected: [InspectedImageFile] = []) throws -> (gallery: Gallery, total: UInt64) {
        let gallery = makeGallery(from: images)
        let bySHA = Dictionary(images.map { ($0.sha256, $0) }, uniquingKeysWith: { first, _ in first })
        let thumbnail = try Self.thumbnail(of: gallery.images.first.map { bySHA[$0.sha256]! })
        let total = gallery.distinctBlobs.reduce(0) { $0 + $1.byteSize }
        let writing = ProgressBar("Writing", total: total)
        try GalleryWriter.write(
            gallery, thumbnail: thumbnail, to: output, overwrite: force, durable: !noSync,
            progress: { writing.update($0, detail: ByteCount.describe($0)) },
            beforeCommit: {
                for source in inspected where try FileIdentity.of(path: source.path) != source.identity {
                    throw CommandFailure(message: "\(source.path): changed while the gallery was written; "
                                         + "nothing was written, try again", status: ExitStatus.dataError)
                }
            },
            blob: { image in bySHA[image.sha256]!.blob }
        )
        writing.finish()
        return (gallery, total)
    }

    /// The first image made small; a damaged first image gets the placeholder and a warning
    /// (its header was sound, or it would not be in the gallery).
    static func thumbnail(of firstImage: CreateImage?) throws -> [UInt8] {
        guard let firstImage else { return try GalleryThumbnail.png(firstImage: nil) }
        do {
            guard firstImage.byteSize <= UInt64(GalleryThumbnail.limits.maxBytes / 2) else {
                throw ImageDecodeError(.pastLimit, "\(firstImage.byteSize) bytes is more than a thumbnail is made from")
            }
            return try GalleryThumbnail.png(firstImage: firstImage.bytes())
        } catch let error as ImageDecodeError {
            Terminal.warning("\(firstImage.name): no thumbnail from this image (\(error.message)); a grey one is stored")
            return PlaceholderThumbnail.png(forFirstImage: (firstImage.header.width, firstImage.header.height))
        }
    }

    /// Builds the manifest content; every derived value is a pure function of the inputs.
    func makeGallery(from images: [CreateImage]) -> Gallery {
        Self.makeGallery(from: images, title: title, date: date, id: id)
    }

    /// The same for a caller with images of its own (`convert` of seed JSON).
    static func makeGallery(from images: [CreateImage], title name: String, date: String?, id: String?) -> Gallery {
        let time = date.flatMap { Timestamp(rfc3339: $0) }
            ?? ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"].flatMap { Int64($0) }.map { Timestamp(seconds: $0) }
            ?? images.compactMap { $0.modified.map { Timestamp(seconds: $0) } }.max()
            ?? Timestamp(seconds: Int64(Date().timeIntervalSince1970))
        let documentID = id.flatMap { UUID(uuidString: $0) } ?? UUID.nameBased(
            namespace: GalleryNamespace.documents,
            name: ([name, time.rfc3339] + images.map(\.sha256.hex)).joined(separator: "\n"))
        let galleryImages = images.enumerated().map { index, image in
            GalleryImage(id: UUID.nameBased(namespace: documentID, name: "\(index):\(image.sha256.hex)"),
                         mediaType: image.header.mediaType, width: image.header.width, height: image.header.height,
                         byteSize: image.byteSize, sha256: image.sha256, source: image.source,
                         filename: image.filename)
        }
        var gallery = Gallery(id: documentID, revision: UUID(uuid: UUID_NULL_BYTES), title: name, created: time,
                              modified: time, images: galleryImages)
        gallery.revision = Manifest.contentRevision(of: gallery)
        return gallery
    }

}

private let UUID_NULL_BYTES: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
