import GalleryFormat
import GalleryImaging

/// The thumbnail a save stores: made again only when the first image changed.
enum DocumentThumbnail {
    /// The thumbnail of `gallery`, whose first image's bytes `blob` gives (nil: not at hand,
    /// which gives the placeholder). An image that does not decode gets the placeholder too:
    /// its header was sound, or it would not be in the gallery.
    static func png(for gallery: Gallery, blob: (GalleryImage) throws -> [UInt8]?) throws -> [UInt8] {
        guard let first = gallery.images.first else { return try GalleryThumbnail.png(firstImage: nil) }
        guard first.byteSize <= UInt64(GalleryThumbnail.limits.maxBytes / 2), let bytes = try blob(first) else {
            return PlaceholderThumbnail.png(forFirstImage: (first.width, first.height))
        }
        do {
            return try GalleryThumbnail.png(firstImage: bytes)
        } catch is ImageDecodeError {
            return PlaceholderThumbnail.png(forFirstImage: (first.width, first.height))
        }
    }
}
