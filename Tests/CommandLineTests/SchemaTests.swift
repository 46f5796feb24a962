import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// Real manifests — the fixtures' and fresh `create` output — against the published JSON Schema,
/// checked by an independent validator (Python's jsonschema, draft 2020-12).
@Suite("Manifest JSON Schema")
struct SchemaTests {
    static let check = """
        import json, sys
        from jsonschema import Draft202012Validator, FormatChecker
        schema = json.load(open(sys.argv[1]))
        Draft202012Validator.check_schema(schema)
        validator = Draft202012Validator(schema, format_checker=FormatChecker())
        bad = 0
        for path in sys.argv[2:]:
            for error in validator.iter_errors(json.load(open(path, encoding="utf-8"))):
                bad += 1
                print(path, "/".join(map(str, error.absolute_path)), error.message)
        sys.exit(1 if bad else 0)
        """

    func validate(_ manifests: [String]) throws -> ProcessResult {
        let python = try #require(Subprocess.which("python3"))
        return try Subprocess.run(python, ["-c", Self.check, TestPaths.spec("manifest.schema.json")] + manifests)
    }

    @Test func fixtureAndCreatedManifestsConform() throws {
        let directory = try TemporaryDirectory()
        var manifests = TestPaths.fixtures(in: "valid", withExtension: "json")
        let gallery = directory.file("g.imagegallery")
        #expect(try Subprocess.imagegallery(["create", gallery, TestPaths.fixture("images")]).status == 0)
        let reader = try GalleryReader(path: gallery)
        let entry = try #require(reader.archive.entry(named: "manifest.json"))
        try FileBytes.write(try reader.archive.readAll(entry, limit: 1 << 24), to: directory.file("created.json"))
        manifests.append(directory.file("created.json"))
        let result = try validate(manifests)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func schemaRejectsWhatTheReaderRejects() throws {
        let directory = try TemporaryDirectory()
        let sample = try String(contentsOfFile: TestPaths.fixture("valid/three.manifest.json"), encoding: .utf8)
        let broken = [
            sample.replacingOccurrences(of: "\"format\": \"imagegallery\"", with: "\"format\": \"other\""),
            sample.replacingOccurrences(of: "\"formatVersion\": \"1.0\"", with: "\"formatVersion\": \"2.0\""),
            sample.replacingOccurrences(of: "\"mediaType\": \"image/png\"", with: "\"mediaType\": \"image/gif\""),
            sample.replacingOccurrences(of: "\"title\": ", with: "\"name\": "),
        ]
        for (index, text) in broken.enumerated() {
            #expect(text != sample, "mutation \(index) did not apply")
            try text.write(toFile: directory.file("\(index).json"), atomically: true, encoding: .utf8)
            #expect(try validate([directory.file("\(index).json")]).status == 1, "mutation \(index) passed the schema")
            #expect(Manifest.decode(Array(text.utf8)).firstError != nil, "mutation \(index) passed the reader")
        }
    }
}
