import GalleryFetch
import GalleryFormat
import GalleryImaging

/// One image of a gallery being created, from a file or a URL.
struct CreateImage {
    var name: String
    var header: ImageHeader
    var byteSize: UInt64
    var sha256: SHA256Digest
    var filename: String?
    var source: String?
    /// Seconds since 1970: a file's modification time, a URL's Last-Modified.
    var modified: Int64?
    var blob: BlobSource
    var bytes: () throws -> [UInt8]
}

extension ImageGallery.Create {
    /// The items that gave an image, in command-line order.
    static func images(_ items: [SourceItem], inspected: [InspectedImageFile],
                       fetched: [String: Result<SpooledImage, FetchFailure>]) -> [CreateImage] {
        var files = inspected.makeIterator()
        return items.compactMap { item in
            switch item {
            case .file:
                let file = files.next()!
                return CreateImage(name: file.path, header: file.header, byteSize: file.byteSize, sha256: file.sha256,
                                   filename: GalleryFileSystem.fileName(of: file.path), source: nil,
                                   modified: file.identity.modified.seconds, blob: .checksummedFile(file.path, crc32: file.crc32),
                                   bytes: {
                                       let handle = try GalleryFile.openForReading(file.path)
                                       return try handle.read(at: 0, count: Int(file.byteSize))
                                   })
            case .url(let url):
                guard case .success(let image) = fetched[url] else { return nil }
                return CreateImage(name: url, header: image.header, byteSize: image.byteSize, sha256: image.sha256,
                                   filename: image.filename, source: url, modified: image.lastModified,
                                   blob: .checksummedFile(image.path, crc32: image.crc32),
                                   bytes: {
                                       let handle = try GalleryFile.openForReading(image.path)
                                       return try handle.read(at: 0, count: Int(image.byteSize))
                                   })
            }
        }
    }

    static func itemReports(_ items: [SourceItem], fetched: [String: Result<SpooledImage, FetchFailure>],
                            gallery: Gallery) -> [ItemReport] {
        var galleryImages = gallery.images.makeIterator()
        return items.map { item in
            switch item {
            case .file(let path):
                return ItemReport(source: path, status: "added", image: galleryImages.next()?.id.manifestString)
            case .url(let url):
                let result = fetched[url]!
                if case .success = result {
                    return Fetching.report(url, result, image: galleryImages.next()?.id.manifestString)
                }
                return Fetching.report(url, result, image: nil)
            }
        }
    }
}
