internal import CWebP
import GalleryFormat
import GalleryImageHeaders

/// WebP through libwebp 1.2.4: our own chunk reader first (`ImageGeometry.webP`), so that a
/// canvas past the limits or a frame off its canvas never reaches the library; then the
/// still image decoded straight into our buffer, or an animation's first frame composed on its
/// canvas by libwebp's animation decoder. libwebp has no warnings: damage fails the decode.
package enum WebPDecoder {
    /// Decodes the first frame. A still image is scaled while decoding when `covering` is
    /// smaller than it (libwebp's rescaler, so a large picture is never held whole). `threaded`
    /// false keeps a lossy image's decode on the calling thread (a test's control decode).
    package static func decode(_ bytes: [UInt8], covering: (width: Int, height: Int)? = nil,
                               limits: DecodeLimits = DecodeLimits(), threaded: Bool = true) throws -> DecodedFrame {
        let geometry = try ImageHeaderError.asDecodeError { try ImageGeometry.webP(size: UInt64(bytes.count), read: bytes.bytes(at:count:)) }
        try FormatTwoLibrary.require(.webp)
        let bitmap = try bytes.withUnsafeBytes { raw in
            geometry.frameCount > 1
                ? try firstFrame(raw, geometry: geometry, limits: limits)
                : try still(raw, geometry: geometry, covering: covering, limits: limits, threaded: threaded)
        }
        return DecodedFrame(bitmap: bitmap, geometry: geometry)
    }

    private static func still(_ raw: UnsafeRawBufferPointer, geometry: ImageGeometry,
                              covering: (width: Int, height: Int)?, limits: DecodeLimits, threaded: Bool) throws -> Bitmap {
        var (width, height) = (geometry.width, geometry.height)
        if let covering, covering.width < width || covering.height < height {
            let fitted = Resampler.fitting(width: width, height: height, longSide: max(covering.width, covering.height))
            (width, height) = (max(fitted.width, 1), max(fitted.height, 1))
        }
        // The whole image is decoded, whatever the scaled output holds: admitted as validate
        // --deep admits it.
        try limits.admit(DecodeWork(.webp, "WebP image", declared: (geometry.width, geometry.height), codedBytes: raw.count, held: width * height,
                                    bytes: memory(width: geometry.width, height: geometry.height, frames: geometry.frameCount,
                                                  simpleLossy: isSimpleLossy(raw), output: (width, height), byteCount: raw.count)))
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        // A lossy image's rows are filtered and scaled on libwebp's second thread while the
        // first reconstructs the next ones, as vipsthumbnail has it. When that thread cannot be
        // started (an address-space cap), libwebp says "out of memory" before it has decoded a
        // row (it allocates a lossy frame's memory and its thread first), so a second try on one
        // thread costs no work twice. A lossless image has no such thread, and its allocations
        // come while it decodes: its failure stands.
        var (status, format) = try decodeStill(raw, geometry: geometry, into: &pixels, width: width, height: height, threaded: threaded)
        if threaded && status == VP8_STATUS_OUT_OF_MEMORY && format == Self.lossyFormat {
            (status, _) = try decodeStill(raw, geometry: geometry, into: &pixels, width: width, height: height, threaded: false)
        }
        guard status == VP8_STATUS_OK else { throw ImageDecodeError(.corrupt, "libwebp: \(describe(status))") }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    private static func decodeStill(_ raw: UnsafeRawBufferPointer, geometry: ImageGeometry, into pixels: inout [UInt8],
                                    width: Int, height: Int, threaded: Bool) throws -> (VP8StatusCode, format: Int32) {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw ImageDecodeError(.pastLimit, "libwebp could not start") }
        defer { WebPFreeDecBuffer(&config.output) }
        let status = pixels.withUnsafeMutableBufferPointer { buffer -> VP8StatusCode in
            config.options.use_threads = threaded ? 1 : 0
            config.output.colorspace = MODE_RGBA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = buffer.baseAddress
            config.output.u.RGBA.stride = Int32(width * 4)
            config.output.u.RGBA.size = buffer.count
            if width != geometry.width || height != geometry.height {
                config.options.use_scaling = 1
                config.options.scaled_width = Int32(width)
                config.options.scaled_height = Int32(height)
            }
            return WebPDecode(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count, &config)
        }
        // WebPDecode reads the bitstream's features into `input` before it decodes.
        return (status, config.input.format)
    }

    /// `WebPBitstreamFeatures.format` of a VP8 (lossy) bitstream; 2 is lossless, 0 mixed.
    static let lossyFormat: Int32 = 1

    private static func firstFrame(_ raw: UnsafeRawBufferPointer, geometry: ImageGeometry, limits: DecodeLimits) throws -> Bitmap {
        let (width, height) = (geometry.width, geometry.height)
        try limits.admit(DecodeWork(.webp, "WebP animation's canvas", declared: (width, height), codedBytes: raw.count,
                                    bytes: memory(width: geometry.width, height: geometry.height, frames: geometry.frameCount,
                                                  simpleLossy: false, output: (width, height), byteCount: raw.count)))
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw ImageDecodeError(.pastLimit, "libwebp could not start") }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        var data = WebPData(bytes: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), size: raw.count)
        guard let decoder = WebPAnimDecoderNew(&data, &options) else {
            throw ImageDecodeError(.corrupt, "libwebp refused the animation's chunks")
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0, Int(info.canvas_width) == width, Int(info.canvas_height) == height else {
            throw ImageDecodeError(.corrupt, "libwebp reads the animation's canvas as \(info.canvas_width)×\(info.canvas_height), "
                                   + "not the \(width)×\(height) of its VP8X chunk")
        }
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
            throw ImageDecodeError(.corrupt, "libwebp could not decode the animation's first frame")
        }
        return Bitmap(width: width, height: height, pixels: Array(UnsafeBufferPointer(start: canvas, count: width * height * 4)))
    }

    /// What a decode of a `width` × `height` image into `output` pixels holds at most: the
    /// output, and libwebp's own. A simple lossy file (a bare `VP8 ` chunk) is decoded a band
    /// of rows at a time (YUV rows and the rescaler's, well under 64 rows' worth); anything else
    /// may hold the whole image (a lossless frame's ARGB pixels and its transforms' buffers, an
    /// alpha plane); an animation, the canvas twice (the previous one is kept for disposal),
    /// our copy and one frame's decode.
    static func memory(width: Int, height: Int, frames: Int, simpleLossy: Bool, output: (width: Int, height: Int),
                       byteCount: Int) -> Int {
        let held = frames > 1 ? width * height * 16 : simpleLossy ? width * 64 * 6 : width * height * 5
        return byteCount + output.width * output.height * 4 + held
    }

    /// A bare lossy file: `RIFF`, size, `WEBP`, then a `VP8 ` chunk (no VP8X, no alpha).
    static func isSimpleLossy(_ raw: some Collection<UInt8>) -> Bool {
        raw.count >= 16 && raw.dropFirst(12).prefix(4).elementsEqual("VP8 ".utf8)
    }

    private static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "an invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "its bitstream is damaged"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "it uses a feature libwebp does not support"
        case VP8_STATUS_SUSPENDED: "decoding was suspended"
        case VP8_STATUS_USER_ABORT: "decoding was stopped"
        case VP8_STATUS_NOT_ENOUGH_DATA: "it is truncated"
        default: "status \(status.rawValue)"
        }
    }
}
