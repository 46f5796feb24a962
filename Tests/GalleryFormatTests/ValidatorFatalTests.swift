import Foundation
import GalleryFormat
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// The validator stops checking a file at its first fatal finding (format section 11), whether
/// it reads a file's entries on all cores or one after another.
@Suite("Validator: a fatal finding ends the check")
struct ValidatorFatalTests {
    static func report(_ path: String, inParallel: Bool) -> [String] {
        var options = ValidationOptions()
        options.readsEntriesInParallel = inParallel
        return GalleryValidator.validate(path: path, options: options).diagnostics.map { "\($0.severity.rawValue) \($0.code.id)" }
    }

    @Test(arguments: [false, true])
    func anEmptyZIPGivesOnlyTheMissingManifest(inParallel: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("empty.imagegallery")
        try FileBytes.write([0x50, 0x4B, 0x05, 0x06] + Array(repeating: 0, count: 18), to: path)
        #expect(Self.report(path, inParallel: inParallel) == ["fatal IG-PKG-022"])
    }

    @Test(arguments: ["IG-MAN-001-trailing-comma", "IG-MAN-001-truncated-json", "IG-MAN-002-invalid-utf8",
                      "IG-MAN-003-duplicate-key", "IG-MAN-009-format-other", "IG-MAN-010-format-version-3"],
          [false, true])
    func aFatalManifestFindingIsTheOnlyOne(fixture: String, inParallel: Bool) {
        let path = TestPaths.fixture("invalid/\(fixture).imagegallery")
        #expect(Self.report(path, inParallel: inParallel) == ["fatal \(fixture.prefix(10))"])
    }

    /// A manifest that does not parse, and a JPEG in `thumbnail.png`: the thumbnail is not
    /// checked (before, IG-THM-002 followed the fatal finding).
    @Test(arguments: [false, true])
    func theThumbnailIsNotCheckedAfterAManifestSyntaxError(inParallel: Bool) throws {
        let source = try ZipArchive(path: TestPaths.fixture("invalid/IG-MAN-001-trailing-comma.imagegallery"))
        let directory = try TemporaryDirectory()
        let path = directory.file("g.imagegallery")
        let zip = ZipWriter(file: try GalleryFile.create(FilePath(path)), modified: Timestamp(seconds: 0))
        for entry in source.entries {
            let bytes = entry.name == GalleryPackage.thumbnailEntry
                ? try FileBytes.read(TestPaths.fixture("images/1-sunset.jpg")) : try source.readAll(entry, limit: 1 << 24)
            try zip.add(name: entry.name, bytes: bytes, method: entry.method)
        }
        try zip.finish()
        #expect(Self.report(path, inParallel: inParallel) == ["fatal IG-MAN-001"])
    }

    @Test(arguments: [false, true])
    func aCondemnedThumbnailIsNotAlsoMissing(inParallel: Bool) {
        let path = TestPaths.fixture("invalid/IG-PKG-027-thumbnail-ratio-bomb.imagegallery")
        #expect(Self.report(path, inParallel: inParallel) == ["error IG-PKG-027"])
    }
}
