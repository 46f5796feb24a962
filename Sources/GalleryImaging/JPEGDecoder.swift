internal import CImageCodecs
import GalleryFormat
import GalleryImageHeaders

/// JPEG decoding through libjpeg-turbo's scanline reader (`jpeg_decoder.c`), with DCT scaling
/// and limits checked before any allocation.
public enum JPEGDecoder {
    /// Decodes `bytes` at the smallest DCT scale (1/8, 1/4, 3/8, 1/2 … 1) whose output still
    /// covers `covering` (width and height), or at full size when it is nil. Any decoder
    /// warning is an error: a thumbnailer must not spend time on damaged data.
    public static func decode(_ bytes: [UInt8], covering: (width: Int, height: Int)? = nil,
                              limits: DecodeLimits = DecodeLimits()) throws -> Bitmap {
        try bytes.withUnsafeBytes { try decode($0, covering: covering, limits: limits) }
    }

    /// The same decode from bytes already in memory (a blob mapped or read whole), without the copy
    /// into an array.
    public static func decode(_ bytes: UnsafeRawBufferPointer, covering: (width: Int, height: Int)? = nil,
                              limits: DecodeLimits = DecodeLimits()) throws -> Bitmap {
        try decode(bytes, covering: covering, limits: limits, cmykProfile: nil)
    }

