/// Hexadecimal digits read eight at a time from a word of text (its first byte the lowest, as
/// a little-endian load gives it): a manifest holds a 64-digit digest and a 36-character id per
/// image, and a table read them at eight instructions a digit.
enum HexTable {
    /// The value of the eight lowercase hexadecimal digits in `word`, the first most
    /// significant, or nil if any byte is not one.
    @inline(__always)
    static func lowercaseValue(_ word: UInt64) -> UInt32? {
        guard word & ByteWord.high == 0 else { return nil }
        let letter = ByteWord.marks(UInt8(ascii: "a") ... UInt8(ascii: "f"), in: word)
        guard ByteWord.marks(UInt8(ascii: "0") ... UInt8(ascii: "9"), in: word) | letter == ByteWord.high else { return nil }
        // Each byte's value: its low four bits, and nine more for a letter (a is 0x61).
        let nibbles = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ (letter >> 7) &* 9
        // Two digits to a byte, then the four bytes together, first digit most significant.
        let pairs = (nibbles << 4 | nibbles >> 8) & 0x00FF_00FF_00FF_00FF
        let quads = (pairs | pairs >> 8) & 0x0000_FFFF_0000_FFFF
        return UInt32(truncatingIfNeeded: quads | quads >> 16).byteSwapped
    }

    /// The same for digits of either case, as a UUID's text may have them.
    @inline(__always)
    static func anyCaseValue(_ word: UInt64) -> UInt32? {
        guard word & ByteWord.high == 0 else { return nil }
        // An uppercase letter's byte gains 0x20 and becomes its lowercase one; no other changes.
        return lowercaseValue(word | ByteWord.marks(UInt8(ascii: "A") ... UInt8(ascii: "F"), in: word) >> 2)
    }
}
