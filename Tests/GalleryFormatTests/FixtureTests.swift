import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// Opens a gallery and reads every byte of it: all entries, then every image with its hash.
/// Returns the first problem's code, or nil when the whole file is sound.
func firstProblem(in path: String) -> (code: String?, error: String?) {
    do {
        let reader = try GalleryReader(path: path)
        _ = try reader.archive.scanLayout()
        for entry in reader.archive.entries where !entry.isDirectory {
            try reader.archive.read(entry) { _ in }
        }
        for image in reader.gallery.images {
            try reader.readBlob(image) { _ in }
        }
        return (nil, nil)
    } catch let error as GalleryError {
        return (error.code.id, error.description)
    } catch {
        return ("unexpected", "\(error)")
    }
}

/// The diagnostic id an invalid fixture is named after.
func expectedID(_ path: String) -> String {
    String(URL(fileURLWithPath: path).lastPathComponent.prefix(10))
}

@Suite("Fixtures")
struct FixtureTests {
    // Each throws when its folder is missing or holds no gallery, which fails the tests over it.
    static func invalid() throws -> [String] { try TestPaths.fixtures(in: "invalid", withExtension: "imagegallery") }
    static func tolerant() throws -> [String] { try TestPaths.fixtures(in: "tolerant", withExtension: "imagegallery") }
    static func valid() throws -> [String] { try TestPaths.fixtures(in: "valid", withExtension: "imagegallery") }
    static func warnings() throws -> [String] { try TestPaths.fixtures(in: "invalid/warnings", withExtension: "imagegallery") }

    @Test func fixturesArePresent() throws {
        #expect(try Self.invalid().count > 50)
        #expect(try Self.tolerant().count >= 8)
        #expect(try Self.valid().count >= 4)
    }

    @Test(arguments: try invalid())
    func invalidGalleryGivesItsTypedError(path: String) {
        let (code, message) = firstProblem(in: path)
        #expect(code == expectedID(path), "\(message ?? "no error")")
        // Every message names its place.
        if let message { #expect(message.contains(path)) }
    }

    @Test(arguments: try tolerant())
    func tolerantGalleryReads(path: String) {
        let (code, message) = firstProblem(in: path)
        #expect(code == nil, "\(message ?? "")")
    }

    @Test(arguments: try valid())
    func validGalleryReadsAndMatchesItsManifest(path: String) throws {
        let (code, message) = firstProblem(in: path)
        #expect(code == nil, "\(message ?? "")")
        let reader = try GalleryReader(path: path)
        let sidecar = try FileBytes.read(path.replacingOccurrences(of: ".imagegallery", with: ".manifest.json"))
        let entry = try #require(reader.archive.entry(named: "manifest.json"))
        #expect(try reader.archive.readAll(entry, limit: 1 << 24) == sidecar)
        // Our encoder writes the same canonical bytes for what it decoded.
        #expect(Manifest.encode(reader.gallery) == sidecar)
    }

    @Test(arguments: try warnings())
    func hiddenDataIsAWarning(path: String) throws {
        let reader = try GalleryReader(path: path)
        let found = try reader.archive.scanLayout()
        #expect(found.contains { $0.code.id == expectedID(path) }, "\(found)")
    }
}
