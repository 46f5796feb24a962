import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// Real manifests — the fixtures' and fresh `create` output — against the published JSON Schema,
/// checked by an independent validator (Python's jsonschema, draft 2020-12).
@Suite("Manifest JSON Schema")
struct SchemaTests {
    /// A manifest conforms when one of the schemas (v1, v2) accepts it: each says which major
    /// version it covers.
    static let check = """
        import json, sys
        from jsonschema import Draft202012Validator, FormatChecker
        validators = []
        for path in sys.argv[1].split(","):
            schema = json.load(open(path))
            Draft202012Validator.check_schema(schema)
            validators.append(Draft202012Validator(schema, format_checker=FormatChecker()))
        bad = 0
        for path in sys.argv[2:]:
            document = json.load(open(path, encoding="utf-8"))
            errors = [list(v.iter_errors(document)) for v in validators]
            if all(errors):
                bad += 1
                for found in errors:
                    for error in found:
                        print(path, "/".join(map(str, error.absolute_path)), error.message)
        sys.exit(1 if bad else 0)
        """

    static let schemas = [TestPaths.spec("manifest.schema.json"), TestPaths.spec("manifest-2.schema.json")]

    func validate(_ manifests: [String]) throws -> ProcessResult {
        let python = try #require(Subprocess.which("python3"), "python3 is not installed: run scripts/install-deps")
        return try Subprocess.run(python, ["-c", Self.check, Self.schemas.joined(separator: ",")] + manifests)
    }

    /// The fixtures' manifests, and what `create` writes: 1.0 from JPEG and PNG, 2.0 once a
    /// WebP, GIF, AVIF or HEIC is among them (each checked by its own schema).
    @Test func fixtureAndCreatedManifestsConform() throws {
        let directory = try TemporaryDirectory()
        var manifests = try TestPaths.fixtures(in: "valid", withExtension: "json")
        let formatTwo = ["lossy.webp", "anim.gif", "sunset.avif", "bubbles.heic"].map { TestPaths.fixture("format-2.0/" + $0) }
        for (name, inputs, version) in [("one", [TestPaths.fixture("images")], "1.0"),
                                        ("two", [TestPaths.fixture("images/1-sunset.jpg")] + formatTwo, "2.0")] {
            let gallery = directory.file(name + ".imagegallery")
            let created = try Subprocess.imagegallery(["create", gallery] + inputs)
            #expect(created.status == 0, "\(created.stderr)")
            let reader = try GalleryReader(path: gallery)
            #expect(reader.gallery.formatVersion.description == version)
            let entry = try #require(reader.archive.entry(named: "manifest.json"))
            try FileBytes.write(try reader.archive.readAll(entry, limit: 1 << 24), to: directory.file(name + ".json"))
            manifests.append(directory.file(name + ".json"))
        }
        let result = try validate(manifests)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func schemaRejectsWhatTheReaderRejects() throws {
        let directory = try TemporaryDirectory()
        let sample = try String(contentsOfFile: TestPaths.fixture("valid/three.manifest.json"), encoding: .utf8)
        let broken = [
            sample.replacingOccurrences(of: "\"format\": \"imagegallery\"", with: "\"format\": \"other\""),
            sample.replacingOccurrences(of: "\"formatVersion\": \"1.0\"", with: "\"formatVersion\": \"3.0\""),
            // A type of format 2.0 in a 1.0 manifest.
            sample.replacingOccurrences(of: "\"mediaType\": \"image/png\"", with: "\"mediaType\": \"image/gif\""),
            sample.replacingOccurrences(of: "\"mediaType\": \"image/png\"", with: "\"mediaType\": \"image/tiff\"")
                .replacingOccurrences(of: "\"formatVersion\": \"1.0\"", with: "\"formatVersion\": \"2.0\""),
            sample.replacingOccurrences(of: "\"title\": ", with: "\"name\": "),
        ]
        for (index, text) in broken.enumerated() {
            #expect(text != sample, "mutation \(index) did not apply")
            try text.write(toFile: directory.file("\(index).json"), atomically: true, encoding: .utf8)
            #expect(try validate([directory.file("\(index).json")]).status == 1, "mutation \(index) passed the schema")
            #expect(Manifest.decode(Array(text.utf8)).firstError != nil, "mutation \(index) passed the reader")
        }
    }

    /// `formatVersion`: the schema and the reader accept the same spellings, one per version
    /// (section 8: no leading zeros), and the fixture with "01.0" fails both.
    @Test func schemaAndReaderAgreeOnFormatVersions() throws {
        let directory = try TemporaryDirectory()
        let sample = try String(contentsOfFile: TestPaths.fixture("valid/three.manifest.json"), encoding: .utf8)
        let cases: [(version: String, reader: String?)] = [
            ("1.0", nil), ("1.7", nil), ("1.10", nil), ("1.100", nil),
            ("01.0", "IG-MAN-008"), ("1.00", "IG-MAN-008"), ("1.01", "IG-MAN-008"), ("001.0", "IG-MAN-008"),
            ("02.0", "IG-MAN-008"), ("1", "IG-MAN-008"), ("1.", "IG-MAN-008"), ("1.0.0", "IG-MAN-008"),
            ("2.0", nil), ("2.3", nil), ("2.00", "IG-MAN-008"),
            ("3.0", "IG-MAN-010"), ("0.9", "IG-MAN-010"), ("10.0", "IG-MAN-010"),
        ]
        for (index, (version, expected)) in cases.enumerated() {
            let text = sample.replacingOccurrences(of: "\"formatVersion\": \"1.0\"", with: "\"formatVersion\": \"\(version)\"")
            #expect(text.contains("\"formatVersion\": \"\(version)\""))
            try text.write(toFile: directory.file("\(index).json"), atomically: true, encoding: .utf8)
            let schema = try validate([directory.file("\(index).json")])
            #expect(schema.status == (expected == nil ? 0 : 1), "\(version): the schema says \(schema.stdout)\(schema.stderr)")
            #expect(Manifest.decode(Array(text.utf8)).firstError?.code.id == expected, "\(version): the reader")
        }

        let fixture = TestPaths.fixture("invalid/IG-MAN-008-format-version-leading-zero.imagegallery")
        let archive = try ZipArchive(path: fixture)
        let manifest = try archive.readAll(try #require(archive.entry(named: "manifest.json")), limit: 1 << 24)
        #expect(String(decoding: manifest, as: UTF8.self).contains("\"formatVersion\": \"01.0\""))
        try FileBytes.write(manifest, to: directory.file("fixture.json"))
        #expect(try validate([directory.file("fixture.json")]).status == 1, "the schema refuses 01.0")
        #expect(Manifest.decode(manifest).firstError?.code.id == "IG-MAN-008", "the reader refuses 01.0")
        let validated = try Subprocess.imagegallery(["validate", "--format", "json", fixture])
        #expect(validated.status == 1)
        #expect(validated.stdout.contains("IG-MAN-008") && !validated.stdout.contains("IG-MAN-010"), "\(validated.stdout)")
    }
}
