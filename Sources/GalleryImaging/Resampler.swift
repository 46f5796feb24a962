#if canImport(Glibc)
import Glibc
#endif

/// Downscales RGBA images with a Lanczos-3 filter, streaming: input rows go in top to bottom
/// (straight from a decoder), each output row comes out as soon as every input row under it
/// has arrived, and only a band of filtered rows is ever held. Colours are weighted by alpha
/// (premultiplied while filtering) so that transparent pixels do not bleed their colour in.
///
/// The filter works on the sRGB values as they are, as vipsthumbnail and ImageMagick do by
/// default; `Benchmarks/RESULTS.md` records how close the output comes to vipsthumbnail's.
public final class Resampler {
    public let sourceWidth: Int
    public let sourceHeight: Int
    public let width: Int
    public let height: Int

    /// For each output column (or row): the first source index and the weights from there.
    struct Contributions {
        var starts: [Int]
        var weights: [[Float]]
    }

    private let horizontal: Contributions
    private let vertical: Contributions
    /// Horizontally filtered source rows, premultiplied, `width` × 4 floats each, in a ring.
    private var band: [Float]
    private let bandRows: Int
    private var rowsIn = 0
    private var rowsOut = 0
    private var output: [UInt8]

    public init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        precondition(sourceWidth > 0 && sourceHeight > 0 && width > 0 && height > 0)
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
        horizontal = Self.contributions(from: sourceWidth, to: width)
        vertical = Self.contributions(from: sourceHeight, to: height)
        // The band must hold every source row one output row needs, plus the row arriving.
        bandRows = (vertical.weights.map(\.count).max() ?? 1) + 1
        band = [Float](repeating: 0, count: bandRows * width * 4)
        output = [UInt8](repeating: 0, count: width * height * 4)
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
        let resampler = Resampler(sourceWidth: bitmap.width, sourceHeight: bitmap.height, width: width, height: height)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            let rowBytes = bitmap.width * 4
            for row in 0 ..< bitmap.height {
                resampler.push(UnsafeBufferPointer(rebasing: pixels[row * rowBytes ..< (row + 1) * rowBytes]))
            }
        }
        return resampler.finish()
    }

    /// The next source row: `sourceWidth` × 4 bytes of RGBA.
    public func push(_ row: UnsafeBufferPointer<UInt8>) {
        precondition(row.count == sourceWidth * 4 && rowsIn < sourceHeight)
        let slot = rowsIn % bandRows
        band.withUnsafeMutableBufferPointer { band in
            let out = band.baseAddress! + slot * width * 4
            for x in 0 ..< width {
                var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                let start = horizontal.starts[x]
                let weights = horizontal.weights[x]
                for (k, weight) in weights.enumerated() {
                    let p = (start + k) * 4
                    let alpha = Float(row[p + 3]) * weight
                    r += Float(row[p]) * alpha
                    g += Float(row[p + 1]) * alpha
                    b += Float(row[p + 2]) * alpha
                    a += alpha
                }
                out[x * 4] = r
                out[x * 4 + 1] = g
                out[x * 4 + 2] = b
                out[x * 4 + 3] = a
            }
        }
        rowsIn += 1
        emitReadyRows()
    }

    /// True once every source row has been pushed.
    public var isComplete: Bool { rowsIn == sourceHeight && rowsOut == height }

    /// The output, once every source row has been pushed.
    public func finish() -> Bitmap {
        precondition(rowsIn == sourceHeight && rowsOut == height, "the resampler needs all \(sourceHeight) rows")
        return Bitmap(width: width, height: height, pixels: output)
    }

    private func emitReadyRows() {
        while rowsOut < height {
            let start = vertical.starts[rowsOut]
            let weights = vertical.weights[rowsOut]
            guard start + weights.count <= rowsIn else { return }
            band.withUnsafeBufferPointer { band in
                output.withUnsafeMutableBufferPointer { output in
                    let out = output.baseAddress! + rowsOut * width * 4
                    for x in 0 ..< width {
                        var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                        for (k, weight) in weights.enumerated() {
                            let p = ((start + k) % bandRows * width + x) * 4
                            r += band[p] * weight
                            g += band[p + 1] * weight
                            b += band[p + 2] * weight
                            a += band[p + 3] * weight
                        }
                        // Undo the alpha weighting; a fully transparent result has no colour.
                        let alpha = min(max(a, 0), 255)
                        if a > 0.001 {
                            out[x * 4] = Self.byte(r / a)
                            out[x * 4 + 1] = Self.byte(g / a)
                            out[x * 4 + 2] = Self.byte(b / a)
                        } else {
                            out[x * 4] = 0
                            out[x * 4 + 1] = 0
                            out[x * 4 + 2] = 0
                        }
                        out[x * 4 + 3] = Self.byte(alpha)
                    }
                }
            }
            rowsOut += 1
        }
    }

    @inline(__always)
    private static func byte(_ value: Float) -> UInt8 {
        UInt8(min(max(value, 0), 255).rounded())
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
