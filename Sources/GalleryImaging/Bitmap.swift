/// Decoded pixels: 8-bit RGBA, rows top to bottom with no padding.
public struct Bitmap: Sendable, Equatable {
    /// Columns of pixels: after ``oriented(_:)``, the width the image is seen at.
    public var width: Int { didSet { madePNG = nil } }
    /// Rows of pixels, top to bottom.
    public var height: Int { didSet { madePNG = nil } }
    /// Four bytes a pixel (red, green, blue, alpha), `width` × `height` × 4 in all: the layout
    /// ``PNGEncoder`` and ``Resampler`` take without a copy.
    public var pixels: [UInt8] {
        // One that never reads the old value lets the array change where it lies (SE-0268).
        didSet { madePNG = nil }
    }

    /// `png()` of these very pixels, written while a thumbnailer filtered them
    /// (`DecodeLimits.writesPNG`); any change to the bitmap drops it.
    package internal(set) var madePNG: [UInt8]?

    /// Wraps decoded pixels; traps unless both sides are positive and `pixels` holds exactly
    /// `width` × `height` RGBA pixels, so a wrong buffer fails where it is made, not in an encoder.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The same size and pixels; a PNG made alongside is no part of the picture.
    public static func == (left: Bitmap, right: Bitmap) -> Bool {
        left.width == right.width && left.height == right.height && left.pixels == right.pixels
    }
}
