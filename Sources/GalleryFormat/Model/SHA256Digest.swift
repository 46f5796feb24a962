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
