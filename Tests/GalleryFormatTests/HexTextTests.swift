import Foundation
@testable import GalleryFormat
import GalleryTestSupport
import Testing

/// UUIDs and digests as the manifest reader parses them from its bytes: every one Foundation
/// reads is read alike, and a single wrong character anywhere is refused.
@Suite("Ids and digests read from bytes")
struct HexTextTests {
    @Test func uuidsInEitherCaseAndNothingElse() {
        var random = SeededGenerator(seed: 5)
        for round in 0 ..< 300 {
            let id = UUID()
            var text = Array((round % 3 == 0 ? id.uuidString : id.uuidString.lowercased()).utf8)
            if round % 3 == 2 { text = text.map { random.next() % 2 == 0 ? $0 : Array(String(UnicodeScalar($0)).lowercased().utf8)[0] } }
            #expect(text.withUnsafeBytes { UUID(textBytes: $0) } == id)
            let at = Int(random.next() % 36)
            for wrong in Array("g/:@`G -{".utf8) + [0x00, 0x80, 0xFF] where !(wrong == 0x2D && [8, 13, 18, 23].contains(at)) {
                var damaged = text
                damaged[at] = wrong
                #expect(damaged.withUnsafeBytes { UUID(textBytes: $0) } == nil, "\(String(decoding: damaged, as: UTF8.self))")
            }
        }
        #expect(Array("0b6f7c1e-1a2b-4c3d-8e9f-0a1b2c3d4e5".utf8).withUnsafeBytes { UUID(textBytes: $0) } == nil)
    }

    @Test func digestsInLowercaseOnly() {
        var random = SeededGenerator(seed: 6)
        for round in 0 ..< 300 {
            let digest = SHA256Hasher.of([UInt8(round & 0xFF), UInt8(round >> 8)])
            let text = Array(digest.hex.utf8)
            #expect(text.withUnsafeBytes { SHA256Digest(hexBytes: $0) } == digest)
            let at = Int(random.next() % 64)
            for wrong in Array("gA/:@`F -".utf8) + [0x00, 0x80, 0xFF] {
                var damaged = text
                damaged[at] = wrong
                #expect(damaged.withUnsafeBytes { SHA256Digest(hexBytes: $0) } == nil)
            }
        }
    }
}
