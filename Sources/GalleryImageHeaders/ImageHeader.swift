public import GallerySystem
internal import CGalleryChecksum

/// What an image's header says, read without decoding any pixels.
public struct ImageHeader: Sendable, Hashable {
    /// The type the signature says.
    public var mediaType: MediaType
    /// Width in pixels, as stored (before any EXIF orientation).
    public var width: Int
    /// Height in pixels, as stored (before any EXIF orientation).
    public var height: Int
    /// Bits per sample as stored: PNG 1–16, JPEG 8 or 12, HEIC 8–16 (its `hvcC`); 8 for WebP,
    /// GIF and AVIF, whose readers do not look. Every decoder gives 8 bits a sample.
    public var bitDepth: Int
    /// PNG Adam7 interlacing (always false for JPEG).
    public var interlaced: Bool
    /// Frames of an animated GIF or WebP, counted without decoding; 1 for a still image.
    public var frameCount: Int

    /// A header from its parts.
    public init(mediaType: MediaType, width: Int, height: Int, bitDepth: Int = 8, interlaced: Bool = false,
                frameCount: Int = 1) {
        self.mediaType = mediaType
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.interlaced = interlaced
        self.frameCount = frameCount
    }
}

/// Why an image header could not be read.
public struct ImageHeaderError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, in words.
    public var message: String
    /// The byte offset in the image where the problem was found, when there is one.
    public var offset: UInt64?
    /// Set when the leading bytes are of no type the format takes: what they are instead. The message is
    /// then the whole refusal (``ImageKind/refusal``), to be shown as it is.
    public var kind: ImageKind?
    /// Set when the header reads but the structure behind it does not hold together, found
    /// without decoding a pixel (an AVIF or HEIC item's data past the file, a PNG without
    /// `IDAT`), or a declared size that the coded image's own header contradicts (an `ispe`
    /// unlike its HEVC or AV1 sequence header): which of those problems it is (IG-BLB-017 to
    /// IG-BLB-019). Nil for a header that cannot be read. GalleryFormat gives the same as its
    /// diagnostic code (`diagnostic`).
    public var problem: StructureProblem?

    /// A structure that does not hold together behind a header that reads: each has its
    /// diagnostic id, the raw value.
    public enum StructureProblem: String, Sendable, Hashable, CaseIterable {
        /// `IG-BLB-017`: AVIF or HEIC items do not hold together (`iloc`, `ipma`, grid, `irot`, `imir`).
        case heifItemsBroken = "IG-BLB-017"
        /// `IG-BLB-018`: a PNG without image data (no `IDAT`).
        case pngWithoutImageData = "IG-BLB-018"
        /// `IG-BLB-019`: the declared size contradicts the coded image (`ispe`, VP8X canvas).
        case declaredSizeContradicted = "IG-BLB-019"

        /// The diagnostic id, as reports and messages show it.
        public var id: String { rawValue }
    }

    /// An error from its parts.
    public init(_ message: String, offset: UInt64? = nil, kind: ImageKind? = nil, problem: StructureProblem? = nil) {
        self.message = message
        self.offset = offset
        self.kind = kind
        self.problem = problem
    }

    /// The message, followed by the offset when known.
    public var detail: String { offset.map { "\(message) (at byte \($0))" } ?? message }

    /// The ``detail``, after the ``problem``'s id when there is one.
    public var description: String { problem.map { "\($0.id): \(detail)" } ?? detail }
}

extension ImageHeader {
    /// Reads the header through `read(offset, count)`, which returns up to `count` bytes
    /// (fewer at the end). Seeks from segment to segment, so a large EXIF block costs nothing.
    ///
    /// - Parameters:
    ///   - size: The image's size in bytes, which bounds the walk through JPEG segments.
    ///   - read: Returns up to `count` bytes from `offset` (the closure's two arguments).
    /// - Throws: ``ImageHeaderError`` when the bytes are of no type the format takes (its
    ///   ``ImageHeaderError/kind`` then says what they are) or the header is malformed; whatever
    ///   `read` throws.
    public static func parse(size: UInt64, read: (UInt64, Int) throws -> [UInt8]) throws -> ImageHeader {
        try parse(size: size, checkingData: true, read: read)
    }

    /// ``parse(size:read:)``; without `checkingData`, a PNG's chunks are not walked to its
    /// first `IDAT` (IG-BLB-018): for `thumbnail.png`, whose data `--deep` judges (IG-THM-007).
    package static func parse(size: UInt64, checkingData: Bool, read: (UInt64, Int) throws -> [UInt8]) throws -> ImageHeader {
        let kind = ImageKind.identify(try read(0, ImageKind.identifyingBytes))
        switch kind {
        case .supported(.jpeg): return try parseJPEG(size: size, read: read)
        case .supported(.png):
            let header = try parsePNG(read: read)
            if checkingData { try checkPNGImageData(size: size, read: read) }
            return header
        case .supported(.webp):
            let geometry = try withoutActuallyEscaping(read) { try ImageGeometry.webP(size: size, read: $0) }
            return ImageHeader(mediaType: .webp, width: geometry.width, height: geometry.height, frameCount: geometry.frameCount)
        case .supported(.gif):
            let geometry = try withoutActuallyEscaping(read) { try ImageGeometry.gif(size: size, read: $0) }
            return ImageHeader(mediaType: .gif, width: geometry.width, height: geometry.height, frameCount: geometry.frameCount)
        case .supported(.avif), .supported(.heic):
            return try parseHEIF(size: size, branded: kind, read: read)
        case .unsupported, .unknown:
            throw ImageHeaderError(kind.refusal ?? ImageKind.notAnImage, kind: kind)
        }
    }

