/// Strings: validated in one pass and handed out as byte ranges, decoded only on demand.
extension JSONScanner {
    /// Reads a string's extent, validating UTF-8 and escapes, without decoding it.
    mutating func readRawString() throws -> RawString {
        try skipWhitespace()
        try expect(UInt8(ascii: "\""))
        let start = position
        var hasEscapes = false
        var asciiOnly = true
        while true {
            // Eight bytes at a time up to the first quote, backslash, control byte or non-ASCII byte.
            position = Self.firstMarked(in: bytes, from: position, by: Self.attentionBytes).position
            guard try available(1) else { throw error(.jsonSyntax, "a string is not closed", at: start - 1) }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 {
                throw error(.jsonSyntax, "a string contains an unescaped control character (0x\(String(byte, radix: 16)))")
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                try checkEscape()
                continue
            }
            if byte >= 0x80 { asciiOnly = false }
            position += 1
        }
        let end = position
        position += 1
        if !asciiOnly, !UTF8Validation.isValid(UnsafeRawBufferPointer(rebasing: bytes[start ..< end])) {
            throw error(.jsonEncoding, "a string is not valid UTF-8", at: start)
        }
        return RawString(start: start, end: end, hasEscapes: hasEscapes)
    }

    /// The high bit of each byte of the word that is `"`, `\`, below 0x20, or 0x80 and above:
    /// exact per byte, so the lowest set bit is the first byte a string's reader must look at.
    @inline(__always)
    static func attentionBytes(_ word: UInt64) -> UInt64 {
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = nonZeroBytes(word ^ repeated(0x22))
        let backslash = nonZeroBytes(word ^ repeated(0x5C))
        let notControl = nonZeroBytes(word & repeated(0xE0))
        return ((quote & backslash & notControl) ^ high) | (word & high)
    }

    /// Checks one escape at `position` (the backslash) and steps over it.
    private mutating func checkEscape() throws {
        let at = position
        guard try available(2) else { throw error(.jsonSyntax, "a string ends inside an escape") }
        switch bytes[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 2
        case UInt8(ascii: "u"):
            guard try available(6), let unit = hex4(at: position + 2) else { throw error(.jsonSyntax, "a \\u escape needs four hex digits", at: at) }
            position += 6
            if (0xD800 ... 0xDBFF).contains(unit) {
                guard try available(6), bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u"),
                      let low = hex4(at: position + 2), (0xDC00 ... 0xDFFF).contains(low)
                else { throw error(.jsonEncoding, "a high surrogate escape is not followed by a low one", at: at) }
                position += 6
            } else if (0xDC00 ... 0xDFFF).contains(unit) {
                throw error(.jsonEncoding, "a low surrogate escape stands alone", at: at)
            }
        default:
            throw error(.jsonSyntax, "invalid escape \"\\\(Character(Unicode.Scalar(bytes[position + 1])))\"", at: at)
        }
    }

    private func hex4(at offset: Int) -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for i in offset ..< offset + 4 {
            let c = bytes[i]
            let nibble: UInt32
            switch c {
            case 0x30 ... 0x39: nibble = UInt32(c - 0x30)
            case 0x61 ... 0x66: nibble = UInt32(c - 0x61 + 10)
            case 0x41 ... 0x46: nibble = UInt32(c - 0x41 + 10)
            default: return nil
            }
            value = value << 4 | nibble
        }
        return value
    }

    /// The Swift string of an already validated raw string.
    func decodeString(_ raw: RawString) -> String {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[raw.start ..< raw.end])
        guard raw.hasEscapes else { return String(decoding: slice, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.start
        while i < raw.end {
            let byte = bytes[i]
            guard byte == UInt8(ascii: "\\") else { out.append(byte); i += 1; continue }
            let kind = bytes[i + 1]
            switch kind {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var unit = hex4(at: i + 2)!
                if (0xD800 ... 0xDBFF).contains(unit) {
                    let low = hex4(at: i + 8)!
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                out += Array(String(Character(Unicode.Scalar(unit)!)).utf8)
                i += 6
                continue
            default: out.append(kind)
            }
            i += 2
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The number of Unicode scalars the raw string decodes to, without decoding it.
    func scalarCount(_ raw: RawString) -> Int {
        var count = 0
        var i = raw.start
        while i < raw.end {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\\") {
                // A surrogate pair's two escapes make one scalar.
                if bytes[i + 1] == UInt8(ascii: "u"), let unit = hex4(at: i + 2), (0xD800 ... 0xDBFF).contains(unit) {
                    i += 12
                } else {
                    i += bytes[i + 1] == UInt8(ascii: "u") ? 6 : 2
                }
                count += 1
                continue
            }
            if byte & 0xC0 != 0x80 { count += 1 }
            i += 1
        }
        return count
    }

    /// True when the raw string holds U+0000, escaped (only an escape can: the text itself
    /// cannot carry a control byte).
    func containsNUL(_ raw: RawString) -> Bool {
        guard raw.hasEscapes else { return false }
        var i = raw.start
        while i < raw.end {
            guard bytes[i] == UInt8(ascii: "\\") else { i += 1; continue }
            if bytes[i + 1] == UInt8(ascii: "u"), hex4(at: i + 2) == 0 { return true }
            i += bytes[i + 1] == UInt8(ascii: "u") ? 6 : 2
        }
        return false
    }

    func rawBytes(_ raw: RawString) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[raw.start ..< raw.end])
    }
}
