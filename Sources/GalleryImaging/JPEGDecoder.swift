internal import CTurboJPEG
import GalleryFormat
import GalleryImageHeaders

/// JPEG decoding through TurboJPEG, with DCT scaling and limits checked before any allocation.
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
        let structure = try JPEGStructure.decodingParse(bytes)
        guard structure.scans <= limits.maxScans else {
            throw ImageDecodeError(.pastLimit, "the JPEG has \(structure.scans) scans, past the limit of \(limits.maxScans)")
        }
        guard structure.scans > 0 else { throw ImageDecodeError(.corrupt, "the JPEG has no image data (no scan)") }
        let scale = scalingFactor(for: structure, covering: covering)
        let width = scaled(structure.width, scale)
        let height = scaled(structure.height, scale)
        // Every block is entropy-decoded whatever the scale; what is held is the output at its scale.
        let memory = bytes.count + structure.decodeMemory(scaledWidth: width, scaledHeight: height,
                                                          multiScan: structure.progressive || structure.scans > 1)
        let what = scale.numerator == 8 ? "JPEG image" : "JPEG image at \(scale.numerator)/8 scale"
        try limits.admit(DecodeWork(.jpeg, what, declared: (structure.width, structure.height), codedBytes: bytes.count, held: width * height,
                                    bytes: memory, scale: scale.numerator))

        guard let handle = tjInitDecompress() else { throw ImageDecodeError(.pastLimit, "TurboJPEG could not start") }
        defer { tjDestroy(handle) }
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var headerWidth: Int32 = 0, headerHeight: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        guard tjDecompressHeader3(handle, base, UInt(bytes.count), &headerWidth, &headerHeight, &subsampling,
                                  &colourspace) == 0 else {
            throw error(handle)
        }
        let cmyk = colourspace == Int32(TJCS_CMYK.rawValue) || colourspace == Int32(TJCS_YCCK.rawValue)
        var output = [UInt8](repeating: 0, count: width * height * 4)
        let status = output.withUnsafeMutableBufferPointer { buffer in
            tjDecompress2(handle, base, UInt(bytes.count), buffer.baseAddress, Int32(width), 0, Int32(height),
                          cmyk ? Int32(TJPF_CMYK.rawValue) : Int32(TJPF_RGBA.rawValue), TJFLAG_STOPONWARNING)
        }
        guard status == 0 else { throw error(handle) }
        if cmyk {
            if let cmykProfile, cmykProfile.layout == .invertedCMYK {
                cmykProfile.apply(to: &output)
            } else {
                convertCMYK(&output)
            }
        }
        return Bitmap(width: width, height: height, pixels: output)
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
        guard let covering else { return (1, 1) }
        // libjpeg-turbo scales by n/8 for n in 1…16; beyond 1/1 is never wanted here.
        var best: Scale = (1, 1)
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

    private static func error(_ handle: tjhandle) -> ImageDecodeError {
        let message = libraryMessage(tjGetErrorStr2(handle))
        // libjpeg's memory manager refuses past JPEGMEM with this message.
        if message.contains("Backing store") || message.contains("Insufficient memory") {
            return ImageDecodeError(.pastLimit, "the JPEG needs more memory than the decoder may use (\(message))")
        }
        return ImageDecodeError(.corrupt, message)
    }

    /// CMYK as Adobe writes it (inverted: 255 is no ink) to RGBA.
    private static func convertCMYK(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                let k = UInt32(buffer[index + 3])
                buffer[index] = UInt8(UInt32(buffer[index]) * k / 255)
                buffer[index + 1] = UInt8(UInt32(buffer[index + 1]) * k / 255)
                buffer[index + 2] = UInt8(UInt32(buffer[index + 2]) * k / 255)
                buffer[index + 3] = 255
                index += 4
            }
        }
    }
}
