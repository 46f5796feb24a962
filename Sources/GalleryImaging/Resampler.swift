#if canImport(Glibc)
import func Glibc.sin
#endif

/// Downscales RGBA images with a Lanczos-3 filter, streaming: input rows go in top to bottom
/// (straight from a decoder), each output row comes out as soon as every input row under it
/// has arrived, and only a band of filtered rows is ever held. Colours are weighted by alpha
/// (premultiplied while filtering) so that transparent pixels do not bleed their colour in.
///
/// The filter works on the sRGB values as they are, as vipsthumbnail and ImageMagick do by
/// default; `Benchmarks/RESULTS.md` records how close the output comes to vipsthumbnail's.
public final class Resampler {
    /// The width of the rows ``push(_:)`` takes.
    public let sourceWidth: Int
    /// The rows ``push(_:)`` expects before the output is complete.
    public let sourceHeight: Int
    /// The width of the output, usually from ``fitting(width:height:longSide:)``.
    public let width: Int
    /// The height of the output.
    public let height: Int

    /// For each output column (or row): the first source index and the weights from there.
    struct Contributions {
        var starts: [Int]
        var weights: [[Float]]
        /// Every column's weights one after another, and where each column's begin: the filter's
        /// inner loop reads them from one buffer, in the same order, so the sums are the same.
        let packed: [Float]
        let packedStarts: [Int]

        init(starts: [Int], weights: [[Float]]) {
            self.starts = starts
            self.weights = weights
            packed = weights.flatMap { $0 }
            packedStarts = weights.reduce(into: [0]) { $0.append($0.last! + $1.count) }
        }
    }

    private let horizontal: Contributions
    private let vertical: Contributions
    /// Horizontally filtered source rows, premultiplied, `width` pixels each, in a ring.
    private var band: [SIMD4<Float>]
    private let bandRows: Int
    /// The incoming row, premultiplied: each source pixel is converted once, not once per tap.
    private var premultiplied: [SIMD4<Float>]
    /// One output row's sums.
    private var accumulator: [SIMD4<Float>]
    private var rowsIn: Int
    private var rowsOut: Int
    private var output: [UInt8]

    /// The output rows this resampler makes: all of them, or its part of a resize split
    /// between threads (`Resampler+Parts`).
    let rows: Range<Int>
    /// The source rows it takes, in order: all of them for the whole output, else the rows
    /// under its part's.
    let sourceRows: Range<Int>
    /// Where a part writes its rows: the whole output, which the one who split the work owns.
    /// Nil for a resampler that makes every row into its own ``finish()``.
    private let destination: UnsafeMutablePointer<UInt8>?

