// The byte-level reads every header parser shares: positioned reads over bytes in memory,
// fields in either byte order, four-character codes, saturating offsets.

extension UInt64 {
    /// The sum, or `UInt64.max` where it would overflow: offsets and sizes from hostile records.
    package func addingSaturating(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}

extension Array where Element == UInt8 {
    /// Up to `count` bytes from `offset` (fewer at the end, none past it): the `read(offset,
    /// count)` that header parsers take, over bytes already in memory.
    public func bytes(at offset: UInt64, count: Int) -> [UInt8] {
        guard offset < UInt64(self.count) else { return [] }
        let start = Int(offset)
        return Array(self[start ..< start + Swift.min(count, self.count - start)])
    }
}

extension UnsafeRawBufferPointer {
    /// The same read over bytes another reader holds, for the time they are valid: a checker
    /// that looks at an image in the chunk it hashed, without a copy.
    package func bytes(at offset: UInt64, count: Int) -> [UInt8] {
        guard offset < UInt64(self.count) else { return [] }
        let start = Int(offset)
        return Array(UnsafeRawBufferPointer(rebasing: self[start ..< start + Swift.min(count, self.count - start)]))
    }
}

/// Fields of a header read into an array, in either byte order: image headers and boxes.
extension [UInt8] {
    package func le16(_ at: Int) -> Int { Int(self[at]) | Int(self[at + 1]) << 8 }
    package func le24(_ at: Int) -> Int { le16(at) | Int(self[at + 2]) << 16 }
    package func le32(_ at: Int) -> UInt64 { UInt64(le16(at)) | UInt64(le16(at + 2)) << 16 }
    package func be16(_ at: Int) -> Int { Int(self[at]) << 8 | Int(self[at + 1]) }
    package func be32(_ at: Int) -> UInt64 { UInt64(be16(at)) << 16 | UInt64(be16(at + 2)) }
    package func be64(_ at: Int) -> UInt64 { be32(at) << 32 | be32(at + 4) }
    package func fourCC(_ at: Int) -> String { String(decoding: self[at ..< at + 4], as: UTF8.self) }
}

extension String {
    /// A four-character code as a message shows it: printable ASCII as it is, any other byte as
    /// `\xNN` (a hostile file's code could hold a newline or invalid UTF-8), and the padding
    /// spaces of `VP8 ` dropped, so that "the VP8 chunk" reads as one word.
    package static func shownFourCC(_ code: some Collection<UInt8>) -> String {
        var shown = code.map { byte in
            (0x20 ... 0x7E).contains(byte) && byte != 0x5C
                ? String(UnicodeScalar(byte)) : "\\x" + hexByte(byte)
        }.joined()
        while shown.hasSuffix(" ") { shown.removeLast() }
        return shown
    }
}

/// A byte as two upper-case hexadecimal digits.
private func hexByte(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16).uppercased()
    return digits.count >= 2 ? digits : "0" + digits
}
