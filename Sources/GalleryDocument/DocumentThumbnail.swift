import GalleryFormat
import GalleryImaging

/// The thumbnail a save stores: made again only when the cover (the chosen one, else the first
/// image) changed.
enum DocumentThumbnail {
    /// The thumbnail of `gallery`, whose cover's bytes `blob` gives (nil: not at hand,
    /// which gives the placeholder). An image that does not decode gets the placeholder too:
    /// its header was sound, or it would not be in the gallery.
    static func png(for gallery: Gallery, blob: (GalleryImage) throws -> [UInt8]?) throws -> [UInt8] {
        try made(for: gallery, blob: blob).png
    }

    /// ``png(for:blob:)``, and why the placeholder was stored when it was (nil when the cover
    /// was made small, or there is none).
    static func made(for gallery: Gallery, blob: (GalleryImage) throws -> [UInt8]?) throws
        -> (png: [UInt8], placeholderReason: String?) {
        guard let first = gallery.coverImage else { return (try GalleryThumbnail.png(firstImage: nil), nil) }
        let placeholder = PlaceholderThumbnail.png(forFirstImage: (first.width, first.height))
        guard first.byteSize <= UInt64(GalleryThumbnail.limits.maxBytes / 2) else {
            return (placeholder, "\(first.byteSize) bytes is more than a thumbnail is made from")
        }
        guard let bytes = try blob(first) else { return (placeholder, "its bytes are not at hand") }
        do {
            return (try GalleryThumbnail.png(firstImage: bytes), nil)
        } catch let error as ImageDecodeError {
            return (placeholder, error.message)
        }
    }
}
