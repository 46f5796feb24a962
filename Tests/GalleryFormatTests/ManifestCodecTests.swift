import Foundation
@testable import GalleryFormat
import GalleryTestSupport
import Testing

/// A valid manifest text to mutate.
func sampleManifest(images: String? = nil, extraTop: String = "") -> String {
    let image = """
        {"byteSize": 10, "height": 2, "id": "0b6f7c1e-1a2b-4c3d-8e9f-0a1b2c3d4e5f", "mediaType": "image/png", \
        "path": "images/\(String(repeating: "ab", count: 32)).png", "sha256": "\(String(repeating: "ab", count: 32))", "width": 3}
        """
    return """
        {"created": "2026-01-02T03:04:05Z", "format": "imagegallery", "formatVersion": "1.0", \
        "id": "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b", "images": [\(images ?? image)], \
        "modified": "2026-01-02T03:04:05Z", "revision": "1f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b", "title": "T"\(extraTop)}
        """
}

func decode(_ text: String, limits: GalleryLimits = .default) -> ManifestDecoding {
    Manifest.decode(Array(text.utf8), limits: limits)
}

func firstCode(_ result: ManifestDecoding) -> String? { result.firstError?.code.id }

@Suite("Manifest codec")
struct ManifestCodecTests {
    let gallery = Gallery(
        id: UUID(uuidString: "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b")!,
        revision: UUID(uuidString: "1f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b")!,
        title: "Ünïcødé \"quoted\"\n\u{1}tab\t", created: Timestamp(seconds: 1_767_323_045),
        modified: Timestamp(seconds: 1_767_323_046, nanoseconds: 500_000_000),
        images: [
            GalleryImage(id: UUID(), mediaType: .jpeg, width: 6000, height: 4000, byteSize: 123_456,
                         sha256: SHA256Hasher.of([1, 2, 3]), source: "https://example.com/a.jpg",
                         filename: "IMG_0001.JPG", caption: "A caption ✓", added: Timestamp(seconds: 1_767_323_047)),
            GalleryImage(id: UUID(), mediaType: .png, width: 1, height: 1, byteSize: 1, sha256: SHA256Hasher.of([4])),
        ]
    )

    @Test func roundTripsEveryField() throws {
        let bytes = Manifest.encode(gallery)
        let (decoded, notes) = try Manifest.decodeOrThrow(bytes)
        #expect(decoded == gallery)
        #expect(notes.isEmpty)
    }

