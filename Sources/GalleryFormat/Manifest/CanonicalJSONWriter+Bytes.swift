import FoundationEssentials

// Pieces of compact canonical JSON appended straight to bytes, for the writers of long lists
// beside the manifest's own (the editor's image list, `list --json`): the value tree
// allocates a dozen times a row, which at 100,000 rows was most of their time. The bytes are
// those `write(_:)` gives in compact mode; callers write members in key order.
//
// Each piece is made in scratch space on the stack and appended in one copy: appending a byte
// at a time checks the array's uniqueness and capacity at every byte, and a digest's 64 digits
// so cost about 1,400 instructions (`list --json` of 10,000 photos spent 100 M in these).
extension CanonicalJSONWriter {
    /// `"name":`, the key of a member.
    package static func appendKey(_ name: StaticString, to bytes: inout [UInt8]) {
        appendMade(name.utf8CodeUnitCount + 3, to: &bytes) { text in
            text[0] = 0x22
            name.withUTF8Buffer { UnsafeMutableRawPointer(text + 1).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            text[name.utf8CodeUnitCount + 1] = 0x22
            text[name.utf8CodeUnitCount + 2] = 0x3A
            return name.utf8CodeUnitCount + 3
        }
    }

    /// Text the caller knows needs no escape (a fixed prefix, a file name's suffix), as it is.
    package static func appendVerbatim(_ text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// The id's manifest form (lowercase, hyphenated) as a JSON string, without a String between.
    package static func appendUUID(_ id: UUID, to bytes: inout [UInt8]) {
        appendMade(38, to: &bytes) { text in
            text[0] = 0x22
            writeUUID(id, into: UnsafeMutableRawPointer(text + 1))
            text[37] = 0x22
            return 38
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

    /// The digest's 64 lowercase hexadecimal digits, unquoted (a blob's path holds them too).
    package static func appendHex(_ digest: SHA256Digest, to bytes: inout [UInt8]) {
        appendMade(64, to: &bytes) { text in
            let raw = UnsafeMutableRawPointer(text)
            func store(_ word: UInt64, at offset: Int) {
                raw.storeBytes(of: hexDigits(UInt32(truncatingIfNeeded: word >> 32)), toByteOffset: offset, as: UInt64.self)
                raw.storeBytes(of: hexDigits(UInt32(truncatingIfNeeded: word)), toByteOffset: offset + 8, as: UInt64.self)
            }
            store(digest.words.0, at: 0)
            store(digest.words.1, at: 16)
            store(digest.words.2, at: 32)
            store(digest.words.3, at: 48)
            return 64
        }
    }

    /// A whole number in decimal, as `write(.integer(_:))` writes it, without a String between.
    package static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        // Twenty places: Int64.min is a sign and nineteen digits. Written from the right.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            let text = scratch.baseAddress!
            var rest = value.magnitude
            var at = 20
            repeat {
                at -= 1
                text[at] = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            if value < 0 {
                at -= 1
                text[at] = 0x2D
            }
            bytes.append(contentsOf: UnsafeBufferPointer(start: text + at, count: 20 - at))
        }
    }

    /// Appends what `make` writes into `capacity` bytes of scratch space, given its length.
    @inline(__always)
    private static func appendMade(_ capacity: Int, to bytes: inout [UInt8], _ make: (UnsafeMutablePointer<UInt8>) -> Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
            let count = make(scratch.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(start: scratch.baseAddress, count: count))
        }
    }

    /// The eight lowercase hexadecimal digits of `value`, most significant first in memory: its
    /// nibbles spread one to a byte, then each turned into its digit, all eight at once.
    @inline(__always)
    private static func hexDigits(_ value: UInt32) -> UInt64 {
        var spread = UInt64(value)
        spread = (spread & 0xFFFF_0000) << 16 | spread & 0xFFFF
        spread = (spread & 0x0000_FF00_0000_FF00) << 8 | spread & 0x0000_00FF_0000_00FF
        spread = (spread & 0x00F0_00F0_00F0_00F0) << 4 | spread & 0x000F_000F_000F_000F
        // 1 in each byte whose nibble is 10 or more: those take 'a' - '0' - 10 more.
        let letters = (spread &+ 0x0606_0606_0606_0606) >> 4 & 0x0101_0101_0101_0101
        return (spread &+ 0x3030_3030_3030_3030 &+ letters &* 0x27).bigEndian
    }
}
