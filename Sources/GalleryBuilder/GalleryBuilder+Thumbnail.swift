import GalleryFormat
import GalleryImaging

extension GalleryBuilder {
    /// The cover (``cover``, else the first image) made small, as the gallery's `thumbnail.png`; an empty gallery gets the
    /// empty-gallery picture. A first image whose pixels cannot be had gets a grey placeholder
    /// of its shape and an event, never a failed write: its header was sound. A
    /// ``thumbnailAhead`` made from the first image's bytes is taken as it is.
    /// - Throws: `FileSystemError` when the first image's file cannot be read.
    public func thumbnailPNG(events: ((Event) -> Void)? = nil) throws -> [UInt8] {
        let chosen = cover.flatMap { images.indices.contains($0) ? images[$0] : nil }
        guard let first = chosen ?? images.first else { return PlaceholderThumbnail.png(forFirstImage: nil) }
        let made = try thumbnailAhead?.png(for: first) ?? Self.thumbnail(of: first)
        switch made {
        case .success(let png):
            return png
        case .failure(let error):
            events?(.placeholderThumbnail(image: first.name, reason: error.message))
            return PlaceholderThumbnail.png(forFirstImage: (first.header.width, first.header.height))
        }
    }

    private static func thumbnail(of first: SourceImage) throws -> Swift.Result<[UInt8], ImageDecodeError> {
        do {
            guard first.byteSize <= UInt64(GalleryThumbnail.limits.maxBytes / 2) else {
                throw ImageDecodeError(.pastLimit, "\(first.byteSize) bytes is more than a thumbnail is made from")
            }
            return .success(try GalleryThumbnail.png(firstImage: first.bytes()))
        } catch let error as ImageDecodeError {
            return .failure(error)
        }
    }
}