    /// A resampler from `sourceWidth` × `sourceHeight` to `width` × `height` (all positive); it
    /// allocates its output and band at once, ``bytesNeeded(sourceWidth:sourceHeight:width:height:)``
    /// in all, so a caller checks that against its budget first.
    public convenience init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        precondition(sourceWidth > 0 && sourceHeight > 0 && width > 0 && height > 0)
        self.init(sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height,
                  horizontal: Self.contributions(from: sourceWidth, to: width),
                  vertical: Self.contributions(from: sourceHeight, to: height), rows: 0 ..< height, destination: nil)
    }

    /// A resampler of `rows` of the output only, written at their place in `destination` (a
    /// buffer of the whole output) when given.
    init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, horizontal: Contributions, vertical: Contributions,
         rows: Range<Int>, destination: UnsafeMutablePointer<UInt8>?) {
        precondition(!rows.isEmpty && rows.lowerBound >= 0 && rows.upperBound <= height && (destination != nil || rows == 0 ..< height))
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
        self.horizontal = horizontal
        self.vertical = vertical
        self.rows = rows
        self.destination = destination
        sourceRows = rows == 0 ..< height ? 0 ..< sourceHeight
            : vertical.starts[rows.lowerBound] ..< rows.reduce(0) { max($0, vertical.starts[$1] + vertical.weights[$1].count) }
        rowsIn = sourceRows.lowerBound
        rowsOut = rows.lowerBound
        // The band must hold every source row one output row needs, plus the row arriving.
        bandRows = (vertical.weights.map(\.count).max() ?? 1) + 1
        band = [SIMD4<Float>](repeating: .zero, count: bandRows * width)
        premultiplied = [SIMD4<Float>](repeating: .zero, count: sourceWidth)
        accumulator = [SIMD4<Float>](repeating: .zero, count: width)
        output = destination == nil ? [UInt8](repeating: 0, count: width * height * 4) : []
    }

    /// The most bytes a resampler of these sizes holds (its output, band, rows and weights), so
    /// that a caller can count it against a memory budget before making one.
    public static func bytesNeeded(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) -> Int {
        // Lanczos-3 reaches 3 source pixels (stretched by the scale) either side of a centre.
        func taps(_ source: Int, _ destination: Int) -> Int {
            2 * Int((3 * max(Double(source) / Double(max(destination, 1)), 1)).rounded(.up)) + 2
        }
        let vertical = taps(sourceHeight, height), horizontal = taps(sourceWidth, width)
        let band = (vertical + 1) * width * MemoryLayout<SIMD4<Float>>.stride
        let rows = (sourceWidth + width) * MemoryLayout<SIMD4<Float>>.stride
        let weights = width * (horizontal * 4 + 48) + height * (vertical * 4 + 48)
        // A whole bitmap's resize may be split in two parts, each with its band and rows.
        return width * height * 4 + 2 * (band + rows) + weights + Self.partStackBytes
    }

    /// The size that fits `longSide` keeping the aspect ratio; never larger than the source.
    public static func fitting(width: Int, height: Int, longSide: Int) -> (width: Int, height: Int) {
        let long = max(width, height)
        guard long > longSide else { return (width, height) }
        let scale = Double(longSide) / Double(long)
        // Ties to even, as the format says for the thumbnail (section 7).
        return (max(1, Int((Double(width) * scale).rounded(.toNearestOrEven))),
                max(1, Int((Double(height) * scale).rounded(.toNearestOrEven))))
    }

    /// Resizes a whole bitmap.
    public static func resize(_ bitmap: Bitmap, width: Int, height: Int) -> Bitmap {
        resize(bitmap, width: width, height: height, colour: nil)
    }

    /// The next source row: `sourceWidth` × 4 bytes of RGBA.
    public func push(_ row: UnsafeBufferPointer<UInt8>) {
        precondition(row.count == sourceWidth * 4 && rowsIn < sourceRows.upperBound)
        premultiplied.withUnsafeMutableBufferPointer { line in
            let pixels = UnsafeRawPointer(row.baseAddress!)
            for x in 0 ..< sourceWidth {
                // The four bytes as floats, the colours times the alpha: the products a lane
                // at a time are those of one channel at a time.
                let pixel = SIMD4<Float>(pixels.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self))
                line[x] = pixel * SIMD4(pixel[3], pixel[3], pixel[3], 1)
            }
        }
        filterPremultipliedRow()
    }

    /// The next source row of 16-bit RGBA, `sourceWidth` × 4 samples: filtered on the same
    /// 0–255 scale with its fractions kept, for a ``colour`` conversion that must not lose the
    /// source's precision first.
    package func push(sixteenBit row: UnsafeBufferPointer<UInt16>) {
        precondition(row.count == sourceWidth * 4 && rowsIn < sourceRows.upperBound)
        sixteenBitRows = true
        premultiplied.withUnsafeMutableBufferPointer { line in
            for x in 0 ..< sourceWidth {
                let p = x * 4
                let alpha = Float(row[p + 3]) / 257
                line[x] = SIMD4(Float(row[p]) / 257 * alpha, Float(row[p + 1]) / 257 * alpha, Float(row[p + 2]) / 257 * alpha, alpha)
            }
        }
        filterPremultipliedRow()
    }

    /// Converts each output row to sRGB (issue 31), when set before the first row comes out:
    /// from 16-bit rows before the colours are rounded to bytes, so that their precision reaches
    /// the conversion; from 8-bit ones after, through Little CMS's 8-bit tables, which are many
    /// times faster than its float path (Benchmarks/RESULTS.md, z) and lose nothing the source had.
    package var colour: ColourTransform?

    /// Told each output row once it is final (filtered, converted, rounded), top to bottom, on
    /// the thread that pushed the row that completed it: a thumbnail's PNG written as it is made.
    package var rowDone: ((UnsafeBufferPointer<UInt8>) -> Void)?

    /// Whether the rows came as 16-bit samples.
    private var sixteenBitRows = false

    private func filterPremultipliedRow() {
        let slot = rowsIn % bandRows
        premultiplied.withUnsafeBufferPointer { line in
            band.withUnsafeMutableBufferPointer { band in
                horizontal.starts.withUnsafeBufferPointer { starts in
                    horizontal.packed.withUnsafeBufferPointer { packed in
                        horizontal.packedStarts.withUnsafeBufferPointer { packedStarts in
                            let out = band.baseAddress! + slot * width
                            // Four output pixels at a time, each its own sum over its taps in
                            // order: the same sums as one at a time, but four chains of additions
                            // in flight instead of one waiting on the last.
                            var x = 0
                            while x + 4 <= width {
                                let from = (line.baseAddress! + starts[x], line.baseAddress! + starts[x + 1],
                                            line.baseAddress! + starts[x + 2], line.baseAddress! + starts[x + 3])
                                let weights = (packed.baseAddress! + packedStarts[x], packed.baseAddress! + packedStarts[x + 1],
                                               packed.baseAddress! + packedStarts[x + 2], packed.baseAddress! + packedStarts[x + 3])
                                let counts = (packedStarts[x + 1] - packedStarts[x], packedStarts[x + 2] - packedStarts[x + 1],
                                              packedStarts[x + 3] - packedStarts[x + 2], packedStarts[x + 4] - packedStarts[x + 3])
                                let common = min(counts.0, counts.1, counts.2, counts.3)
                                var sums = (SIMD4<Float>.zero, SIMD4<Float>.zero, SIMD4<Float>.zero, SIMD4<Float>.zero)
                                for k in 0 ..< common {
                                    sums.0 += from.0[k] * weights.0[k]
                                    sums.1 += from.1[k] * weights.1[k]
                                    sums.2 += from.2[k] * weights.2[k]
                                    sums.3 += from.3[k] * weights.3[k]
                                }
                                for k in common ..< counts.0 { sums.0 += from.0[k] * weights.0[k] }
                                for k in common ..< counts.1 { sums.1 += from.1[k] * weights.1[k] }
                                for k in common ..< counts.2 { sums.2 += from.2[k] * weights.2[k] }
                                for k in common ..< counts.3 { sums.3 += from.3[k] * weights.3[k] }
                                (out[x], out[x + 1], out[x + 2], out[x + 3]) = sums
                                x += 4
                            }
                            while x < width {
                                var sum = SIMD4<Float>.zero
                                let from = line.baseAddress! + starts[x]
                                let weights = packed.baseAddress! + packedStarts[x]
                                for k in 0 ..< packedStarts[x + 1] - packedStarts[x] { sum += from[k] * weights[k] }
                                out[x] = sum
                                x += 1
                            }
                        }
                    }
                }
            }
        }
        rowsIn += 1
        emitReadyRows()
    }

    /// True once every source row has been pushed.
    public var isComplete: Bool { rowsIn == sourceRows.upperBound && rowsOut == rows.upperBound }

    /// The output, once every source row has been pushed.
    public func finish() -> Bitmap {
        precondition(destination == nil && isComplete, "the resampler needs all \(sourceHeight) rows")
        return Bitmap(width: width, height: height, pixels: output)
    }

    private func emitReadyRows() {
        while rowsOut < rows.upperBound {
            let start = vertical.starts[rowsOut]
            let weights = vertical.weights[rowsOut]
            guard start + weights.count <= rowsIn else { return }
            // Row by row over the taps (contiguous, vectorisable), into one accumulator row.
            accumulator.withUnsafeMutableBufferPointer { sums in
                band.withUnsafeBufferPointer { band in
                    for x in 0 ..< width { sums[x] = .zero }
                    for (k, weight) in weights.enumerated() {
                        let row = band.baseAddress! + (start + k) % bandRows * width
                        for x in 0 ..< width { sums[x] += row[x] * weight }
                    }
                }
                let offset = rowsOut * width * 4
                if let destination {
                    round(sums, into: destination + offset)
                } else {
                    output.withUnsafeMutableBufferPointer { output in
                        round(sums, into: output.baseAddress! + offset)
                        rowDone?(UnsafeBufferPointer(start: output.baseAddress! + offset, count: width * 4))
                    }
                }
            }
            rowsOut += 1
        }
    }

    /// One output row's sums as bytes at `out`, converted by ``colour`` if set.
    private func round(_ sums: UnsafeMutableBufferPointer<SIMD4<Float>>, into out: UnsafeMutablePointer<UInt8>) {
        if let colour, colour.convertsFloats, sixteenBitRows {
            // Unweighted and scaled to 0–1 in place, converted, then the alpha.
            for x in 0 ..< width {
                let a = sums[x][3]
                let value = a > 0.001 ? sums[x] / a / 255 : .zero
                sums[x] = SIMD4(min(max(value[0], 0), 1), min(max(value[1], 0), 1), min(max(value[2], 0), 1), a)
            }
            colour.apply(floats: UnsafeRawPointer(sums.baseAddress!), to: out, count: width)
            for x in 0 ..< width { out[x * 4 + 3] = Self.byte(sums[x][3]) }
            return
        }
        for x in 0 ..< width {
            let sum = sums[x]
            // Undo the alpha weighting; a fully transparent result has no colour.
            let a = sum[3]
            let colour = a > 0.001 ? sum / a : .zero
            out[x * 4] = Self.byte(colour[0])
            out[x * 4 + 1] = Self.byte(colour[1])
            out[x * 4 + 2] = Self.byte(colour[2])
            out[x * 4 + 3] = Self.byte(a)
        }
        colour?.apply(toPixelsAt: out, count: width)
    }

    @inline(__always)
    private static func byte(_ value: Float) -> UInt8 {
        UInt8(min(max(value, 0), 255) + 0.5)
    }

    /// Lanczos-3, stretched by the reduction factor so that it averages every source pixel.
    static func contributions(from source: Int, to destination: Int) -> Contributions {
        let scale = Double(source) / Double(destination)
        let stretch = max(scale, 1)
        let support = 3 * stretch
        var starts: [Int] = []
        var weights: [[Float]] = []
        for index in 0 ..< destination {
            let centre = (Double(index) + 0.5) * scale
            let first = max(0, Int((centre - support).rounded(.down)))
            let last = min(source - 1, Int((centre + support).rounded(.up)))
            var row: [Double] = []
            for j in first ... last {
                row.append(lanczos3((Double(j) + 0.5 - centre) / stretch))
            }
            // Trim zero weights at the ends, then normalise so flat areas stay flat.
            var lower = 0
            var upper = row.count
            while lower < upper - 1, row[lower] == 0 { lower += 1 }
            while upper > lower + 1, row[upper - 1] == 0 { upper -= 1 }
            let kept = Array(row[lower ..< upper])
            let sum = kept.reduce(0, +)
            starts.append(first + lower)
            weights.append(kept.map { Float($0 / (sum == 0 ? 1 : sum)) })
        }
        return Contributions(starts: starts, weights: weights)
    }

    static func lanczos3(_ x: Double) -> Double {
        let x = abs(x)
        guard x < 3 else { return 0 }
        guard x > 1e-9 else { return 1 }
        let pix = Double.pi * x
        return 3 * sin(pix) * sin(pix / 3) / (pix * pix)
    }
}
