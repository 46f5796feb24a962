import Foundation
@testable import GalleryFormat
import GalleryTestSupport
import Testing

/// `plainImage` reads image records without the general walk. It must never change what a
/// manifest decodes to: every record here is decoded both ways, and the galleries and findings
/// compared. The counts prove the plain reading was taken where it should be.
@Suite("Plain image records")
struct PlainImageTests {
    /// Decodes `text` whole, with or without the plain reading; also says how many records it read.
    func decode(_ text: [UInt8], plain: Bool, keepsText: Bool = true) -> (ManifestDecoding, Int) {
        text.withUnsafeBytes { buffer in
            var decoder = ManifestDecoder(limits: .default, keepsText: keepsText, textBytes: text.count)
            decoder.usesPlainImages = plain
            var scanner = JSONScanner(buffer, maxDepth: GalleryLimits.default.maxJSONDepth,
                                      maxMembers: GalleryLimits.default.maxObjectMembers)
            return (decoder.run(&scanner), decoder.plainImages)
        }
    }

    /// The plain and the general reading agree on `text`; returns the plain reading's count.
    @discardableResult
    func agree(_ text: String, _ comment: Comment? = nil) -> Int {
        var plainCount = 0
        for keepsText in [true, false] {
            let (general, _) = decode(Array(text.utf8), plain: false, keepsText: keepsText)
            let (plain, count) = decode(Array(text.utf8), plain: true, keepsText: keepsText)
            #expect(plain.gallery == general.gallery, comment)
            #expect(plain.diagnostics == general.diagnostics, comment)
            plainCount = count
        }
        return plainCount
    }

    static let hex = String(repeating: "ab", count: 32)
    static let id = "0b6f7c1e-1a2b-4c3d-8e9f-0a1b2c3d4e5f"

    /// An image record with `members` replacing or adding to the required ones.
    func record(_ members: [String: String], dropping: Set<String> = []) -> String {
        var all = ["byteSize": "10", "height": "2", "id": "\"\(Self.id)\"", "mediaType": "\"image/png\"",
                   "path": "\"images/\(Self.hex).png\"", "sha256": "\"\(Self.hex)\"", "width": "3"]
        for (key, value) in members { all[key] = value }
        return "{" + all.filter { !dropping.contains($0.key) }.sorted { $0.key < $1.key }
            .map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
    }

    @Test func aManifestAsWrittenIsReadPlainWithTheSameResult() throws {
        let gallery = Gallery(
            id: UUID(), revision: UUID(), title: "Plain", created: Timestamp(seconds: 1_767_323_045),
            modified: Timestamp(seconds: 1_767_323_046),
            images: (0 ..< 40).map { index in
                GalleryImage(id: UUID(), mediaType: [.jpeg, .png, .webp, .gif, .avif, .heic][index % 6], width: index + 1,
                             height: 2 * index + 1, byteSize: UInt64(1000 + index), sha256: SHA256Hasher.of([UInt8(index)]),
                             source: index % 3 == 0 ? "https://example.com/\(index).jpg" : nil,
                             filename: index % 2 == 0 ? "IMG_\(index).JPG" : nil,
                             caption: index % 4 == 0 ? "Ünïcødé caption \(index) ✓" : nil,
                             added: index % 5 == 0 ? Timestamp(seconds: 1_767_323_047 + Int64(index)) : nil)
            })
        let text = String(decoding: Manifest.encode(gallery), as: UTF8.self)
        #expect(agree(text) == 40)
        #expect(decode(Array(text.utf8), plain: true).0.gallery?.images == gallery.images)
    }

