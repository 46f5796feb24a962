/// Decoded pixels: 8-bit RGBA, rows top to bottom with no padding.
public struct Bitmap: Sendable, Equatable {
    /// Columns of pixels: after ``oriented(_:)``, the width the image is seen at.
    public var width: Int
    /// Rows of pixels, top to bottom.
    public var height: Int
    /// Four bytes a pixel (red, green, blue, alpha), `width` × `height` × 4 in all: the layout
    /// ``PNGEncoder`` and ``Resampler`` take without a copy.
    public var pixels: [UInt8]

    /// Wraps decoded pixels; traps unless both sides are positive and `pixels` holds exactly
    /// `width` × `height` RGBA pixels, so a wrong buffer fails where it is made, not in an encoder.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4)
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
