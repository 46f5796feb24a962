import Foundation
@testable import GalleryFormat
import GalleryTestSupport
import Testing

/// SHA-256 names every blob and SHA-1 every name-based id: both must equal coreutils' digests,
/// by every path this processor has (HashPathTests forces each in turn), however the bytes are split.
@Suite("Hashes")
struct HashTests {
    static func digest(_ bytes: ArraySlice<UInt8>, portable: Bool, cut: Int? = nil) -> SHA256Digest {
        digest(bytes, path: portable ? .portable : .best, cut: cut)
    }

    static func digest(_ bytes: ArraySlice<UInt8>, path: ChecksumPath.SHA256, cut: Int? = nil) -> SHA256Digest {
        var hasher = SHA256Hasher(path: path)
        let cut = cut ?? bytes.count
        bytes[bytes.startIndex ..< bytes.startIndex + cut].withUnsafeBytes { hasher.update($0) }
        bytes[(bytes.startIndex + cut)...].withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    static func coreutils(_ tool: String, of bytes: ArraySlice<UInt8>) throws -> String {
        let directory = try TemporaryDirectory()
        let path = directory.file("bytes")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try Subprocess.run("/usr/bin/\(tool)", [path])
        return String(result.stdout.prefix { $0 != " " })
    }

    @Test func sha256EqualsCoreutilsOnBlockEdges() throws {
        let data = ChecksumTests.pseudoRandom((1 << 20) + 200, seed: 3)
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 1000, 1 << 20] {
            let bytes = data[7 ..< 7 + length]
            let expected = try Self.coreutils("sha256sum", of: bytes)
            #expect(Self.digest(bytes, portable: false).hex == expected, "length \(length)")
            #expect(Self.digest(bytes, portable: true).hex == expected, "length \(length), plain C")
        }
        #expect(SHA256Hasher.of(Array("abc".utf8)).hex
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func sha256IsTheSameForEveryLengthAndSplit() {
        let data = ChecksumTests.pseudoRandom(700, seed: 5)
        for length in 0 ... 300 {
            let bytes = data[3 ..< 3 + length]
            let whole = Self.digest(bytes, portable: true)
            for cut in Set([0, length / 3, length / 2, max(0, length - 1), length]) {
                #expect(Self.digest(bytes, portable: false, cut: cut) == whole, "length \(length), cut \(cut)")
                #expect(Self.digest(bytes, portable: true, cut: cut) == whole, "length \(length), cut \(cut), plain C")
            }
        }
    }

    @Test func aDigestCanBeTakenAndTheHashGoOn() {
        var hasher = SHA256Hasher()
        hasher.update(Array("ab".utf8))
        #expect(hasher.finalize() == SHA256Hasher.of(Array("ab".utf8)))
        hasher.update(Array("c".utf8))
        #expect(hasher.finalize() == SHA256Hasher.of(Array("abc".utf8)))
    }

    @Test func sha1EqualsCoreutils() throws {
        let data = ChecksumTests.pseudoRandom(300, seed: 9)
        for length in [0, 3, 55, 56, 64, 119, 120, 200] {
            let bytes = data[1 ..< 1 + length]
            #expect(SHA1.of(Array(bytes)).map { String(format: "%02x", $0) }.joined()
                    == (try Self.coreutils("sha1sum", of: bytes)), "length \(length)")
        }
    }

    @Test func nameBasedIdsFollowRFC9562() throws {
        // RFC 9562, appendix A.4: the DNS namespace and www.example.com.
        let dns = try #require(UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8"))
        #expect(UUID.nameBased(namespace: dns, name: "www.example.com").manifestString
                == "2ed6657d-e927-568b-95e1-2665a8aea6a2")
    }
}
