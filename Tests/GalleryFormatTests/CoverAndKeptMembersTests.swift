import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// Format 2.1: the `cover` member, the lowest version a writer writes with it, and the members
/// a writer keeps because it does not know them (section 8).
@Suite("Cover and kept members")
struct CoverAndKeptMembersTests {
    static let imageID = "0b6f7c1e-1a2b-4c3d-8e9f-0a1b2c3d4e5f"

    static func gallery(cover: Bool, webP: Bool = false) -> Gallery {
        let first = GalleryImage(id: UUID(), mediaType: .png, width: 1, height: 1, byteSize: 1, sha256: SHA256Hasher.of([4]))
        let second = GalleryImage(id: UUID(), mediaType: webP ? .webp : .jpeg, width: 2, height: 2, byteSize: 2,
                                  sha256: SHA256Hasher.of([5]))
        return Gallery(id: UUID(), revision: UUID(), title: "T", created: Timestamp(seconds: 1_767_323_045),
                       modified: Timestamp(seconds: 1_767_323_045), images: [first, second],
                       cover: cover ? second.id : nil)
    }

    static func text(_ gallery: Gallery) -> String { String(decoding: Manifest.encode(gallery), as: UTF8.self) }

    @Test func noCoverWritesTheVersionBefore() {
        #expect(Self.gallery(cover: false).writtenFormatVersion == .one)
        #expect(Self.gallery(cover: false, webP: true).writtenFormatVersion == .two)
        let text = Self.text(Self.gallery(cover: false))
        #expect(!text.contains("cover"))
        #expect(text.contains("\"formatVersion\": \"1.0\""))
    }

    @Test func aCoverIsTheMinorVersionOne() throws {
        for (webP, version) in [(false, "1.1"), (true, "2.1")] {
            let gallery = Self.gallery(cover: true, webP: webP)
            let text = Self.text(gallery)
            #expect(text.contains("\"formatVersion\": \"\(version)\""))
            // Canonical: the first key in byte order.
            #expect(text.hasPrefix("{\n  \"cover\": \"\(gallery.images[1].id.manifestString)\",\n"))
            let (decoded, notes) = try Manifest.decodeOrThrow(Manifest.encode(gallery))
            #expect(decoded.cover == gallery.images[1].id)
            #expect(decoded.coverImage == gallery.images[1])
            #expect(notes.isEmpty)
        }
    }

    @Test func theCoverImageIsTheFirstWithoutAChoice() {
        var gallery = Self.gallery(cover: false)
        #expect(gallery.coverImage == gallery.images[0])
        gallery.images.removeAll()
        #expect(gallery.coverImage == nil)
    }

    @Test func aCoverNamingNoImageIsRefused() {
        let result = decode(sampleManifest(extraTop: ", \"cover\": \"9b6f7c1e-1a2b-4c3d-8e9f-0a1b2c3d4e5f\"")
            .replacingOccurrences(of: "\"1.0\"", with: "\"1.1\""))
        #expect(firstCode(result) == "IG-MAN-017")
        #expect(result.diagnostics.first { $0.code.id == "IG-MAN-017" }?.location.jsonPointer == "/cover")
        var gallery = Self.gallery(cover: true)
        gallery.images.removeLast()
        #expect(gallery.brokenRule()?.code == .coverNamesNoImage)
        let settled = gallery.settleCover()
        #expect(settled)
        #expect(gallery.cover == nil && gallery.brokenRule() == nil)
    }

    @Test func aCoverInAMinorVersionZeroIsRefused() {
        let result = decode(sampleManifest(extraTop: ", \"cover\": \"\(Self.imageID)\""))
        #expect(firstCode(result) == "IG-MAN-008")
        #expect(result.diagnostics.contains { $0.location.jsonPointer == "/cover" && $0.message.contains("1.1") })
        let fine = decode(sampleManifest(extraTop: ", \"cover\": \"\(Self.imageID)\"")
            .replacingOccurrences(of: "\"1.0\"", with: "\"1.1\""))
        #expect(fine.firstError == nil)
        #expect(fine.gallery?.cover == UUID(uuidString: Self.imageID))
    }

    @Test func unknownMembersAreWrittenAgain() throws {
        let image = """
            {"byteSize": 10, "height": 2, "id": "\(Self.imageID)", "mediaType": "image/png", "blurhash": "LEHV6n", \
            "path": "images/\(String(repeating: "ab", count: 32)).png", "sha256": "\(String(repeating: "ab", count: 32))", "width": 3}
            """
        let text = sampleManifest(images: image, extraTop: #", "zeta": {"b": [1, 2.50, true, null, -0.1e3], "a": "x\u00e9"}, "album": 7"#)
            .replacingOccurrences(of: "\"1.0\"", with: "\"1.3\"")
        let (gallery, notes) = try Manifest.decodeOrThrow(Array(text.utf8))
        #expect(notes.filter { $0.code == .unknownMember }.count == 3)
        #expect(notes.allSatisfy { $0.message.contains("kept") })
        #expect(gallery.keptMembers.map(\.name) == ["zeta", "album"])
        #expect(gallery.images[0].keptMembers == [ManifestMember(name: "blurhash", value: .string("LEHV6n"))])
        // A later minor version of the same major is kept with its members.
        #expect(gallery.writtenFormatVersion == FormatVersion(major: 1, minor: 3))
        let written = Self.text(gallery)
        #expect(written.contains("\n  \"album\": 7,\n"))
        #expect(written.contains("\"zeta\": {\n    \"a\": \"xé\",\n    \"b\": [\n      1,\n      2.50,\n      true,\n      null,\n      -0.1e3\n    ]\n  }"))
        #expect(written.contains("\"blurhash\": \"LEHV6n\""))
        let keys = written.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: "\"")[1] }
        #expect(keys == keys.sorted())
        // What is written reads back to the same bytes.
        #expect(Manifest.encode(try Manifest.decodeOrThrow(Manifest.encode(gallery)).0) == Manifest.encode(gallery))
        // Without them, the lowest version again.
        var plain = gallery
        plain.keptMembers = []
        plain.images[0].keptMembers = []
        #expect(plain.writtenFormatVersion == .one)
    }

    @Test func keptMembersAreBounded() throws {
        let big = String(repeating: "x", count: 5 << 20)
        let text = sampleManifest(extraTop: ", \"big\": [\"\(big)\"], \"small\": 1")
        let (gallery, notes) = try Manifest.decodeOrThrow(Array(text.utf8))
        #expect(gallery.keptMembers.map(\.name) == ["small"] || gallery.keptMembers.isEmpty)
        #expect(!gallery.keptMembers.contains { $0.name == "big" })
        #expect(notes.contains { $0.message.contains("\"big\" is not kept") })
    }
}
