import GalleryFormat
import GalleryImaging

/// Renditions: each picture at a few sizes, so that a browser downloads the one that fits its
/// screen (`srcset`) and a phone never fetches a 24 MP original to show a grid or a slide.
extension WebGalleryWriter {
    /// The long sides made, smallest first; only those smaller than the picture (never enlarged).
    public static let renditionSides = [480, 1024, 2048]

    /// One rendition as written: `sized/NNN-SIDE.jpg` (or `.png` for a picture with transparency).
    struct Rendition: Sendable {
        var path: String
        var width: Int
        var height: Int
        var bytes: UInt64
    }

    /// The renditions of `bytes` (the published image) smaller than its upright size `upright`,
    /// written into `output`. The largest is decoded once, colour-converted to sRGB and turned
    /// upright by the thumbnailer (as the thumbnails are); the smaller ones are filtered down from
    /// it, which costs a fraction of another decode. GIF has none: a rendition would stop its
    /// animation. A picture our decoders refuse has none either; the original stands in.
    static func writeRenditions(of bytes: [UInt8], at position: Int, upright: (width: Int, height: Int),
                                of site: WebGallerySite, into output: FolderOutput) throws -> [Rendition] {
        let image = site.images[position]
        let sides = renditionSides.filter { $0 < max(upright.width, upright.height) }
        guard image.mediaType != .gif, let largest = sides.last,
              let bitmap = try? Thumbnailer.thumbnail(of: bytes, longSide: largest, limits: limits) else { return [] }
        let format = bitmap.isOpaque ? "jpg" : "png"
        var written: [Rendition] = []
        for side in sides.reversed() {
            let size = Resampler.fitting(width: bitmap.width, height: bitmap.height, longSide: side)
            let picture = side == largest ? bitmap : Resampler.resize(bitmap, width: size.width, height: size.height)
            let encoded = format == "jpg" ? try JPEGEncoder.encode(picture, quality: 85) : picture.png()
            let path = site.renditionPath(position, side: side, format: format)
            try output.write(path, bytes: encoded)
            written.insert(Rendition(path: path, width: picture.width, height: picture.height, bytes: UInt64(encoded.count)), at: 0)
        }
        return written
    }
}