    @Test func encodingIsCanonical() throws {
        let bytes = Manifest.encode(gallery)
        #expect(bytes == Manifest.encode(gallery))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasSuffix("}\n"))
        #expect(text.contains("\n  \"created\": \"2026-01-02T03:04:05Z\",\n"))
        #expect(text.contains("\"modified\": \"2026-01-02T03:04:06.5Z\""))
        #expect(text.contains("\"title\": \"Ünïcødé \\\"quoted\\\"\\n\\u0001tab\\t\""))
        // Keys in byte order at both levels.
        let keys = text.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: "\"")[1] }
        #expect(keys == keys.sorted())
        let imageKeys = text.split(separator: "\n").filter { $0.hasPrefix("      \"") }.prefix(11).map { $0.split(separator: "\"")[1] }
        #expect(Array(imageKeys) == imageKeys.sorted())
        // Re-encoding what was decoded gives the same bytes.
        let (decoded, _) = try Manifest.decodeOrThrow(bytes)
        #expect(Manifest.encode(decoded) == bytes)
    }

    @Test func matchesPythonCanonicalForm() throws {
        // json.dumps(sort_keys=True, indent=2, ensure_ascii=False) + "\n" is the reference form.
        // Python is a declared test dependency (scripts/install-deps): its absence is a failure.
        let python = try #require(Subprocess.which("python3"), "python3 is not installed: run scripts/install-deps")
        let bytes = Manifest.encode(gallery)
        let directory = try TemporaryDirectory()
        try FileBytes.write(bytes, to: directory.file("m.json"))
        let script = """
            import json,sys
            raw=open(sys.argv[1],'rb').read()
            again=(json.dumps(json.loads(raw), sort_keys=True, indent=2, ensure_ascii=False)+"\\n").encode()
            sys.exit(0 if raw==again else 1)
            """
        let result = try Subprocess.run(python, ["-c", script, directory.file("m.json")])
        #expect(result.status == 0, "our canonical JSON differs from Python's: \(result.stderr)")
    }

    @Test func acceptsTheSample() throws {
        let result = decode(sampleManifest())
        #expect(result.firstError == nil)
        #expect(result.gallery?.images.count == 1)
    }

    @Test(arguments: [
        ("{\"format\": ", "IG-MAN-001"),
        ("[1, 2]", "IG-MAN-007"),
        ("{} x", "IG-MAN-001"),
        ("{\"a\": 01}", "IG-MAN-001"),
        ("{\"a\": \"\\ud800\"}", "IG-MAN-002"),
        ("{\"a\": \"\\udc00\\ud800\"}", "IG-MAN-002"),
        ("{\"a\": 1, \"a\": 2}", "IG-MAN-003"),
        ("{\"a\": 1, \"\\u0061\": 2}", "IG-MAN-003"),
        ("{\"a\": \"\u{1}\"}", "IG-MAN-001"),
    ])
    func rejectsBadJSON(text: String, code: String) {
        #expect(firstCode(decode(text)) == code)
    }

    @Test func rejectsInvalidUTF8() {
        var bytes = Array(sampleManifest().utf8)
        let title = bytes.firstRange(of: Array("\"T\"".utf8))!
        bytes.replaceSubrange(title, with: [0x22, 0xC3, 0x28, 0x22])
        #expect(firstCode(Manifest.decode(bytes)) == "IG-MAN-002")
        bytes = Array(sampleManifest().utf8)
        bytes.replaceSubrange(title, with: [0x22, 0xED, 0xA0, 0x80, 0x22])  // an encoded surrogate
        #expect(firstCode(Manifest.decode(bytes)) == "IG-MAN-002")
    }

    @Test func rejectsDeepNesting() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let result = decode(sampleManifest(extraTop: ", \"x\": \(deep)"))
        #expect(firstCode(result) == "IG-MAN-004")
        #expect(result.firstError?.location.jsonPointer?.hasPrefix("/x/0/0") == true)
    }

    @Test func rejectsOversizedManifest() {
        var limits = GalleryLimits()
        limits.maxManifestBytes = 100
        #expect(firstCode(decode(sampleManifest(), limits: limits)) == "IG-MAN-005")
    }

    @Test func duplicateKeyNamesItsPlace() {
        let result = decode(sampleManifest(extraTop: ", \"title\": \"again\""))
        #expect(firstCode(result) == "IG-MAN-003")
        #expect(result.firstError?.location.jsonPointer == "/title")
    }

    @Test func schemaProblemsCarryPointers() {
        let missing = decode(sampleManifest().replacingOccurrences(of: ", \"title\": \"T\"", with: ""))
        #expect(firstCode(missing) == "IG-MAN-006")
        #expect(missing.firstError?.location.jsonPointer == "")

        let wrongType = decode(sampleManifest().replacingOccurrences(of: "\"width\": 3", with: "\"width\": \"3\""))
        #expect(firstCode(wrongType) == "IG-MAN-007")
        #expect(wrongType.firstError?.location.jsonPointer == "/images/0/width")

        let zero = decode(sampleManifest().replacingOccurrences(of: "\"width\": 3", with: "\"width\": 0"))
        #expect(firstCode(zero) == "IG-MAN-008")
        #expect(zero.firstError?.location.jsonPointer == "/images/0/width")

        let fraction = decode(sampleManifest().replacingOccurrences(of: "\"width\": 3", with: "\"width\": 3.5"))
        #expect(firstCode(fraction) == "IG-MAN-008")

        let huge = decode(sampleManifest().replacingOccurrences(of: "\"width\": 3", with: "\"width\": 1\(String(repeating: "0", count: 400))"))
        #expect(firstCode(huge) == "IG-MAN-008")

        let badDate = decode(sampleManifest().replacingOccurrences(of: "\"created\": \"2026-01-02T03:04:05Z\"", with: "\"created\": \"2026-02-30T00:00:00Z\""))
        #expect(firstCode(badDate) == "IG-MAN-008")
        #expect(badDate.firstError?.location.jsonPointer == "/created")
    }

    @Test func formatAndVersion() {
        #expect(firstCode(decode(sampleManifest().replacingOccurrences(of: "\"imagegallery\"", with: "\"other\""))) == "IG-MAN-009")
        #expect(firstCode(decode(sampleManifest().replacingOccurrences(of: "\"1.0\"", with: "\"3.0\""))) == "IG-MAN-010")
        #expect(firstCode(decode(sampleManifest().replacingOccurrences(of: "\"1.0\"", with: "\"one\""))) == "IG-MAN-008")
        // A later 1.x is read, its unknown members noted and ignored.
        let later = decode(sampleManifest(extraTop: ", \"futureMember\": {\"a\": [1, {\"b\": null}]}")
            .replacingOccurrences(of: "\"1.0\"", with: "\"1.7\""))
        #expect(later.firstError == nil)
        #expect(later.gallery?.formatVersion == FormatVersion(major: 1, minor: 7))
        #expect(later.diagnostics.map(\.code.id) == ["IG-MAN-013"])
        #expect(later.diagnostics.first?.location.jsonPointer == "/futureMember")
    }

    @Test func duplicateImageIDs() {
        let one = """
            {"byteSize": 10, "height": 2, "id": "0b6f7c1e-1a2b-4c3d-8e9f-0a1b2c3d4e5f", "mediaType": "image/png", \
            "path": "images/\(String(repeating: "ab", count: 32)).png", "sha256": "\(String(repeating: "ab", count: 32))", "width": 3}
            """
        let twice = decode(sampleManifest(images: one + ", " + one))
        #expect(firstCode(twice) == "IG-MAN-011")
        #expect(twice.firstError?.location.jsonPointer == "/images/1/id")
    }

    @Test func blobPathMustMatch() {
        let wrongExtension = decode(sampleManifest().replacingOccurrences(of: ".png\"", with: ".jpg\""))
        #expect(firstCode(wrongExtension) == "IG-MAN-012")
        let traversal = decode(sampleManifest().replacingOccurrences(of: "\"path\": \"images/", with: "\"path\": \"../"))
        #expect(firstCode(traversal) == "IG-MAN-012")
        #expect(traversal.firstError?.location.jsonPointer == "/images/0/path")
    }

    @Test func imageLimit() {
        var limits = GalleryLimits()
        limits.maxImages = 0
        #expect(firstCode(decode(sampleManifest(), limits: limits)) == "IG-MAN-014")
    }

    @Test func errorsGiveByteOffsets() {
        let result = decode("{\"a\": tru}")
        #expect(result.firstError?.location.offset == 6)
        #expect(result.firstError?.location.entry == "manifest.json")
    }
}

