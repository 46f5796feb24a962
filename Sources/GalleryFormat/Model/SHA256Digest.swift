/// A SHA-256 digest: the identity of a blob's bytes.
public struct SHA256Digest: Sendable, Hashable, Comparable, CustomStringConvertible {
    // Four words, so a digest is a plain value with no heap storage.
    private var words: (UInt64, UInt64, UInt64, UInt64)

    public init(bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count == 32, "a SHA-256 digest has 32 bytes")
        func word(_ at: Int) -> UInt64 { bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self).bigEndian }
        words = (word(0), word(8), word(16), word(24))
    }

    /// Parses 64 lowercase hexadecimal digits; nil for anything else.
    public init?(hex: some StringProtocol) {
        var utf8 = Array(hex.utf8)
        guard let digest = utf8.withUnsafeMutableBytes({ SHA256Digest(hexBytes: UnsafeRawBufferPointer($0)) }) else {
            return nil
        }
        self = digest
    }

    /// Parses 64 lowercase hexadecimal digits given as ASCII bytes.
    init?(hexBytes: UnsafeRawBufferPointer) {
        guard hexBytes.count == 64 else { return nil }
        var parsed: [UInt64] = [0, 0, 0, 0]
        for index in 0 ..< 64 {
            let c = hexBytes[index]
            let nibble: UInt64
            switch c {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): nibble = UInt64(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): nibble = UInt64(c - UInt8(ascii: "a") + 10)
            default: return nil
            }
            parsed[index / 16] = parsed[index / 16] << 4 | nibble
        }
        words = (parsed[0], parsed[1], parsed[2], parsed[3])
    }

    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for word in [words.0, words.1, words.2, words.3] {
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return out
    }

    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public var description: String { hex }

    public static func == (a: SHA256Digest, b: SHA256Digest) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
    }

    public static func < (a: SHA256Digest, b: SHA256Digest) -> Bool {
        (a.words.0, a.words.1, a.words.2, a.words.3) < (b.words.0, b.words.1, b.words.2, b.words.3)
    }
}
