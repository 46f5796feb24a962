import GalleryFormat

/// The `thumbnail.png` a writer stores (format section 7): the first image, upright, fitted
/// into 256 px and never enlarged; the grey placeholder for a gallery with no images.
///
/// 256 px is the size file managers ask for most (GNOME's and XFCE's "large"), as OpenRaster and
/// ODF embed; serving it costs a 256 px PNG decode instead of a photo's. The format allows up to
/// 1,024 px; larger requests decode the photo.
public enum GalleryThumbnail {
    /// The long side of a written thumbnail, in pixels: the image is fitted into a square of this
    /// side, and a smaller first image is kept at its own size.
    public static let longSide = 256

    /// Memory a writer's thumbnail may take: a 100-megapixel photo still gets one. Its decode
    /// may take ``cpuBudget`` of CPU, by each codec's cost per pixel.
    public static let limits = DecodeLimits(maxPixels: 100_000_000, maxBytes: 256 << 20, cpuBudget: cpuBudget)

    /// The CPU a thumbnail's decode may take, estimated from the header and the file's size: no
    /// input may cost a thumbnail path (the thumbnailer, `thumbnail`, the embedded thumbnail of
    /// `create` and `add`) more than 2 s of CPU on this project's machine kind, and the
    /// decode's estimate is kept under that for the reading, filtering and writing around it.
    /// A file manager opening a folder of hostile files pays it per file. A 24 MP phone HEIC is
    /// within it (1.4 s by `DecodeCost`); a 48 MP one is not, and gets the embedded or grey
    /// thumbnail with a notice.
    public static let cpuBudget = Duration.milliseconds(1500)

    /// The PNG bytes of a gallery's `thumbnail.png`: the first image's bytes (any type the format
    /// takes) decoded within ``limits``, turned upright and fitted into ``longSide``, or the grey
    /// placeholder when the gallery has no image. Throws the decoder's error when the first image
    /// cannot be decoded within the limits; the caller decides whether a placeholder will do.
    public static func png(firstImage bytes: [UInt8]?) throws -> [UInt8] {
        guard let bytes else { return PlaceholderThumbnail.png(forFirstImage: nil) }
        var limits = limits
        limits.writesPNG = true
        return try Thumbnailer.thumbnail(of: bytes, longSide: longSide, limits: limits).png()
    }
}
