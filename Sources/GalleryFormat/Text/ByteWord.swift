/// Byte classes of eight bytes at once, for words whose bytes are all below 0x80 (callers test
/// `word & ByteWord.high == 0` first): adding to such bytes never carries into the next one,
/// so each byte's high bit answers for that byte alone. Names and digits are read this way.
enum ByteWord {
    static let high: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte that is `byte` or more.
    @inline(__always)
    static func atLeast(_ byte: UInt8, in word: UInt64) -> UInt64 {
        (word &+ 0x0101_0101_0101_0101 &* UInt64(0x80 - byte)) & high
    }

    /// The high bit of each byte in `range`.
    @inline(__always)
    static func marks(_ range: ClosedRange<UInt8>, in word: UInt64) -> UInt64 {
        atLeast(range.lowerBound, in: word) & ~atLeast(range.upperBound + 1, in: word)
    }
}
