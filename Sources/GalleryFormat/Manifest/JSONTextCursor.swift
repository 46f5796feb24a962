import FoundationEssentials

/// Where pieces of compact canonical JSON are written one after another into scratch space
/// (`CanonicalJSONWriter.appendText(atMost:to:_:)`). Each piece says the most bytes it writes;
/// one that would not fit stops the program rather than write past the space.
package struct JSONTextCursor {
    private let space: UnsafeMutableBufferPointer<UInt8>
    /// Bytes written so far.
    package private(set) var written = 0

    init(_ space: UnsafeMutableBufferPointer<UInt8>) { self.space = space }

    /// The most a piece of each kind writes.
    package static let uuidBytes = 38, hexBytes = 64, integerBytes = 20

    /// The most `string(_:)` writes for `text`: quotes, and six bytes (`\u001f`) a byte.
    package static func stringBytes(_ text: String) -> Int { 2 + 6 * text.utf8.count }

    @inline(__always)
    private mutating func reserve(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(count <= space.count - written, "JSON text past its scratch space")
        defer { written += count }
        return space.baseAddress! + written
    }

    /// Text the caller knows needs no escape, as it is.
    package mutating func verbatim(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        let to = reserve(count)
        text.withUTF8Buffer { UnsafeMutableRawPointer(to).copyMemory(from: $0.baseAddress!, byteCount: count) }
    }

    /// `"name":`, the key of a member.
    package mutating func key(_ name: StaticString) {
        let count = name.utf8CodeUnitCount
        let to = reserve(count + 3)
        to[0] = 0x22
        name.withUTF8Buffer { UnsafeMutableRawPointer(to + 1).copyMemory(from: $0.baseAddress!, byteCount: count) }
        to[count + 1] = 0x22
        to[count + 2] = 0x3A
    }

    /// The id's manifest form as a JSON string (`uuidBytes`).
    package mutating func uuid(_ id: UUID) {
        let to = reserve(Self.uuidBytes)
        to[0] = 0x22
        CanonicalJSONWriter.writeUUID(id, into: UnsafeMutableRawPointer(to + 1))
        to[37] = 0x22
    }

    /// The digest's 64 lowercase hexadecimal digits, unquoted (`hexBytes`).
    package mutating func hex(_ digest: SHA256Digest) {
        let raw = UnsafeMutableRawPointer(reserve(Self.hexBytes))
        func store(_ word: UInt64, at offset: Int) {
            raw.storeBytes(of: CanonicalJSONWriter.hexDigits(UInt32(truncatingIfNeeded: word >> 32)), toByteOffset: offset, as: UInt64.self)
            raw.storeBytes(of: CanonicalJSONWriter.hexDigits(UInt32(truncatingIfNeeded: word)), toByteOffset: offset + 8, as: UInt64.self)
        }
        store(digest.words.0, at: 0)
        store(digest.words.1, at: 16)
        store(digest.words.2, at: 32)
        store(digest.words.3, at: 48)
    }

    /// A whole number in decimal, as `write(.integer(_:))` writes it (`integerBytes`).
    package mutating func integer(_ value: Int64) {
        // Twenty places: Int64.min is a sign and nineteen digits. Counted first, then written
        // from the right.
        var digits = 1
        var rest = value.magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        let sign = value < 0 ? 1 : 0
        let to = reserve(sign + digits)
        if sign == 1 { to[0] = 0x2D }
        rest = value.magnitude
        for place in stride(from: sign + digits - 1, through: sign, by: -1) {
            to[place] = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
    }

    /// `text` as a JSON string with the format's escapes (`"`, `\` and the controls below
    /// 0x20, nothing else): at most `stringBytes(text)`.
    package mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var to = reserve(1)
            to[0] = 0x22
            // Runs that need no escape (nearly all of every string) are copied whole.
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                copy(UnsafeBufferPointer(rebasing: utf8[start ..< index]))
                escape(byte)
                start = index + 1
            }
            copy(UnsafeBufferPointer(rebasing: utf8[start...]))
            to = reserve(1)
            to[0] = 0x22
        }
    }

    /// An optional member: `prefix` (its separator and key) and `text` as a JSON string, or
    /// nothing when there is no text.
    package mutating func string(after prefix: StaticString, _ text: String?) {
        guard let text else { return }
        verbatim(prefix)
        string(text)
    }

    private mutating func copy(_ run: UnsafeBufferPointer<UInt8>) {
        guard run.count > 0 else { return }
        reserve(run.count).update(from: run.baseAddress!, count: run.count)
    }

    private mutating func escape(_ byte: UInt8) {
        let short: UInt8? = switch byte {
        case 0x22: 0x22
        case 0x5C: 0x5C
        case 0x08: 0x62
        case 0x0C: 0x66
        case 0x0A: 0x6E
        case 0x0D: 0x72
        case 0x09: 0x74
        default: nil
        }
        if let short {
            let to = reserve(2)
            to[0] = 0x5C
            to[1] = short
        } else {
            let digits: StaticString = "0123456789abcdef"
            let to = reserve(6)
            to[0] = 0x5C
            to[1] = 0x75
            to[2] = 0x30
            to[3] = 0x30
            to[4] = digits.utf8Start[Int(byte >> 4)]
            to[5] = digits.utf8Start[Int(byte & 0xF)]
        }
    }
}
