import ArgumentParser
import Foundation
import GalleryFormat
import GalleryImaging
import Synchronization

extension ImageGallery {
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Create a gallery from image files, folders of images and http(s) URLs.",
            discussion: """
                Files are taken in the order given; a folder contributes its JPEG and PNG files (not its \
                subfolders) in natural name order, so 2.jpg comes before 10.jpg. Other files in a folder are \
                skipped with a warning, hidden files silently. Pixel sizes come from the image headers.

                URLs are fetched through the cache in $XDG_CACHE_HOME/imagegallery, several at once, and each is \
                recorded as its image's source. A URL that fails is reported and left out: the gallery holds the \
                rest, in the order given, and the exit status is 4 (5, and no file, when nothing could be had).

                The result is deterministic: the same inputs give the same bytes. The time stamp is --date, \
                else $SOURCE_DATE_EPOCH, else the newest modification time of the images (for a URL, its \
                Last-Modified; the current time when there is none); the document id is derived from title, time and images unless --id \
                is given.
                """
        )

        @Argument(help: "The gallery file to write.")
        var output: String

        @Argument(help: "Image files, folders of images and URLs. None gives an empty gallery.")
        var sources: [String] = []

        @Option(help: "The gallery's title (default: the output file's name without extension).")
        var title: String?

        @Option(help: "Created and modified time, RFC 3339 (e.g. 2026-01-02T03:04:05Z).")
        var date: String?

        @Option(help: "The document id (a UUID).")
        var id: String?

        @Flag(help: "Replace the output file if it exists.")
        var force = false

        @Flag(help: ArgumentHelp(
            "Skip the flush to disk before the file is renamed into place.",
            discussion: "Faster on large galleries, like zip or tar, which never flush; but a power cut soon after "
                + "may leave the new file incomplete. Never use it when replacing a file with --force."))
        var noSync = false

        @OptionGroup var fetching: FetchCommandOptions
        @OptionGroup var outputOptions: OutputOptions

        func validate() throws {
            if let date, Timestamp(rfc3339: date) == nil {
                throw ValidationError("--date \"\(date)\" is not an RFC 3339 date-time such as 2026-01-02T03:04:05Z")
            }
            if let id, UUID(uuidString: id) == nil { throw ValidationError("--id \"\(id)\" is not a UUID") }
            if noSync, force {
                // Replacing without a flush could lose the old file and the new one in a crash.
                throw ValidationError("--no-sync cannot be combined with --force: a replaced file must be flushed first")
            }
            if let title, title.unicodeScalars.count > 1000 || title.utf8.contains(0) {
                throw ValidationError("--title must be at most 1000 characters, without NUL")
            }
        }

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

        func run() throws {
            try reportingFailures {
                if !force, PathKind.of(output) != .missing {
                    throw CommandFailure(message: "\(output): already exists (use --force to replace it)",
                                         status: ExitStatus.cannotCreate)
                }
                let (items, skipped) = try Fetching.items(sources)
                for path in skipped { Terminal.warning("\(path): skipped: not a JPEG or PNG image") }
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
                let fetched = try Fetching.fetch(items, options: fetching, quiet: false)
                defer { fetched.removeSpool() }
                let images = Self.images(items, inspected: inspected, fetched: fetched)
                let failed = items.count - images.count
                if failed > 0, images.isEmpty {
                    try Fetching.failNothingAdded(path: output, message: "\(output): no image could be fetched; nothing was written",
                                                  items: items, fetched: fetched, json: outputOptions.json)
                }

                let (gallery, total) = try write(images, recheck: inspected)

                let report = Report(path: output, id: gallery.id.manifestString, revision: gallery.revision.manifestString,
                                    imageCount: gallery.images.count, blobCount: gallery.distinctBlobs.count,
                                    totalBytes: total, skipped: skipped,
                                    items: fetched.isEmpty ? nil : Self.itemReports(items, fetched: fetched, gallery: gallery))
                if outputOptions.json {
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
            Self.makeGallery(from: images, title: title ?? Self.defaultTitle(for: output), date: date, id: id)
        }

        /// The same for a caller without a command line of its own (`convert` of seed JSON).
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

        static func defaultTitle(for path: String) -> String {
            var name = GalleryFileSystem.fileName(of: path)
            if name.hasSuffix(".imagegallery") { name.removeLast(".imagegallery".count) }
            return name
        }
    }
}

private let UUID_NULL_BYTES: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

/// Turns the command line's sources into image paths.
enum SourceList {
    static func expand(_ sources: [String]) throws -> (images: [String], skipped: [String]) {
        var images: [String] = []
        var skipped: [String] = []
        for source in sources {
            switch PathKind.of(source) {
            case .missing:
                throw CommandFailure(message: "\(source): no such file or folder", status: ExitStatus.noInput)
            case .other:
                throw CommandFailure(message: "\(source): not a regular file or folder", status: ExitStatus.noInput)
            case .regularFile:
                images.append(source)
            case .directory:
                let names: [String]
                do {
                    names = try FileManager.default.contentsOfDirectory(atPath: source)
                } catch {
                    throw CommandFailure(message: "\(source): cannot list the folder", status: ExitStatus.noInput)
                }
                let base = source.hasSuffix("/") ? source : source + "/"
                for name in names.sorted(by: NaturalOrder.areInIncreasingOrder) where !name.hasPrefix(".") {
                    let path = base + name
                    guard PathKind.of(path) == .regularFile else { continue }
                    if ImageFile.looksLikeImage(path) { images.append(path) } else { skipped.append(path) }
                }
            }
        }
        return (images, skipped)
    }
}