/// The save's manifest is written an image at a time and deflated in place: the bytes must be
/// those of the whole value written at once, and inflate back to the input.
@Suite("Manifest writing in pieces")
struct ManifestWritingInPiecesTests {
    @Test(arguments: [false, true]) func elementsMadeAsWrittenAreTheArrayOfThem(compact: Bool) {
        typealias V = CanonicalJSONWriter.Value
        func value(_ index: Int) -> V { .object([("id", .integer(Int64(index))), ("name", .string("n\"\(index)\u{1}"))]) }
        for count in [0, 1, 5] {
            var whole = CanonicalJSONWriter(compact: compact)
            whole.write(.object([("images", .array((0 ..< count).map(value))), ("title", .string("t"))]))
            var pieces = CanonicalJSONWriter(compact: compact)
            pieces.write(.object([("images", .elements(count: count, element: value)), ("title", .string("t"))]))
            #expect(pieces.bytes == whole.bytes, "\(count) elements, compact \(compact)")
        }
    }

    /// The byte pieces the long lists are written with give what the value writer gives, whatever
    /// the bytes already in the array: every number's edge, ids and digests of every digit.
    @Test func bytePiecesAreTheValueWritersBytes() {
        var random = SeededGenerator(seed: 11)
        func valueBytes(_ value: CanonicalJSONWriter.Value) -> [UInt8] {
            var writer = CanonicalJSONWriter(compact: true)
            writer.write(value)
            return writer.bytes
        }
        let prefix: [UInt8] = [0x5B, 0x7B]
        var numbers: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min, Int64.min + 1, Int64.max - 1]
        numbers += (0 ..< 18).flatMap { power -> [Int64] in
            let place = (0 ..< power).reduce(Int64(1)) { value, _ in value * 10 }
            return [place, place - 1, -place, -(place - 1)]
        }
        numbers += (0 ..< 200).map { _ in Int64(bitPattern: random.next()) >> (random.next() % 64) }
        for number in numbers {
            var bytes = prefix
            CanonicalJSONWriter.appendInteger(number, to: &bytes)
            #expect(bytes == prefix + valueBytes(.integer(number)), "\(number)")
            #expect(bytes == prefix + Array(String(number).utf8), "\(number)")
        }
        for round in 0 ..< 200 {
            let id = UUID()
            var bytes = prefix
            CanonicalJSONWriter.appendUUID(id, to: &bytes)
            #expect(bytes == prefix + valueBytes(.string(id.uuidString.lowercased())))
            let digest = SHA256Hasher.of([UInt8(round & 0xFF), UInt8(round >> 8)])
            bytes = prefix
            CanonicalJSONWriter.appendHex(digest, to: &bytes)
            let digits = digest.bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            #expect(bytes == prefix + Array(digits.utf8))
        }
        var bytes = prefix
        CanonicalJSONWriter.appendKey("mediaType", to: &bytes)
        CanonicalJSONWriter.appendVerbatim("\"images/", to: &bytes)
        #expect(bytes == prefix + Array("\"mediaType\":\"images/".utf8))
    }

    /// Every byte that needs an escape gets the format's: the short forms, `\u00XX` for the
    /// other controls; everything else, non-ASCII included, as it is.
    @Test func stringsAreEscapedAsTheFormatSays() {
        let short: [UInt8: String] = [0x22: "\\\"", 0x5C: "\\\\", 0x08: "\\b", 0x0C: "\\f", 0x0A: "\\n", 0x0D: "\\r",
                                      0x09: "\\t"]
        for byte in UInt8(0) ... 0x7F {
            let digits = String(byte, radix: 16)
            let expected = short[byte] ?? (byte < 0x20 ? "\\u00" + (digits.count == 1 ? "0" : "") + digits
                                                       : String(UnicodeScalar(byte)))
            var bytes = [UInt8(ascii: "[")]
            CanonicalJSONWriter.appendString("a" + String(UnicodeScalar(byte)) + "é\u{1F600}", to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "[\"a" + expected + "é\u{1F600}\"", "byte \(byte)")
        }
        // The worst case fills the space the cursor is given for it, and no more.
        let controls = String(decoding: [UInt8](repeating: 0x01, count: 40), as: UTF8.self)
        var bytes: [UInt8] = []
        CanonicalJSONWriter.appendString(controls, to: &bytes)
        #expect(bytes.count == JSONTextCursor.stringBytes(controls))
    }

    /// A writer whose bound is wrong stops rather than write past its scratch space (here
    /// memory of the test's own follows the space, so only the cursor's check can stop it).
    @Test func textPastItsSpaceStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let memory = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64)
            var cursor = JSONTextCursor(UnsafeMutableBufferPointer(rebasing: memory[..<(JSONTextCursor.uuidBytes - 1)]))
            cursor.uuid(UUID())
        }
    }

    @Test func deflatedInPlaceItInflatesBackAndHoldsOnlyWhatWasWritten() throws {
        var generator = SystemRandomNumberGenerator()
        let text = Array((0 ..< 300_000).map { _ in UInt8.random(in: 0x61 ... 0x64, using: &generator) })
        let deflated = try Deflate.compress(text, level: 6, context: "manifest.json")
        #expect(deflated.count < text.count / 2)
        let inflater = try Inflater(entry: "manifest.json")
        var inflated: [UInt8] = []
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { output.deallocate() }
        try deflated.withUnsafeBytes { input in
            try inflater.inflate(input, output: output) { inflated += $0 }
        }
        #expect(inflated == text)
    }
}

/// A save streams the manifest through deflate into the file: across several megabyte pieces
/// it is the manifest `encode` gives, and the entry reads back whole with libarchive, an
/// independent reader, CRC and sizes included.
@Suite("Manifest streamed into the file")
struct ManifestStreamedIntoTheFileTests {
    @Test func theStreamedManifestIsTheEncodedOneAndReadsBack() throws {
        let (gallery, blobs) = makeGallery(count: 6_000)
        var pieces: [[UInt8]] = []
        try Manifest.write(gallery, to: { pieces.append(Array($0)) })
        let encoded = Manifest.encode(gallery)
        #expect(pieces.count > 1, "\(encoded.count) bytes came in one piece: nothing was streamed")
        #expect(pieces.flatMap { $0 } == encoded)
        #expect(Manifest.encodedSize(gallery) == encoded.count, "the size the limit is checked against")
        let folder = try TemporaryDirectory()
        let path = folder.path + "/streamed.imagegallery"
        try writeGallery(gallery, blobs: blobs, to: path)
        let entries = try readWithLibarchive(path)
        #expect(entries.first { $0.0 == "manifest.json" }?.1 == encoded)
        #expect(try GalleryReader(path: path).gallery == gallery)
    }
}
