import GalleryFormat
import GalleryImaging

/// One image of a gallery being created: a file given, or one a URL was spooled to.
struct CreateImage {
    /// The file or URL, for messages.
    var name: String
    /// Where its bytes are.
    var path: String
    var crc32: UInt32
    var header: ImageHeader
    var byteSize: UInt64
    var sha256: SHA256Digest
    var filename: String?
    var source: String?
    /// Seconds since 1970: a file's modification time, a URL's Last-Modified.
    var modified: Int64?

    var blob: BlobSource { .checksummedFile(path, crc32: crc32) }

    func bytes() throws -> [UInt8] { try GalleryFile.openForReading(path).read(at: 0, count: Int(byteSize)) }
}

extension GalleryCreation {
    /// The items that gave an image, in command-line order.
    static func images(_ items: [SourceItem], inspected: [InspectedImageFile],
                       fetched: FetchRun) -> [CreateImage] {
        var files = inspected.makeIterator()
        return items.compactMap { item in
            switch item {
            case .file:
                let file = files.next()!
                return CreateImage(name: file.path, path: file.path, crc32: file.crc32, header: file.header,
                                   byteSize: file.byteSize, sha256: file.sha256,
                                   filename: GalleryFileSystem.fileName(of: file.path), source: nil,
                                   modified: file.identity.modified.seconds)
            case .url(let url):
                guard case .success(let image) = fetched[url] else { return nil }
                return CreateImage(name: url, path: image.path, crc32: image.crc32, header: image.header,
                                   byteSize: image.byteSize, sha256: image.sha256, filename: image.filename, source: url,
                                   modified: image.lastModified)
            }
        }
    }

    static func itemReports(_ items: [SourceItem], fetched: FetchRun,
                            gallery: Gallery) -> [ItemReport] {
        var galleryImages = gallery.images.makeIterator()
        return items.map { item in
            switch item {
            case .file(let path):
                return ItemReport(source: path, status: "added", image: galleryImages.next()?.id.manifestString)
            case .url(let url):
                let result = fetched[url]
                if case .success = result {
                    return Fetching.report(url, result, image: galleryImages.next()?.id.manifestString)
                }
                return Fetching.report(url, result, image: nil)
            }
        }
    }
}
