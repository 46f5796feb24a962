import GalleryImageHeaders

extension Thumbnailer {
    /// A GIF whose first frame covers its screen (what a camera's or an encoder's GIF is): its
    /// colour indices, a byte a pixel, cross to the filter's thread, where they are looked up
    /// and filtered; this thread runs the LZW alone, which is the slower side (Benchmarks/
    /// RESULTS.md, ac.4). An interlaced frame's rows cross once every row above them is in
    /// (`GIFDecoder.decodeIndexedRows`). Nil, nothing decoded, for any other GIF.
    static func gifFromIndices(_ bytes: [UInt8], width: Int, height: Int, limits: DecodeLimits,
                               resampler: Resampler) throws -> ImageGeometry? {
        let colours = GIFColours(width: width)
        let geometry = try RowPipeline.run(rowBytes: width, consume: { colours.push($0, to: resampler) }) { rows in
            try GIFDecoder.decodeIndexedRows(bytes, limits: limits, palette: { colours.table = $0 }, rows: rows)
        }
        if let past = colours.past, let table = colours.table { throw table.pastTheTable(past) }
        return geometry
    }

    /// What a GIF's rows need on the filter's side: the table (set on the decoding thread
    /// before the first row crosses, which the pipeline's lock orders before its use), a row
    /// of RGBA, and the first index found past the table.
    private final class GIFColours: @unchecked Sendable {
        var table: GIFDecoder.ColourTable?
        private(set) var past: Int?
        private var rgba: [UInt8]

        init(width: Int) { rgba = [UInt8](repeating: 0, count: width * 4) }

        func push(_ indices: UnsafeBufferPointer<UInt8>, to resampler: Resampler) {
            // After damage the rows are still taken, unfiltered, so the decoder runs to its end
            // (bounded as admitted) and the error is thrown once, where the decode returns.
            guard past == nil, let table else { return }
            past = rgba.withUnsafeMutableBytes { table.expand(indices, into: $0) }
            guard past == nil else { return }
            rgba.withUnsafeBufferPointer { resampler.push($0) }
        }
    }
}
