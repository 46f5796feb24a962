@testable import GalleryFormat
import GalleryTestSupport
import Testing

/// The word-at-a-time byte tests the readers use (eight bytes per step) against the plain
/// per-byte rules they stand for: every byte value, at every place in the word, beside every
/// kind of neighbour, since a carry or a borrow across bytes is how such tests go wrong.
@Suite("Word-at-a-time byte classes")
struct ByteClassTests {
    /// Words of eight bytes, each holding `byte` at `place` among `neighbour`s.
    func words(neighbours: [UInt8]) -> [(word: UInt64, bytes: [UInt8])] {
        var found: [(UInt64, [UInt8])] = []
        for neighbour in neighbours {
            for place in 0 ..< 8 {
                for byte in 0 ... 255 {
                    var bytes = [UInt8](repeating: neighbour, count: 8)
                    bytes[place] = UInt8(byte)
                    // A second odd byte further on: the lowest mark must still be the first one.
                    if place < 6 { bytes[7] = UInt8(255 - byte) }
                    let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
                    found.append((word, bytes))
                }
            }
        }
        return found
    }

    /// The index of the first byte the mask marks, or 8.
    func firstMarked(_ mask: UInt64) -> Int { mask == 0 ? 8 : mask.trailingZeroBitCount / 8 }

    @Test func whiteSpace() {
        let isWhiteSpace: (UInt8) -> Bool = { [0x20, 0x0A, 0x0D, 0x09].contains($0) }
        for (word, bytes) in words(neighbours: [0x20, 0x0A, 0x09, 0x00, 0x80, 0xFF, 0x22]) {
            let expected = bytes.firstIndex { !isWhiteSpace($0) } ?? 8
            #expect(firstMarked(JSONScanner.nonWhitespaceBytes(word)) == expected, "\(bytes)")
        }
    }

    @Test func whatAStringsReaderMustLookAt() {
        let needsLook: (UInt8) -> Bool = { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 >= 0x80 }
        for (word, bytes) in words(neighbours: [0x61, 0x20, 0x21, 0x1F, 0x7F, 0x80, 0x5B, 0x5D]) {
            let expected = bytes.firstIndex(where: needsLook) ?? 8
            #expect(firstMarked(JSONScanner.attentionBytes(word)) == expected, "\(bytes)")
        }
    }

    @Test func lowercaseLettersAndDigits() {
        let plain: (UInt8) -> Bool = { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }
        for (word, bytes) in words(neighbours: [0x61, 0x7A, 0x30, 0x39, 0x2F]) {
            #expect(ZipArchive.isLowercaseOrDigits(word) == bytes.allSatisfy(plain), "\(bytes)")
        }
    }

    /// Eight lowercase hexadecimal digits read at once: the value the digits spell, and nil when
    /// any byte is not one (uppercase letters, `g`, the bytes beside the ranges, high bytes).
    @Test func eightHexadecimalDigitsAtOnce() {
        let digits = Array("0123456789abcdef".utf8)
        for (word, bytes) in words(neighbours: [0x30, 0x39, 0x61, 0x66, 0x2F, 0x67, 0x46]) {
            let expected = bytes.allSatisfy(digits.contains)
                ? bytes.reduce(UInt32(0)) { $0 << 4 | UInt32(digits.firstIndex(of: $1)!) } : nil
            #expect(HexTable.lowercaseValue(word) == expected, "\(bytes)")
        }
    }

    /// The same for either case, as ids are read: uppercase letters count as their lowercase
    /// ones, and nothing else changes (the bytes 0x10 to 0x19 and `@` are not digits).
    @Test func eightHexadecimalDigitsOfEitherCaseAtOnce() {
        let digits = Array("0123456789abcdef".utf8), upper = Array("ABCDEF".utf8)
        let value: (UInt8) -> UInt32? = { byte in
            digits.firstIndex(of: byte).map(UInt32.init) ?? upper.firstIndex(of: byte).map { UInt32($0 + 10) }
        }
        for (word, bytes) in words(neighbours: [0x30, 0x39, 0x41, 0x46, 0x61, 0x66, 0x40, 0x47, 0x10, 0x19, 0x2F]) {
            let expected = bytes.allSatisfy { value($0) != nil } ? bytes.reduce(UInt32(0)) { $0 << 4 | value($1)! } : nil
            #expect(HexTable.anyCaseValue(word) == expected, "\(bytes)")
        }
    }

    /// A name is its own case folding exactly when no byte is an uppercase letter or outside
    /// ASCII, at every length (word steps and the bytes after them).
    @Test func namesThatFoldToThemselves() {
        let own: (UInt8) -> Bool = { $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) }
        for (word, bytes) in words(neighbours: [0x61, 0x40, 0x5B, 0x41, 0x5A, 0x7F, 0x80]) {
            #expect(withUnsafeBytes(of: word.littleEndian) { ZipArchive.foldsToItself($0) } == bytes.allSatisfy(own), "\(bytes)")
        }
        var random = SeededGenerator(seed: 8)
        let alphabet: [UInt8] = [0x61, 0x2F, 0x40, 0x41, 0x5A, 0x5B, 0x7F, 0x80, 0xC3, 0xFF]
        for _ in 0 ..< 5_000 {
            let name = (0 ..< Int(random.next() % 40)).map { _ in random.next() % 4 == 0 ? alphabet[Int(random.next() % 10)] : 0x61 }
            #expect(name.withUnsafeBytes { ZipArchive.foldsToItself($0) } == name.allSatisfy(own), "\(name)")
        }
    }

    /// The entry-name fast path accepts exactly what its per-byte rule accepts, word steps or not.
    @Test func plainNamesAsThePerByteRuleHasThem() {
        func perByte(_ bytes: [UInt8]) -> Bool {
            guard !bytes.isEmpty else { return false }
            var previous = UInt8(ascii: "/")
            for byte in bytes {
                switch byte {
                case 0x61 ... 0x7A, 0x30 ... 0x39, UInt8(ascii: "-"), UInt8(ascii: "_"): break
                case UInt8(ascii: "."), UInt8(ascii: "/"):
                    if previous == UInt8(ascii: "/") || previous == UInt8(ascii: ".") { return false }
                default: return false
                }
                previous = byte
            }
            return previous != UInt8(ascii: ".")
        }
        let alphabet = Array("ab09-_./Z ".utf8)
        var random = SeededGenerator(seed: 7)
        for _ in 0 ..< 20_000 {
            let length = Int(random.next() % 24)
            let name = (0 ..< length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let found = name.withUnsafeBytes { ZipArchive.plainName($0) }
            #expect((found != nil) == perByte(name), "\(String(decoding: name, as: UTF8.self))")
            if let found { #expect(Array(found.utf8) == name) }
        }
    }
}
