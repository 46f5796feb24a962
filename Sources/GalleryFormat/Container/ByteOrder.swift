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
