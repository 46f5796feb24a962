internal import CZlib
import GalleryFormat

/// Hand-made PNG files, byte by byte, for inputs no encoder would write.
public enum PNGBytes {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        rawChunk(type: type, declaredLength: UInt32(data.count), data: data)
    }

    /// A chunk whose length field says `declaredLength`, whatever `data` holds.
    public static func rawChunk(type: String, declaredLength: UInt32, data: [UInt8]) -> [UInt8] {
        var crc = CRC32()
        let body = Array(type.utf8) + data
        crc.update(body)
        return be32(declaredLength) + body + be32(crc.value)
    }

    /// The width and height a PNG file's IHDR gives, or nil when the file is not a PNG.
    public static func size(ofFile path: String) throws -> (width: Int, height: Int)? {
        let bytes = try FileBytes.read(path)
        guard bytes.count > 24, bytes.prefix(8).elementsEqual(signature) else { return nil }
        func word(_ at: Int) -> Int { bytes[at ..< at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    /// Signature, IHDR, `chunks`, IEND.
    public static func file(width: UInt32, height: UInt32, bitDepth: UInt8, colourType: UInt8, interlaced: Bool = false,
                     chunks: [[UInt8]]) -> [UInt8] {
        let ihdr = be32(width) + be32(height) + [bitDepth, colourType, 0, 0, interlaced ? 1 : 0]
        return signature + chunk("IHDR", ihdr) + chunks.joined() + chunk("IEND", [])
    }

    public static func zlibCompressed(_ bytes: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = compress2(&out, &size, bytes, uLong(bytes.count), 9)
        precondition(status == Z_OK)
        return Array(out.prefix(Int(size)))
    }

    /// A zlib stream of stored blocks (no compression).
    public static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        precondition(bytes.count < 65536)
        let length = UInt16(bytes.count)
        var out: [UInt8] = [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        out += bytes
        let adler = bytes.withUnsafeBufferPointer { adler32(1, $0.baseAddress, uInt($0.count)) }
        return out + be32(UInt32(adler))
    }

    /// `png` with an `iCCP` chunk holding `profile` (zlib-compressed) right after `IHDR`.
    public static func withICCProfile(_ profile: [UInt8], over png: [UInt8]) -> [UInt8] {
        Array(png[..<33]) + chunk("iCCP", Array("profile".utf8) + [0, 0] + zlibCompressed(profile)) + Array(png[33...])
    }

    public static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// SplitMix64: the same sequence on every run, so a failure can be replayed.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension PNGBytes {
    /// A small real RGB image whose pixels all follow from `seed`: different seeds give
    /// different bytes, and every one decodes.
    public static func image(seed: Int, width: UInt32 = 8, height: UInt32 = 6) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0 ..< Int(height) {
            raw.append(0)  // filter type None
            for x in 0 ..< Int(width) {
                raw += [UInt8(truncatingIfNeeded: seed &* 37 &+ x &* 11), UInt8(truncatingIfNeeded: seed &* 91 &+ y &* 7),
                        UInt8(truncatingIfNeeded: seed &* 13 &+ x &* y)]
            }
        }
        return file(width: width, height: height, bitDepth: 8, colourType: 2,
                    chunks: [chunk("IDAT", zlibCompressed(raw))])
    }
}