    @Test(arguments: [
        // Read plainly: the count says so.
        (["caption": "\"Ünïcødé ✓\""], true), (["filename": "\"IMG 1.JPG\""], true), (["source": "\"https://x.org/a%20b\""], true),
        (["added": "\"2026-01-02T03:04:05Z\""], true), (["byteSize": "9007199254740991"], true), (["width": "2147483647"], true),
        // Left to the general walk, which decides alike.
        (["caption": "\"caf\\u00e9\""], false), (["filename": "\"a\\\"b\""], false), (["id": "\"\\u0030b6f7c1e-1a2b-4c3d-8e9f-0a1b2c3d4e5f\""], false),
        (["futureMember": "1"], false), (["byteSize": "010"], false), (["byteSize": "-1"], false), (["byteSize": "1.0"], false),
        (["byteSize": "1e3"], false), (["byteSize": "0"], false), (["byteSize": "9007199254740992"], false),
        (["byteSize": "123456789012345678901234"], false), (["width": "2147483648"], false), (["width": "\"3\""], false),
        (["height": "null"], false), (["id": "\"0b6f7c1e-1a2b-4c3d-8e9f-0a1b2c3d4e5\""], false),
        (["id": "\"0B6F7C1E-1A2B-4C3D-8E9F-0A1B2C3D4E5F\""], true), (["sha256": "\"\(String(repeating: "AB", count: 32))\""], false),
        (["path": "\"images/\(String(repeating: "cd", count: 32)).png\""], false), (["mediaType": "\"image/tiff\""], false),
        (["mediaType": "\"image/jpeg\""], false), (["filename": "\"..\""], false), (["filename": "\"a/b\""], false),
        (["filename": "\"\u{85}x\""], false), (["filename": "\"\""], false), (["source": "\"not a uri\""], false),
        (["added": "\"yesterday\""], false), (["caption": "\"\(String(repeating: "é", count: 6000))\""], false),
        (["caption": "\"\(String(repeating: "é", count: 10_001))\""], false), (["caption": "\"tab\there\""], false),
    ] as [([String: String], Bool)])
    func eachMemberIsJudgedAsTheGeneralWalkJudgesIt(members: [String: String], plain: Bool) {
        let text = sampleManifest(images: record(members))
        #expect(agree(text, "\(members)") == (plain ? 1 : 0))
    }

    @Test func missingRepeatedAndMisplacedPartsAreLeftToTheGeneralWalk() {
        for name in ["byteSize", "height", "id", "mediaType", "path", "sha256", "width"] {
            #expect(agree(sampleManifest(images: record([:], dropping: [name])), "without \(name)") == 0)
        }
        let whole = record([:])
        for text in [
            whole.replacingOccurrences(of: "\"width\": 3", with: "\"width\": 3, \"width\": 3"),
            whole.replacingOccurrences(of: "\"width\": 3}", with: "\"width\": 3,}"),
            whole.replacingOccurrences(of: "\"width\": 3}", with: "\"width\": 3 x}"),
            whole + ", {}", "{}", "[]", "3", "\"image\"", whole + ", " + whole,
            whole.replacingOccurrences(of: ", ", with: " ,\r\n\t"),
            whole.replacingOccurrences(of: "{", with: "{\n      ").replacingOccurrences(of: "}", with: "\n    }"),
        ] {
            agree(sampleManifest(images: text), "\(text)")
        }
        // White space of any kind between tokens is still plain.
        #expect(agree(sampleManifest(images: whole.replacingOccurrences(of: ", ", with: " ,\r\n\t"))) == 1)
    }

    /// Random damage to a manifest as written: whatever it becomes, both readings agree.
    @Test func randomDamageNeverMakesTheReadingsDiffer() {
        let images = (0 ..< 6).map { index in
            GalleryImage(id: UUID(), mediaType: .jpeg, width: 10 + index, height: 20, byteSize: 300, sha256: SHA256Hasher.of([UInt8(index)]),
                         source: "https://example.com/\(index)", filename: "f\(index).jpg", caption: "c\(index) é",
                         added: Timestamp(seconds: 1_767_323_047))
        }
        let gallery = Gallery(id: UUID(), revision: UUID(), title: "T", created: Timestamp(seconds: 1), modified: Timestamp(seconds: 2),
                              images: images)
        let text = Manifest.encode(gallery)
        let replacements: [UInt8] = [0x22, 0x5C, 0x20, 0x0A, 0x09, 0x30, 0x31, 0x39, 0x61, 0x41, 0x2D, 0x2E, 0x2F, 0x3A, 0x2C,
                                     0x7D, 0x7B, 0x5D, 0x65, 0x75, 0x00, 0x1F, 0x7F, 0x85, 0xC2, 0xE9, 0xFF]
        var random = SeededGenerator(seed: 34)
        for round in 0 ..< 1500 {
            var damaged = text
            for _ in 0 ... Int(random.next() % 3) {
                let at = Int(random.next() % UInt64(damaged.count))
                damaged[at] = replacements[Int(random.next() % UInt64(replacements.count))]
            }
            let (general, _) = decode(damaged, plain: false)
            let (plain, _) = decode(damaged, plain: true)
            #expect(plain.gallery == general.gallery, "round \(round)")
            #expect(plain.diagnostics == general.diagnostics, "round \(round)")
        }
    }

    @Test func theKeysItKnowsAreTheDecodersKeys() {
        for (index, name) in ManifestDecoder.imageKeys.enumerated() {
            let text = [UInt8(ascii: "\"")] + name + Array("\":".utf8)
            text.withUnsafeBytes { bytes in
                var record = PlainRecord(bytes: bytes, position: 0)
                #expect(record.imageKey() == index, "\(String(decoding: name, as: UTF8.self))")
            }
        }
    }
}
