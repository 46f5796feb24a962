import Foundation
import GalleryFormat
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// Format section 11, diagnostics.md and validation-report.md: `validate` stops checking a
/// file at its first fatal finding, which is then the last finding of that file; and an
/// entry the central directory condemns is reported once, not also as missing.
@Suite("imagegallery validate: a fatal finding ends the check")
struct ValidateStopsAtFatalTests {
    struct Finding: Equatable, CustomStringConvertible {
        var id: String
        var severity: String
        var description: String { "\(severity) \(id)" }
    }

    /// Each checked file's findings (in report order), by path, from the JSON report.
    static func findings(_ arguments: [String]) throws -> (status: Int32, files: [String: [Finding]]) {
        let result = try Subprocess.imagegallery(["validate", "--format", "json"] + arguments)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any],
                                "no JSON report: \(result.stdout) \(result.stderr)")
        let files = try #require(json["files"] as? [[String: Any]], "\(json)")
        var found: [String: [Finding]] = [:]
        for file in files {
            let path = try #require(file["path"] as? String)
            let messages = try #require(file["messages"] as? [[String: Any]], "\(file)")
            found[path] = try messages.map { message in
                Finding(id: try #require(message["id"] as? String), severity: try #require(message["severity"] as? String))
            }
        }
        return (result.status, found)
    }

    /// A ZIP with no entry at all: its end record alone, 22 bytes.
    static func emptyZIP(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("empty.imagegallery")
        try FileBytes.write([0x50, 0x4B, 0x05, 0x06] + Array(repeating: 0, count: 18), to: path)
        return path
    }

    /// The trailing-comma fixture with a JPEG for its `thumbnail.png`: a manifest that does not
    /// parse, and a thumbnail that would be IG-THM-002 if the check went on.
    static func syntaxErrorAndBadThumbnail(in directory: TemporaryDirectory) throws -> String {
        let source = try ZipArchive(path: TestPaths.fixture("invalid/IG-MAN-001-trailing-comma.imagegallery"))
        let path = directory.file("syntax-error-and-jpeg-thumbnail.imagegallery")
        let zip = ZipWriter(file: try GalleryFile.create(FilePath(path)), modified: Timestamp(seconds: 0))
        var replaced = false
        for entry in source.entries {
            var bytes = try source.readAll(entry, limit: 1 << 24)
            if entry.name == GalleryPackage.thumbnailEntry {
                bytes = try FileBytes.read(TestPaths.fixture("images/1-sunset.jpg"))
                replaced = true
            }
            try zip.add(name: entry.name, bytes: bytes, method: entry.method)
        }
        try zip.finish()
        #expect(replaced, "the fixture has no thumbnail.png")
        return path
    }

    static let syntaxErrors = [
        "IG-MAN-001-trailing-comma", "IG-MAN-001-trailing-garbage", "IG-MAN-001-truncated-json",
    ].map { TestPaths.fixture("invalid/\($0).imagegallery") }

    /// No manifest, and no `mimetype` or thumbnail either: the missing manifest, fatal, is the
    /// one finding (before, a missing `mimetype` came first and a missing thumbnail after).
    @Test(arguments: [false, true])
    func anEmptyZIPHasOneFindingTheMissingManifest(deep: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.emptyZIP(in: directory)
        let (status, files) = try Self.findings((deep ? ["--deep"] : []) + [path])
        #expect(status == 1)
        #expect(files[path] == [Finding(id: "IG-PKG-022", severity: "fatal")], "\(files)")
    }

    /// A manifest that does not parse: nothing about the blobs or the thumbnail follows.
    @Test(arguments: syntaxErrors, [false, true])
    func aManifestSyntaxErrorIsTheOnlyFinding(path: String, deep: Bool) throws {
        let (status, files) = try Self.findings((deep ? ["--deep"] : []) + [path])
        #expect(status == 1)
        #expect(files[path] == [Finding(id: "IG-MAN-001", severity: "fatal")], "\(files)")
    }

    /// The blobs and the thumbnail are not looked at after the manifest failed: the JPEG in
    /// `thumbnail.png` is not reported (before, IG-THM-002 followed the fatal finding).
    @Test(arguments: [false, true])
    func nothingAboutTheThumbnailFollowsAManifestSyntaxError(deep: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.syntaxErrorAndBadThumbnail(in: directory)
        let (status, files) = try Self.findings((deep ? ["--deep"] : []) + [path])
        #expect(status == 1)
        #expect(files[path] == [Finding(id: "IG-MAN-001", severity: "fatal")], "\(files)")
    }

    /// Several files in one run are read without threads inside each file: the same findings.
    @Test func theSameWhenFilesAreCheckedTogether() throws {
        let directory = try TemporaryDirectory()
        let empty = try Self.emptyZIP(in: directory)
        let thumbnail = try Self.syntaxErrorAndBadThumbnail(in: directory)
        let (status, files) = try Self.findings(["--jobs", "2", "--deep", empty, thumbnail] + Self.syntaxErrors)
        #expect(status == 1)
        #expect(files[empty] == [Finding(id: "IG-PKG-022", severity: "fatal")], "\(files)")
        for path in Self.syntaxErrors + [thumbnail] {
            #expect(files[path] == [Finding(id: "IG-MAN-001", severity: "fatal")], "\(path): \(files[path] ?? [])")
        }
    }

    /// Over every invalid fixture, with and without `--deep`: a fatal finding is the last of its
    /// file, and every file whose name is a fatal id reports that one finding alone.
    @Test(arguments: [false, true])
    func nothingFollowsAFatalFinding(deep: Bool) throws {
        let (status, files) = try Self.findings((deep ? ["--deep"] : []) + [TestPaths.fixture("invalid")])
        #expect(status == 1)
        #expect(files.count > 100, "\(files.count) files checked")
        let fatalIDs = Set(DiagnosticCode.catalogue.filter { $0.severity == .fatal }.map(\.id))
        var fatalFixtures = 0
        for (path, found) in files.sorted(by: { $0.key < $1.key }) {
            if let first = found.firstIndex(where: { $0.severity == "fatal" }) {
                #expect(first == found.count - 1, "\(path): findings after the fatal one: \(found)")
            }
            let named = String(URL(fileURLWithPath: path).lastPathComponent.prefix(10))
            if fatalIDs.contains(named) {
                fatalFixtures += 1
                #expect(found == [Finding(id: named, severity: "fatal")], "\(path): \(found)")
            }
        }
        #expect(fatalFixtures >= 20, "only \(fatalFixtures) fixtures named by a fatal id")
    }

    /// A `thumbnail.png` the central directory condemns (a ratio past 100:1) is reported there,
    /// once: it is present, so not also missing (IG-THM-001), as a condemned blob is not.
    @Test(arguments: [false, true])
    func aCondemnedThumbnailIsNotAlsoMissing(deep: Bool) throws {
        let path = TestPaths.fixture("invalid/IG-PKG-027-thumbnail-ratio-bomb.imagegallery")
        let (status, files) = try Self.findings((deep ? ["--deep"] : []) + [path])
        #expect(status == 1)
        #expect(files[path] == [Finding(id: "IG-PKG-027", severity: "error")], "\(files)")
    }
}
