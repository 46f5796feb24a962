import GalleryFormat

/// The `thumbnail.png` a writer stores (format section 7): the first image, upright, fitted
/// into 256 px and never enlarged; the grey placeholder for a gallery with no images.
///
/// 256 px is the size file managers ask for most (GNOME's and XFCE's "large"), as OpenRaster and
/// ODF embed; serving it costs a 256 px PNG decode instead of a photo's. The format allows up to
/// 1,024 px; larger requests decode the photo.
public enum GalleryThumbnail {
    public static let longSide = 256

    /// Memory a writer's thumbnail may take: a 100-megapixel photo still gets one.
    public static let limits = DecodeLimits(maxPixels: 100_000_000, maxBytes: 256 << 20)

    public static func png(firstImage bytes: [UInt8]?) throws -> [UInt8] {
        guard let bytes else { return PlaceholderThumbnail.png(forFirstImage: nil) }
        return try Thumbnailer.thumbnail(of: bytes, longSide: longSide, limits: limits).png()
    }
}
