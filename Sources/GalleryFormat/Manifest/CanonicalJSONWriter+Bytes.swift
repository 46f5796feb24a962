import FoundationEssentials

// Pieces of compact canonical JSON appended straight to bytes, for the writers of long lists
// beside the manifest's own (the editor's image list, `list --json`): the value tree
// allocates a dozen times a row, which at 100,000 rows was most of their time. The bytes are
// those `write(_:)` gives in compact mode; callers write members in key order.
extension CanonicalJSONWriter {
    /// `"name":`, the key of a member.
    package static func appendKey(_ name: StaticString, to bytes: inout [UInt8]) {
        bytes.append(0x22)
        name.withUTF8Buffer { bytes += $0 }
        bytes += [0x22, 0x3A]
    }

    /// The id's manifest form (lowercase, hyphenated) as a JSON string, without a String between.
    package static func appendUUID(_ id: UUID, to bytes: inout [UInt8]) {
        appendFilled(38, to: &bytes) { text in
            text[0] = 0x22
            var at = 1
            withUnsafeBytes(of: id.uuid) { raw in
                for (index, byte) in raw.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[at] = 0x2D
                        at += 1
                    }
                    writeHex(byte, into: text, at: at)
                    at += 2
                }
            }
            text[at] = 0x22
        }
    }

    /// The digest's 64 lowercase hexadecimal digits, unquoted (a blob's path holds them too).
    package static func appendHex(_ digest: SHA256Digest, to bytes: inout [UInt8]) {
        appendFilled(64, to: &bytes) { text in
            withUnsafeBytes(of: digest.words) { words in
                for index in 0 ..< 4 {
                    let word = words.load(fromByteOffset: index * 8, as: UInt64.self)
                    for byte in 0 ..< 8 {
                        writeHex(UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * byte)), into: text, at: 16 * index + 2 * byte)
                    }
                }
            }
        }
    }

    /// Appends `count` bytes that `fill` writes in place: one growth check, not one a byte.
    @inline(__always)
    private static func appendFilled(_ count: Int, to bytes: inout [UInt8], _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        bytes.withUnsafeMutableBufferPointer { fill(UnsafeMutableBufferPointer(rebasing: $0[start ..< start + count])) }
    }

    @inline(__always)
    private static func writeHex(_ byte: UInt8, into text: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let high = byte >> 4
        let low = byte & 0x0F
        text[offset] = high < 10 ? 0x30 + high : 0x57 + high
        text[offset + 1] = low < 10 ? 0x30 + low : 0x57 + low
    }

    /// A whole number in decimal, as `write(.integer(_:))` writes it, without a String between.
    package static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        guard value != 0 else { bytes.append(0x30); return }
        if value < 0 { bytes.append(0x2D) }
        var rest = value.magnitude
        let start = bytes.count
        while rest > 0 {
            bytes.append(0x30 + UInt8(rest % 10))
            rest /= 10
        }
        bytes[start...].reverse()
    }
}
