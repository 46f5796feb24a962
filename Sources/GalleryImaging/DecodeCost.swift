import GalleryFormat

/// What decoding costs in CPU per pixel worked through, codec by codec, as measured on this
/// project's machine kind (2 cores; `Benchmarks/decode-cost.py`, RESULTS.md section w) with
/// the cheapest bytes a pixel can be coded in, which is what a hostile file sends: the costs
/// are the floor per pixel, so that a file cannot get a larger picture past the budget by
/// being simpler. Each figure is rounded up from the measured median.
package enum DecodeCost {
    package static func nanosecondsPerPixel(_ type: MediaType, scale: Int = 8) -> Double {
        switch type {
        // GIF's LZW decodes every pixel of a frame, one table lookup and copy at a time.
        case .gif: 16
        // The entropy decode of every block is paid at any scale; the IDCT and colour
        // conversion shrink with the output.
        case .jpeg: scale >= 8 ? 4 : scale >= 4 ? 2 : 1.5
        case .png: 2.5
        case .webp: 6
        case .avif: 12
        case .heic: 12
        }
    }

    /// The cost in words, for messages: "16 ns a pixel".
    package static func describe(_ type: MediaType, scale: Int = 8) -> String {
        let cost = nanosecondsPerPixel(type, scale: scale)
        let shown = cost == cost.rounded() ? "\(Int(cost))" : "\(cost)"
        return "\(shown) ns a pixel for \(type.name)" + (type == .jpeg && scale < 8 ? " at \(scale)/8 scale" : "")
    }
}
