import GalleryFormat
import GalleryImageHeaders

/// What decoding costs in CPU, codec by codec: a floor per pixel worked through, paid however
/// simply the pixels are coded, and a cost per byte of coded data, paid by the entropy decoder
/// however few pixels the bytes make. Measured on this project's machine kind (2 cores;
/// `Benchmarks/decode-cost.py`, RESULTS.md section w): the per-pixel figure from an image of one
/// colour (the cheapest bytes a pixel can be coded in, which is what a hostile file sends to get
/// the most pixels past a budget), the per-byte figure from noise (the most bytes a pixel can
/// carry). Each is the measured figure rounded up.
package enum DecodeCost {
    /// CPU nanoseconds a decode of `type` costs for each pixel worked through, at `scale`/8 for
    /// JPEG's DCT scaling (the entropy decode of every block is paid at any scale; the IDCT and
    /// the colour conversion shrink with the output).
    package static func nanosecondsPerPixel(_ type: MediaType, scale: Int = 8) -> Double {
        switch type {
        // LZW decodes every pixel, one table lookup and copy at a time.
        case .gif: 16
        case .jpeg: scale >= 8 ? 4 : scale >= 4 ? 2 : 1
        case .png: 14
        case .webp: 10
        case .avif: 7
        // libde265 and the YCbCr conversion: a 24 MP phone photo (3.9 MB) is 1.4 s by this
        // table and measured 1.5 s of decode; 48 MP ones are past the thumbnail budget here.
        case .heic: 32
        }
    }

    /// CPU nanoseconds a decode of `type` costs for each byte of the file.
    package static func nanosecondsPerByte(_ type: MediaType) -> Double {
        switch type {
        case .gif: 3
        case .jpeg: 14
        case .png: 2
        // One figure for lossy and lossless: lossy's entropy decode measured 88, lossless 6.4.
        case .webp: 100
        case .avif: 95
        case .heic: 160
        }
    }

    /// The estimated CPU, in nanoseconds, of decoding `pixels` from `bytes` of `type`.
    package static func nanoseconds(_ type: MediaType, pixels: Int, bytes: Int, scale: Int = 8) -> Double {
        Double(pixels) * nanosecondsPerPixel(type, scale: scale) + Double(bytes) * nanosecondsPerByte(type)
    }

    /// The cost in words, for messages: "16 ns a pixel and 10 ns a byte for GIF".
    package static func describe(_ type: MediaType, scale: Int = 8) -> String {
        func shown(_ cost: Double) -> String { cost == cost.rounded() ? "\(Int(cost))" : "\(cost)" }
        return "\(shown(nanosecondsPerPixel(type, scale: scale))) ns a pixel"
            + (type == .jpeg && scale < 8 ? " at \(scale)/8 scale" : "")
            + " and \(shown(nanosecondsPerByte(type))) ns a byte for \(type.name)"
    }
}
