import GalleryFormat

/// The `thumbnail.png` a writer stores (format section 7): the first image, upright, fitted
/// into 1,024 px and never enlarged; the grey placeholder for a gallery with no images.
public enum GalleryThumbnail {
    public static let longSide = GalleryPackage.maxThumbnailSide

    /// Memory a writer's thumbnail may take: a 100-megapixel photo still gets one.
    public static let limits = DecodeLimits(maxPixels: 100_000_000, maxBytes: 256 << 20)

    public static func png(firstImage bytes: [UInt8]?) throws -> [UInt8] {
        guard let bytes else { return PlaceholderThumbnail.png(forFirstImage: nil) }
        return try Thumbnailer.thumbnail(of: bytes, longSide: longSide, limits: limits).png()
    }
}