    /// The same decode, a CMYK image's ink turned into sRGB by its profile's transform when
    /// one is given (issue 31), else by the plain formula.
    package static func decode(_ bytes: UnsafeRawBufferPointer, covering: (width: Int, height: Int)?,
                               limits: DecodeLimits, cmykProfile: ColourTransform?) throws -> Bitmap {
        let plan = try Plan(bytes, covering: covering, limits: limits, holdsOutput: true)
        let rowBytes = plan.width * 4
        let count = rowBytes * plan.height
        let pixels = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialised in
            var filled = 0
            try plan.decodeRows(bytes, cmykProfile: cmykProfile) { row in
                UnsafeMutableRawPointer(buffer.baseAddress! + filled).copyMemory(from: row.baseAddress!, byteCount: rowBytes)
                filled += rowBytes
            }
            initialised = filled
        }
        guard pixels.count == count else { throw ImageDecodeError(.corrupt, "the JPEG's rows are incomplete") }
        return Bitmap(width: plan.width, height: plan.height, pixels: pixels)
    }

    /// A decode admitted by the limits: the scale that covers what is wanted, and the size of
    /// the output at it.
    package struct Plan {
        package let width: Int
        package let height: Int
        let scale: Scale

        /// Parses the frame, picks the scale and admits the work: the decoder's own memory,
        /// plus the whole output when `holdsOutput`, else a few rows of it.
        package init(_ bytes: UnsafeRawBufferPointer, covering: (width: Int, height: Int)?, limits: DecodeLimits,
                     holdsOutput: Bool) throws {
            let structure = try JPEGStructure.decodingParse(bytes)
            guard structure.scans <= limits.maxScans else {
                throw ImageDecodeError(.pastLimit, "the JPEG has \(structure.scans) scans, past the limit of \(limits.maxScans)")
            }
            guard structure.scans > 0 else { throw ImageDecodeError(.corrupt, "the JPEG has no image data (no scan)") }
            scale = scalingFactor(for: structure, covering: covering)
            width = scaled(structure.width, scale)
            height = scaled(structure.height, scale)
            // Every block is entropy-decoded whatever the scale; what is held is the output at its
            // scale, or the rows the decoder hands on.
            let held = holdsOutput ? height : rowsAtOnce
            let memory = bytes.count + structure.decodeMemory(scaledWidth: width, scaledHeight: held,
                                                              multiScan: structure.progressive || structure.scans > 1)
            let what = scale.numerator == 8 ? "JPEG image" : "JPEG image at \(scale.numerator)/8 scale"
            try limits.admit(DecodeWork(.jpeg, what, declared: (structure.width, structure.height), codedBytes: bytes.count,
                                        held: width * held, bytes: memory, scale: scale.numerator))
        }

        /// Decodes, handing each row to `rows` as it comes, top to bottom: `width` × 4 bytes of
        /// RGBA, a CMYK image's already turned into RGB.
        package func decodeRows(_ bytes: UnsafeRawBufferPointer, cmykProfile: ColourTransform?,
                                rows: (UnsafeBufferPointer<UInt8>) -> Void) throws {
            try withoutActuallyEscaping(rows) { rows in
                let sink = RowSink { row, cmyk in
                    if cmyk {
                        if let cmykProfile, cmykProfile.layout == .invertedCMYK {
                            cmykProfile.apply(toDecoded: row)
                        } else {
                            JPEGDecoder.convertCMYK(row)
                        }
                    }
                    rows(UnsafeBufferPointer(row.bindMemory(to: UInt8.self)))
                }
                var message = [CChar](repeating: 0, count: 256)
                let status = ig_jpeg_decode_rows(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count,
                                                 Int32(scale.numerator), UInt32(width), UInt32(height), { context, pixels, width, cmyk in
                    let sink = Unmanaged<RowSink>.fromOpaque(context!).takeUnretainedValue()
                    sink.take(UnsafeMutableRawBufferPointer(start: pixels, count: Int(width) * 4), cmyk != 0)
                }, Unmanaged.passUnretained(sink).toOpaque(), &message, message.count)
                withExtendedLifetime(sink) {}
                guard status == Int32(IG_JPEG_OK) else {
                    throw JPEGDecoder.error(libraryMessage(message))
                }
            }
        }
    }

    /// Rows libjpeg reads at once, held while they are handed on.
    static let rowsAtOnce = Int(IG_JPEG_ROWS_AT_ONCE)

    /// What the C decoder calls back, by reference.
    private final class RowSink {
        let take: (UnsafeMutableRawBufferPointer, Bool) -> Void
        init(_ take: @escaping (UnsafeMutableRawBufferPointer, Bool) -> Void) { self.take = take }
    }

    /// Decodes every scan at the smallest scale: all the entropy-coded data is read and
    /// checked, for a fraction of a full decode's memory and time.
    public static func verify(_ bytes: UnsafeRawBufferPointer, limits: DecodeLimits = DecodeLimits()) throws {
        _ = try decode(bytes, covering: (1, 1), limits: limits)
    }

    /// Reads the frame through `read` without touching the image data: what a decode of the
    /// whole file at the smallest scale would need, so a caller can budget before reading it.
    public static func memoryToVerify(size: UInt64, read: (UInt64, Int) throws -> [UInt8]) throws -> Int {
        let structure = try JPEGStructure.decodingFrame(size: size, read: read)
        let scale = scalingFactor(for: structure, covering: (1, 1))
        // Only a progressive frame says it has several scans. A baseline file may have them too
        // (rare: one scan per component); libjpeg then holds the whole image's coefficients, past
        // this estimate but within the cap the caller sets on libjpeg itself (JPEGMEM).
        return Int(size) + structure.decodeMemory(scaledWidth: scaled(structure.width, scale),
                                                  scaledHeight: scaled(structure.height, scale),
                                                  multiScan: structure.progressive)
    }

    typealias Scale = (numerator: Int, denominator: Int)

    static func scalingFactor(for structure: JPEGStructure, covering: (width: Int, height: Int)?) -> Scale {
        // Eighths throughout (8/8 is the whole image), so that the work is admitted at its scale.
        guard let covering else { return (8, 8) }
        // libjpeg-turbo scales by n/8 for n in 1…16; beyond 8/8 is never wanted here.
        var best: Scale = (8, 8)
        for numerator in stride(from: 8, through: 1, by: -1) {
            let scale = (numerator, 8)
            if scaled(structure.width, scale) >= covering.width && scaled(structure.height, scale) >= covering.height {
                best = scale
            } else {
                break
            }
        }
        return best
    }

    static func scaled(_ dimension: Int, _ scale: Scale) -> Int {
        (dimension * scale.numerator + scale.denominator - 1) / scale.denominator
    }

    private static func error(_ message: String) -> ImageDecodeError {
        // libjpeg's memory manager refuses past JPEGMEM with this message.
        if message.contains("Backing store") || message.contains("Insufficient memory") {
            return ImageDecodeError(.pastLimit, "the JPEG needs more memory than the decoder may use (\(message))")
        }
        return ImageDecodeError(.corrupt, message)
    }

    /// CMYK as Adobe writes it (inverted: 255 is no ink) to RGBA, in place.
    private static func convertCMYK(_ pixels: UnsafeMutableRawBufferPointer) {
        var index = 0
        while index < pixels.count {
            let k = UInt32(pixels[index + 3])
            pixels[index] = UInt8(UInt32(pixels[index]) * k / 255)
            pixels[index + 1] = UInt8(UInt32(pixels[index + 1]) * k / 255)
            pixels[index + 2] = UInt8(UInt32(pixels[index + 2]) * k / 255)
            pixels[index + 3] = 255
            index += 4
        }
    }
}