    /// AVIF or HEIC, as its brands say, held to the codec of its primary item (section 5).
    private static func parseHEIF(size: UInt64, branded: ImageKind, read: (UInt64, Int) throws -> [UInt8]) throws -> ImageHeader {
        let (geometry, codec) = try withoutActuallyEscaping(read) { try ImageGeometry.heif(size: size, read: $0) }
        let type: MediaType = codec == .av1 ? .avif : .heic
        if case .supported(let named) = branded, named != type {
            // The brands and the item disagree: which decoder would be trusted with it?
            throw ImageHeaderError("its brands say \(named.name), but its primary item is coded \(codec.rawValue) (\(type.name))",
                                   offset: 8)
        }
        return ImageHeader(mediaType: type, width: geometry.width, height: geometry.height, bitDepth: geometry.bitsPerSample)
    }

    /// Reads the header of an image held in memory.
    ///
    /// - Throws: ``ImageHeaderError``, as ``parse(size:read:)`` does.
    public static func parse(_ bytes: [UInt8]) throws -> ImageHeader {
        try parse(size: UInt64(bytes.count), read: bytes.bytes(at:count:))
    }

    /// Reads the header of an image file, with a few small positioned reads.
    ///
    /// - Throws: ``ImageHeaderError``, as ``parse(size:read:)`` does; `FileSystemError` when
    ///   the file cannot be read.
    public static func parse(file: GalleryFile) throws -> ImageHeader {
        let size = try file.size
        return try parse(size: size) { offset, count in try file.read(at: offset, count: count) }
    }

    private static func parsePNG(read: (UInt64, Int) throws -> [UInt8]) throws -> ImageHeader {
        let bytes = try read(8, 25)
        guard bytes.count == 25, Array(bytes[4 ..< 8]) == Array("IHDR".utf8), bytes.be32(0) == 13 else {
            throw ImageHeaderError("PNG does not start with an IHDR chunk", offset: 8)
        }
        let width = bytes.be32(8)
        let height = bytes.be32(12)
        guard (1 ... 0x7FFF_FFFF).contains(width), (1 ... 0x7FFF_FFFF).contains(height) else {
            throw ImageHeaderError("PNG dimensions \(width)×\(height) are out of range", offset: 16)
        }
        let depth = bytes[16]
        let colour = bytes[17]
        let allowed: [UInt8: [UInt8]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard allowed[colour]?.contains(depth) == true else {
            throw ImageHeaderError("PNG colour type \(colour) with bit depth \(depth) is invalid", offset: 24)
        }
        let interlace = bytes[20]
        guard interlace <= 1 else { throw ImageHeaderError("PNG interlace method \(interlace) is invalid", offset: 28) }
        let crc = Array(bytes[4 ..< 21]).withUnsafeBufferPointer { ig_crc32(0, $0.baseAddress, $0.count) }
        guard UInt64(crc) == bytes.be32(21) else { throw ImageHeaderError("PNG IHDR chunk fails its CRC", offset: 29) }
        return ImageHeader(mediaType: .png, width: Int(width), height: Int(height), bitDepth: Int(depth),
                           interlaced: interlace == 1)
    }

    private static func parseJPEG(size: UInt64, read: (UInt64, Int) throws -> [UInt8]) throws -> ImageHeader {
        var offset: UInt64 = 2
        // A real file has a few dozen segments before its frame header; a bound stops a crafted loop.
        for _ in 0 ..< 4096 {
            var marker = try read(offset, 2)
            guard marker.count == 2, marker[0] == 0xFF else {
                throw ImageHeaderError("JPEG marker expected", offset: offset)
            }
            // Fill bytes: any number of 0xFF before a marker.
            while marker[1] == 0xFF {
                offset += 1
                marker = try read(offset, 2)
                guard marker.count == 2 else { throw ImageHeaderError("JPEG ends inside a marker", offset: offset) }
            }
            let code = marker[1]
            if code == 0x01 || (0xD0 ... 0xD7).contains(code) { offset += 2; continue }
            if code == 0xD9 || code == 0xDA {
                throw ImageHeaderError("JPEG has no frame header before its image data", offset: offset)
            }
            let lengthBytes = try read(offset + 2, 2)
            guard lengthBytes.count == 2 else { throw ImageHeaderError("JPEG ends inside a segment", offset: offset) }
            let length = UInt64(lengthBytes[0]) << 8 | UInt64(lengthBytes[1])
            guard length >= 2 else { throw ImageHeaderError("JPEG segment length \(length) is invalid", offset: offset + 2) }
            let isFrame = (0xC0 ... 0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
            if isFrame {
                let frame = try read(offset + 4, 6)
                guard frame.count == 6, length >= 8 else { throw ImageHeaderError("JPEG frame header is truncated", offset: offset) }
                let height = Int(frame[1]) << 8 | Int(frame[2])
                let width = Int(frame[3]) << 8 | Int(frame[4])
                guard width > 0, height > 0 else {
                    throw ImageHeaderError("JPEG frame declares \(width)×\(height) pixels", offset: offset + 5)
                }
                return ImageHeader(mediaType: .jpeg, width: width, height: height, bitDepth: Int(frame[0]))
            }
            offset += 2 + length
            guard offset < size else { throw ImageHeaderError("JPEG ends before its frame header", offset: offset) }
        }
        throw ImageHeaderError("JPEG has too many segments before its frame header", offset: offset)
    }
}
