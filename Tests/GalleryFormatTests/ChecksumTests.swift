import CZlib
import GalleryFormat
import Testing

/// The accelerated CRC-32 must equal zlib's for every length, alignment and way of splitting.
@Suite("CRC-32")
struct ChecksumTests {
    static func zlibCRC(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, UInt32($0.count))) }
    }

    static func pseudoRandom(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0 ..< count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    @Test func matchesZlibForEveryLengthAndAlignment() {
        let data = Self.pseudoRandom(4096 + 64, seed: 7)
        for offset in 0 ..< 17 {
            for length in Array(0 ... 300) + [1023, 1024, 1025, 4095, 4096] {
                let slice = data[offset ..< offset + length]
                var crc = CRC32()
                slice.withUnsafeBytes { crc.update($0) }
                #expect(crc.value == Self.zlibCRC(slice), "offset \(offset), length \(length)")
            }
        }
    }

    @Test func matchesZlibWhenSplitAnywhere() {
        let data = Self.pseudoRandom(1 << 20, seed: 11)
        let whole = Self.zlibCRC(data[...])
        for cut in [1, 15, 16, 63, 64, 65, 1000, 65_536, 999_999] {
            var crc = CRC32()
            data[..<cut].withUnsafeBytes { crc.update($0) }
            data[cut...].withUnsafeBytes { crc.update($0) }
            #expect(crc.value == whole, "cut at \(cut)")
        }
        #expect(CRC32.of(Array(repeating: 0, count: 1 << 16)) == Self.zlibCRC(Array(repeating: 0, count: 1 << 16)[...]))
    }
}
