/// UTF-8 validation per RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF.
package enum UTF8Validation {
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool { firstInvalid(bytes) == nil }

    /// The offset of the first byte that starts no valid UTF-8 sequence, or nil when all are
    /// valid. The scanner checks strings as it reads them but names the string's start; a
    /// caller that wants the very byte at fault checks the whole text with this first.
    package static func firstInvalidByte(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { firstInvalid($0) }
    }

    @inline(__always)
    static func firstInvalid(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 { i += 1; continue }
            func cont(_ k: Int) -> UInt8? { i + k < n && bytes[i + k] & 0xC0 == 0x80 ? bytes[i + k] : nil }
            switch b0 {
            case 0xC2 ... 0xDF:
                guard cont(1) != nil else { return i }
                i += 2
            case 0xE0 ... 0xEF:
                guard let b1 = cont(1), cont(2) != nil else { return i }
                if b0 == 0xE0, b1 < 0xA0 { return i }  // overlong
                if b0 == 0xED, b1 >= 0xA0 { return i }  // surrogate
                i += 3
            case 0xF0 ... 0xF4:
                guard let b1 = cont(1), cont(2) != nil, cont(3) != nil else { return i }
                if b0 == 0xF0, b1 < 0x90 { return i }
                if b0 == 0xF4, b1 >= 0x90 { return i }
                i += 4
            default:
                return i
            }
        }
        return nil
    }
}
