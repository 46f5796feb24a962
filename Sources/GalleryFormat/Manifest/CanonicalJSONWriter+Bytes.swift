import FoundationEssentials

// Pieces of compact canonical JSON appended straight to bytes, for the writers of long lists
// beside the manifest's own (the editor's image list, `list --json`): the value tree
// allocates a dozen times a row, which at 100,000 rows was most of their time. The bytes are
// those `write(_:)` gives in compact mode; callers write members in key order.
//
// Each piece is made in scratch space on the stack and appended in one copy: appending a byte
// at a time checks the array's uniqueness and capacity at every byte, and a digest's 64 digits
// so cost about 1,400 instructions (`list --json` of 10,000 photos spent 100 M in these). A
// writer of rows writes a whole row so (`appendText(atMost:to:_:)`): twenty appends a row were
// two thirds of the 3.2 ms `list --json` of 10,000 photos spent after the gallery was open.
extension CanonicalJSONWriter {
    /// `"name":`, the key of a member.
    package static func appendKey(_ name: StaticString, to bytes: inout [UInt8]) {
        appendText(atMost: name.utf8CodeUnitCount + 3, to: &bytes) { $0.key(name) }
    }

    /// Text the caller knows needs no escape (a fixed prefix, a file name's suffix), as it is.
    package static func appendVerbatim(_ text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// The id's manifest form (lowercase, hyphenated) as a JSON string, without a String between.
    package static func appendUUID(_ id: UUID, to bytes: inout [UInt8]) {
        appendText(atMost: JSONTextCursor.uuidBytes, to: &bytes) { $0.uuid(id) }
    }

    /// The digest's 64 lowercase hexadecimal digits, unquoted (a blob's path holds them too).
    package static func appendHex(_ digest: SHA256Digest, to bytes: inout [UInt8]) {
        appendText(atMost: JSONTextCursor.hexBytes, to: &bytes) { $0.hex(digest) }
    }

    /// A whole number in decimal, as `write(.integer(_:))` writes it, without a String between.
    package static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        appendText(atMost: JSONTextCursor.integerBytes, to: &bytes) { $0.integer(value) }
    }

    /// Appends what `write` writes through a cursor over `capacity` bytes of scratch space, in
    /// one copy: a row of many pieces (`list --json`) costs one append, not one a piece.
    package static func appendText(atMost capacity: Int, to bytes: inout [UInt8], _ write: (inout JSONTextCursor) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
            var cursor = JSONTextCursor(scratch)
            write(&cursor)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<cursor.written]))
        }
    }

    /// The id's 36 characters of text at `text`: its 32 digits eight at a time, the groups of
    /// four stored apart around the hyphens.
    static func writeUUID(_ id: UUID, into text: UnsafeMutableRawPointer) {
        let (high, low) = withUnsafeBytes(of: id.uuid) { raw in
            (UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
        let second = hexDigits(UInt32(truncatingIfNeeded: high)), third = hexDigits(UInt32(truncatingIfNeeded: low >> 32))
        text.storeBytes(of: hexDigits(UInt32(truncatingIfNeeded: high >> 32)), toByteOffset: 0, as: UInt64.self)
        text.storeBytes(of: UInt32(truncatingIfNeeded: second), toByteOffset: 9, as: UInt32.self)
        text.storeBytes(of: UInt32(truncatingIfNeeded: second >> 32), toByteOffset: 14, as: UInt32.self)
        text.storeBytes(of: UInt32(truncatingIfNeeded: third), toByteOffset: 19, as: UInt32.self)
        text.storeBytes(of: UInt32(truncatingIfNeeded: third >> 32), toByteOffset: 24, as: UInt32.self)
        text.storeBytes(of: hexDigits(UInt32(truncatingIfNeeded: low)), toByteOffset: 28, as: UInt64.self)
        for hyphen in [8, 13, 18, 23] { text.storeBytes(of: 0x2D, toByteOffset: hyphen, as: UInt8.self) }
    }

    /// The eight lowercase hexadecimal digits of `value`, most significant first in memory: its
    /// nibbles spread one to a byte, then each turned into its digit, all eight at once.
    @inline(__always)
    static func hexDigits(_ value: UInt32) -> UInt64 {
        var spread = UInt64(value)
        spread = (spread & 0xFFFF_0000) << 16 | spread & 0xFFFF
        spread = (spread & 0x0000_FF00_0000_FF00) << 8 | spread & 0x0000_00FF_0000_00FF
        spread = (spread & 0x00F0_00F0_00F0_00F0) << 4 | spread & 0x000F_000F_000F_000F
        // 1 in each byte whose nibble is 10 or more: those take 'a' - '0' - 10 more.
        let letters = (spread &+ 0x0606_0606_0606_0606) >> 4 & 0x0101_0101_0101_0101
        return (spread &+ 0x3030_3030_3030_3030 &+ letters &* 0x27).bigEndian
    }
}
