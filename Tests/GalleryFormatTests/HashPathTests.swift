import CZlib
@testable import GalleryFormat
import Testing

/// Every way of computing SHA-256 and CRC-32 that this processor has, forced in turn, gives the
/// reference's result (coreutils' sha256sum, zlib's crc32) for every length, block edge and
/// split. A path the processor lacks is skipped with its reason, never passed on the quiet.
@Suite("Hash paths")
struct HashPathTests {
    /// Lengths about the block edges, and runs long enough for the multi-block code of each.
    static let lengths = [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 255, 256, 257, 1000, 4096, 65_536 + 13, (3 << 20) + 5]
    static let data = ChecksumTests.pseudoRandom((3 << 20) + 64, seed: 21)

    static func expectSHA256(by path: ChecksumPath.SHA256) throws {
        for length in lengths {
            let bytes = data[11 ..< 11 + length]
            let expected = try HashTests.coreutils("sha256sum", of: bytes)
            #expect(HashTests.digest(bytes, path: path).hex == expected, "\(path), length \(length)")
            for cut in Set([1, 63, 64, length / 2, max(0, length - 65)]) where cut <= length {
                #expect(HashTests.digest(bytes, path: path, cut: cut).hex == expected, "\(path), length \(length), cut \(cut)")
            }
        }
    }

    static func reason(_ path: ChecksumPath.SHA256) -> Comment {
        Comment(rawValue: "SHA-256 by \(path): \(path.unavailableBecause ?? "available")")
    }

    @Test func sha256ByPlainC() throws { try Self.expectSHA256(by: .portable) }

    @Test(.enabled(if: ChecksumPath.SHA256.shaExtensions.unavailableBecause == nil, reason(.shaExtensions)))
    func sha256ByTheSHAExtensions() throws { try Self.expectSHA256(by: .shaExtensions) }

    @Test(.enabled(if: ChecksumPath.SHA256.libcrypto.unavailableBecause == nil, reason(.libcrypto)))
    func sha256ByLibcrypto() throws { try Self.expectSHA256(by: .libcrypto) }

    /// Without the SHA extensions, the path a hasher takes by default changes within one hash
    /// once the process has hashed a megabyte (from plain C to libcrypto): the digest of a long
    /// run in small and large pieces is the same, by that path and by the best one here.
    @Test(arguments: [ChecksumPath.SHA256.bestWithoutSHAExtensions, .best])
    func sha256ByTheBestPathAcrossItsChangeOfPath(_ path: ChecksumPath.SHA256) throws {
        let bytes = Self.data[...]
        let expected = try HashTests.coreutils("sha256sum", of: bytes)
        for piece in [100, 64 << 10, 1 << 20] {
            var hasher = SHA256Hasher(path: path)
            var start = bytes.startIndex
            while start < bytes.endIndex {
                let end = min(start + piece, bytes.endIndex)
                bytes[start ..< end].withUnsafeBytes { hasher.update($0) }
                start = end
            }
            #expect(hasher.finalize().hex == expected, "\(path), pieces of \(piece) bytes")
        }
    }

    static func expectCRC32(by path: ChecksumPath.CRC32) {
        for offset in [0, 1, 7, 15] {
            for length in Array(0 ... 300) + [1023, 1024, 1025, 4096, 65_536 + 13, (1 << 20) + 5] {
                let slice = data[offset ..< offset + length]
                var crc = CRC32(path: path)
                slice.withUnsafeBytes { crc.update($0) }
                #expect(crc.value == ChecksumTests.zlibCRC(slice), "\(path), offset \(offset), length \(length)")
            }
        }
        let slice = data[3 ..< 3 + 100_000]
        for cut in [1, 16, 63, 64, 255, 256, 50_001] {
            var crc = CRC32(path: path)
            slice[..<(slice.startIndex + cut)].withUnsafeBytes { crc.update($0) }
            slice[(slice.startIndex + cut)...].withUnsafeBytes { crc.update($0) }
            #expect(crc.value == ChecksumTests.zlibCRC(slice), "\(path), cut \(cut)")
        }
    }

    static func reason(_ path: ChecksumPath.CRC32) -> Comment {
        Comment(rawValue: "CRC-32 by \(path): \(path.unavailableBecause ?? "available")")
    }

    @Test func crc32ByZlib() { Self.expectCRC32(by: .zlib) }

    @Test(.enabled(if: ChecksumPath.CRC32.pclmul.unavailableBecause == nil, reason(.pclmul)))
    func crc32ByPCLMULQDQ() { Self.expectCRC32(by: .pclmul) }

    @Test(.enabled(if: ChecksumPath.CRC32.vpclmul.unavailableBecause == nil, reason(.vpclmul)))
    func crc32ByVPCLMULQDQ() { Self.expectCRC32(by: .vpclmul) }

    @Test func crc32ByTheBestPath() { Self.expectCRC32(by: .best) }
}
