/// A SHA-256 digest: the identity of a blob's bytes.
public struct SHA256Digest: Sendable, Hashable, Comparable, CustomStringConvertible {
    // Four words, so a digest is a plain value with no heap storage.
    package private(set) var words: (UInt64, UInt64, UInt64, UInt64)

    /// A digest from its 32 bytes; any other count is a programming error (a precondition).
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
        func word(_ from: Int) -> UInt64? {
            func half(_ at: Int) -> UInt32? {
                HexTable.lowercaseValue(UInt64(littleEndian: hexBytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
            }
            guard let high = half(from), let low = half(from + 8) else { return nil }
            return UInt64(high) << 32 | UInt64(low)
        }
        guard let w0 = word(0), let w1 = word(16), let w2 = word(32), let w3 = word(48) else { return nil }
        words = (w0, w1, w2, w3)
    }

    /// The 32 bytes, most significant first.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for word in [words.0, words.1, words.2, words.3] {
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return out
    }

    /// 64 lowercase hexadecimal digits: the form the manifest and entry names use.
    public var hex: String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        CanonicalJSONWriter.appendHex(self, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The ``hex`` form.
    public var description: String { hex }

    /// Equal when all 32 bytes are.
    public static func == (a: SHA256Digest, b: SHA256Digest) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
    }

    /// Hashes half the digest: its bytes are already uniformly distributed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
    }

    /// Orders by the bytes, as the ``hex`` strings sort.
    public static func < (a: SHA256Digest, b: SHA256Digest) -> Bool {
        (a.words.0, a.words.1, a.words.2, a.words.3) < (b.words.0, b.words.1, b.words.2, b.words.3)
    }
}

/// Hex digit values; 0xFF marks a byte that is not a digit of the accepted case.
enum HexTable {
    static let lowercase: [UInt8] = (0 ..< 256).map { byte in
        switch byte {
        case 0x30 ... 0x39: UInt8(byte - 0x30)
        case 0x61 ... 0x66: UInt8(byte - 0x61 + 10)
        default: 0xFF
        }
    }

    static let anyCase: [UInt8] = (0 ..< 256).map { byte in
        switch byte {
        case 0x41 ... 0x46: UInt8(byte - 0x41 + 10)
        default: lowercase[byte]
        }
    }

    /// The value of the eight lowercase hexadecimal digits in `word`, the first in its lowest
    /// byte, or nil if any byte is not one. All eight at once: a manifest holds a 64-digit
    /// digest per image, and the table read them at eight instructions a digit.
    @inline(__always)
    static func lowercaseValue(_ word: UInt64) -> UInt32? {
        guard word & ByteWord.high == 0 else { return nil }
        let letter = ByteWord.marks(UInt8(ascii: "a") ... UInt8(ascii: "f"), in: word)
        guard ByteWord.marks(UInt8(ascii: "0") ... UInt8(ascii: "9"), in: word) | letter == ByteWord.high else { return nil }
        // Each byte's value: its low four bits, and nine more for a letter (a is 0x61).
        let nibbles = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ (letter >> 7) &* 9
        // Two digits to a byte, then the four bytes together, first digit most significant.
        let pairs = (nibbles << 4 | nibbles >> 8) & 0x00FF_00FF_00FF_00FF
        let quads = (pairs | pairs >> 8) & 0x0000_FFFF_0000_FFFF
        return UInt32(truncatingIfNeeded: quads | quads >> 16).byteSwapped
    }

    /// The value of `count` (at most 16) digits of `text` from `start`, as `table` reads them;
    /// nil if any is not a digit there. One table access per call, not one per digit.
    @inline(__always)
    static func value(_ text: UnsafeRawBufferPointer, from start: Int, count: Int, table: [UInt8]) -> UInt64? {
        table.withUnsafeBufferPointer { digits in
            var value: UInt64 = 0
            var invalid: UInt8 = 0
            for index in start ..< start + count {
                let nibble = digits[Int(text[index])]
                invalid |= nibble
                value = value << 4 | UInt64(nibble & 0x0F)
            }
            return invalid & 0xF0 == 0 ? value : nil
        }
    }
}
