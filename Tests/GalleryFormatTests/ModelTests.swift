import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

@Suite("Model values")
struct ModelTests {
    @Test(arguments: [
        ("2026-01-02T03:04:05Z", Int64(1_767_323_045), Int32(0)),
        ("2026-01-02T04:04:05+01:00", Int64(1_767_323_045), Int32(0)),
        ("2026-01-02t03:04:05.25z", Int64(1_767_323_045), Int32(250_000_000)),
        ("1969-12-31T23:59:59Z", Int64(-1), Int32(0)),
        ("2000-02-29T00:00:00Z", Int64(951_782_400), Int32(0)),
    ])
    func parsesRFC3339(text: String, seconds: Int64, nanoseconds: Int32) throws {
        let time = try #require(Timestamp(rfc3339: text))
        #expect(time == Timestamp(seconds: seconds, nanoseconds: nanoseconds))
        #expect(Timestamp(rfc3339: time.rfc3339) == time)
    }

    @Test(arguments: ["2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-01-02 03:04:05Z", "2026-01-02T03:04:05",
                      "2026-01-02T03:04:05.Z", "2026-01-02T03:04:05.1234567890Z", "2026-01-02T24:00:00Z", ""])
    func rejectsMalformedTimes(text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
    }

    @Test func formatsFractionsMinimally() {
        #expect(Timestamp(seconds: 0).rfc3339 == "1970-01-01T00:00:00Z")
        #expect(Timestamp(seconds: 0, nanoseconds: 120_000_000).rfc3339 == "1970-01-01T00:00:00.12Z")
    }

    @Test func naturalOrder() {
        let names = ["10.jpg", "2.jpg", "1.jpg", "a10b", "a2b", "a02b", "B.jpg", "a.jpg", "img12.png", "img2.png"]
        #expect(names.sorted(by: NaturalOrder.areInIncreasingOrder)
            == ["1.jpg", "2.jpg", "10.jpg", "B.jpg", "a.jpg", "a02b", "a2b", "a10b", "img2.png", "img12.png"])
    }

    @Test func nameBasedUUIDsFollowRFC9562() {
        // The DNS namespace example from RFC 9562, appendix A.4.
        let dns = UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
        #expect(UUID.nameBased(namespace: dns, name: "www.example.com").manifestString == "2ed6657d-e927-568b-95e1-2665a8aea6a2")
    }

    /// The manifest's text form of an id, written without `uuidString`, is its lowercase form.
    @Test func idsPrintAsLowercaseRFC9562Text() {
        for uuid in [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                     UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
            + (0 ..< 200).map({ _ in UUID() }) {
            #expect(uuid.manifestString == uuid.uuidString.lowercased())
        }
    }

    @Test func digestsParseAndPrint() throws {
        let digest = SHA256Hasher.of(Array("abc".utf8))
        #expect(digest.hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest(hex: digest.hex) == digest)
        #expect(SHA256Digest(hex: digest.hex.uppercased()) == nil)
        #expect(SHA256Digest(hex: "ab") == nil)
    }

    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.of(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test func formatVersions() {
        #expect(FormatVersion("1.0") == FormatVersion(major: 1, minor: 0))
        #expect(FormatVersion("1.12") == FormatVersion(major: 1, minor: 12))
        for bad in ["1", "1.", ".1", "1.0.0", "a.b", "-1.0", "1.0 "] { #expect(FormatVersion(bad) == nil, "\(bad)") }
    }
}

@Suite("Diagnostics catalogue")
struct DiagnosticsCatalogueTests {
    /// Every `| IG-…` row of Specs/diagnostics.md, as (id, severity).
    func catalogueRows() throws -> [(String, String)] {
        let text = try String(contentsOfFile: TestPaths.spec("diagnostics.md"), encoding: .utf8)
        return text.split(separator: "\n").filter { $0.hasPrefix("| IG-") }.map { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            return (cells[0].replacingOccurrences(of: "`", with: ""), cells[1].lowercased())
        }
    }

    @Test func codeAndCatalogueAgree() throws {
        let rows = try catalogueRows()
        let documented = Dictionary(rows, uniquingKeysWith: { first, _ in first })
        #expect(rows.count == documented.count, "an id appears twice in Specs/diagnostics.md")
        let coded = Dictionary(DiagnosticCode.catalogue.map { ($0.id, $0.severity.rawValue) }, uniquingKeysWith: { a, _ in a })
        #expect(coded.count == DiagnosticCode.catalogue.count, "an id appears twice in DiagnosticCode.catalogue")
        #expect(Set(documented.keys) == Set(coded.keys))
        for (id, severity) in coded { #expect(documented[id] == severity, "\(id): code says \(severity)") }
    }

    @Test func idsAreWellFormed() {
        for code in DiagnosticCode.catalogue {
            #expect(code.id.wholeMatch(of: /IG-(PKG|MAN|BLB|THM|PRV)-[0-9]{3}/) != nil, "\(code.id)")
        }
    }
}
