import GalleryFormat

/// The thumbnail written until real thumbnails are made from the first image (imaging issue):
/// uniform mid-grey, the first image's aspect ratio, long side 256 px.
public enum PlaceholderThumbnail {
    /// The placeholder's long side, in pixels: the size of a real thumbnail (``GalleryThumbnail/longSide``).
    public static let longSide = 256

    /// Dimensions for an image of `width`×`height` (square for an empty gallery).
    public static func size(forFirstImage image: (width: Int, height: Int)?) -> (width: Int, height: Int) {
        guard let image, image.width > 0, image.height > 0 else { return (longSide, longSide) }
        let long = max(image.width, image.height)
        let short = min(image.width, image.height)
        let scaled = max(1, Int((Double(longSide) * Double(short) / Double(long)).rounded(.toNearestOrEven)))
        return image.width >= image.height ? (longSide, scaled) : (scaled, longSide)
    }

    /// The placeholder's PNG bytes, the size ``size(forFirstImage:)`` gives: what a gallery with no
    /// image (or a first image whose thumbnail cannot be made) stores as `thumbnail.png`.
    /// Deterministic, so two writers store the same bytes.
    public static func png(forFirstImage image: (width: Int, height: Int)?) -> [UInt8] {
        let (width, height) = size(forFirstImage: image)
        return PNGEncoder.encode(width: width, height: height, layout: .rgb,
                                 pixels: [UInt8](repeating: 128, count: width * height * 3))
    }
}
