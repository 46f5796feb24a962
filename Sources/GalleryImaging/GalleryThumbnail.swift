import GalleryFormat

/// The `thumbnail.png` a writer stores (format section 7): the first image, upright, fitted
/// into 256 px and never enlarged; the grey placeholder for a gallery with no images.
///
/// 256 px is the size file managers ask for most (GNOME's and XFCE's "large"), as OpenRaster and
/// ODF embed; serving it costs a 256 px PNG decode instead of a photo's. The format allows up to
/// 1,024 px; larger requests decode the photo.
public enum GalleryThumbnail {
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

    public static func png(firstImage bytes: [UInt8]?) throws -> [UInt8] {
        guard let bytes else { return PlaceholderThumbnail.png(forFirstImage: nil) }
        return try Thumbnailer.thumbnail(of: bytes, longSide: longSide, limits: limits).png()
    }
}
