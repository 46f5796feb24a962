/// Little-endian field access for ZIP records, over a byte buffer.
struct LittleEndianReader {
    let bytes: UnsafeRawBufferPointer
    var position: Int

    init(_ bytes: UnsafeRawBufferPointer, at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    var remaining: Int { bytes.count - position }

    mutating func u16() -> UInt16 {
        defer { position += 2 }
        return UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
    }

    mutating func u32() -> UInt32 {
        defer { position += 4 }
        return bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian
    }

    mutating func u64() -> UInt64 {
        defer { position += 8 }
        return bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self).littleEndian
    }

    mutating func skip(_ count: Int) { position += count }

    mutating func take(_ count: Int) -> UnsafeRawBufferPointer {
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position ..< position + count])
    }
}

extension Array where Element == UInt8 {
    mutating func appendLE(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func appendLE(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func appendLE(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}

extension UInt64 {
    /// The sum, or `UInt64.max` where it would overflow: offsets and sizes from hostile records.
    func addingSaturating(_ other: UInt64) -> UInt64 {
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

/// Fields of a header read into an array, in either byte order: image headers and boxes.
extension [UInt8] {
    func le16(_ at: Int) -> Int { Int(self[at]) | Int(self[at + 1]) << 8 }
    func le24(_ at: Int) -> Int { le16(at) | Int(self[at + 2]) << 16 }
    func le32(_ at: Int) -> UInt64 { UInt64(le16(at)) | UInt64(le16(at + 2)) << 16 }
    func be16(_ at: Int) -> Int { Int(self[at]) << 8 | Int(self[at + 1]) }
    func be32(_ at: Int) -> UInt64 { UInt64(be16(at)) << 16 | UInt64(be16(at + 2)) }
    func be64(_ at: Int) -> UInt64 { be32(at) << 32 | be32(at + 4) }
    func fourCC(_ at: Int) -> String { String(decoding: self[at ..< at + 4], as: UTF8.self) }
}

extension String {
    /// A four-character code as a message shows it: printable ASCII as it is, any other byte as
    /// `\xNN` (a hostile file's code could hold a newline or invalid UTF-8), and the padding
    /// spaces of `VP8 ` dropped, so that "the VP8 chunk" reads as one word.
    package static func shownFourCC(_ code: some Collection<UInt8>) -> String {
        var shown = code.map { byte in
            (0x20 ... 0x7E).contains(byte) && byte != 0x5C
                ? String(UnicodeScalar(byte)) : "\\x" + byte.zeroPadded(toWidth: 2, radix: 16).uppercased()
        }.joined()
        while shown.hasSuffix(" ") { shown.removeLast() }
        return shown
    }
}
