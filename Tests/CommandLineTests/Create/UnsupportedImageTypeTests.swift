import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// An image of a type no version of the format takes (generic HEIF, TIFF, BMP, JPEG XL) is
/// refused by every path with one message that names the type: `create`, `add`, archive
/// conversion and fetching, all through the built binary.
@Suite("Images of other types: refused once, by name")
struct UnsupportedImageTypeTests {
    typealias Sample = UnsupportedImageSamples.Sample

    static let phrase = "this gallery format takes JPEG, PNG, WebP, GIF, AVIF and HEIC"

    /// How often `text` occurs in `string`.
    static func occurrences(of text: String, in string: String) -> Int {
        string.components(separatedBy: text).count - 1
    }

    /// The refusal is said once, names the type, and the old doubled wording is gone.
    static func expectSaidOnce(_ stderr: String, line: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains(line), "no line \"\(line)\" in: \(stderr)", sourceLocation: sourceLocation)
        #expect(occurrences(of: phrase, in: stderr) == 1, "\(stderr)", sourceLocation: sourceLocation)
        #expect(!stderr.contains("not a JPEG, PNG, WebP, GIF, AVIF or HEIC image"), "\(stderr)", sourceLocation: sourceLocation)
    }

    static func write(_ sample: Sample, in directory: TemporaryDirectory) throws -> String {
        let path = directory.file(sample.fileName)
        try FileBytes.write(sample.bytes, to: path)
        return path
    }

    @Test(arguments: UnsupportedImageSamples.all)
    func createRefusesItByName(_ sample: Sample) throws {
        let directory = try TemporaryDirectory()
        let image = try Self.write(sample, in: directory)
        let output = directory.file("g.imagegallery")
        let result = try Subprocess.imagegallery(["create", output, image])
        #expect(result.status == 65, "\(result.stderr)")
        Self.expectSaidOnce(result.stderr, line: "imagegallery: \(image): \(sample.refusal)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test(arguments: UnsupportedImageSamples.all)
    func addRefusesItByNameAndLeavesTheGallery(_ sample: Sample) throws {
        let directory = try TemporaryDirectory()
        let gallery = directory.file("g.imagegallery")
        #expect(try Subprocess.imagegallery(["create", gallery, TestPaths.fixture("images/1-sunset.jpg")]).status == 0)
        let before = try FileBytes.read(gallery)
        let image = try Self.write(sample, in: directory)
        let result = try Subprocess.imagegallery(["add", gallery, image])
        #expect(result.status == 65, "\(result.stderr)")
        Self.expectSaidOnce(result.stderr, line: "imagegallery: \(image): \(sample.refusal)")
        #expect(try FileBytes.read(gallery) == before)
    }

    /// A folder given to `add`: each such file is skipped with a warning that names its type,
    /// and the JPEG beside them is added.
    @Test func addSkipsThemInAFolderByName() throws {
        let directory = try TemporaryDirectory()
        let gallery = directory.file("g.imagegallery")
        #expect(try Subprocess.imagegallery(["create", gallery, TestPaths.fixture("images/2-tiles.png")]).status == 0)
        let folder = directory.file("more")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for sample in UnsupportedImageSamples.all {
            try FileBytes.write(sample.bytes, to: folder + "/" + sample.fileName)
        }
        try FileManager.default.copyItem(atPath: TestPaths.fixture("images/1-sunset.jpg"), toPath: folder + "/sunset.jpg")
        let result = try Subprocess.imagegallery(["add", gallery, folder])
        #expect(result.status == 0, "\(result.stderr)")
        for sample in UnsupportedImageSamples.all {
            let line = "imagegallery: warning: \(folder)/\(sample.fileName): skipped: \(sample.refusal)"
            #expect(result.stderr.split(separator: "\n").contains { $0 == line }, "no \"\(line)\" in: \(result.stderr)")
        }
        #expect(Self.occurrences(of: Self.phrase, in: result.stderr) == UnsupportedImageSamples.all.count, "\(result.stderr)")
        #expect(try GalleryReader(path: gallery).gallery.images.map(\.filename) == ["2-tiles.png", "sunset.jpg"])
    }

    /// A tar and a zip holding such files beside a JPEG: each is skipped with a warning that
    /// names its type; the JPEG makes the gallery.
    @Test(arguments: ["tar", "zip"])
    func conversionSkipsThemByName(format: String) async throws {
        let workspace = try ConvertWorkspace()
        var members: [(String, String, String)] = []
        for sample in UnsupportedImageSamples.all {
            let payload = workspace.file("payload-" + sample.fileName)
            try FileBytes.write(sample.bytes, to: payload)
            members.append(("photos/" + sample.fileName, "file", payload))
        }
        members.append(("photos/sunset.jpg", "file", TestPaths.fixture("images/1-sunset.jpg")))
        let archive = workspace.file("photos.\(format)")
        // "" is Python tarfile's plain (uncompressed) tar.
        try await ConvertHostileArchiveTests.make(archive, format: format == "zip" ? "zip" : "", members: members)
        let gallery = workspace.file("out.imagegallery")
        let result = try await workspace.run(["convert", archive, gallery])
        #expect(result.status == 0, "\(result.stderr)")
        for sample in UnsupportedImageSamples.all {
            let line = "imagegallery: warning: \(archive): photos/\(sample.fileName): skipped: \(sample.refusal)"
            #expect(result.stderr.split(separator: "\n").contains { $0 == line }, "no \"\(line)\" in: \(result.stderr)")
        }
        #expect(Self.occurrences(of: Self.phrase, in: result.stderr) == UnsupportedImageSamples.all.count, "\(result.stderr)")
        #expect(!result.stderr.contains("not a JPEG, PNG, WebP, GIF, AVIF or HEIC image"), "\(result.stderr)")
        #expect(try GalleryReader(path: gallery).gallery.images.count == 1)
    }

    /// Served as image/jpeg from a loopback server: refused as a type mismatch that names what
    /// the bytes are, once; the good URL beside them is added.
    @Test func fetchingNamesTheTypeTheBytesShow() async throws {
        let workspace = try FetchWorkspace()
        let urls = UnsupportedImageSamples.all.map { sample in
            workspace.url("/bytes/image_jpeg/" + sample.bytes.map { String(format: "%02x", $0) }.joined())
        }
        let good = workspace.url("/images/4-dunes.jpg")
        let gallery = workspace.file("g.imagegallery")
        let result = try await workspace.run(["create", gallery] + urls + [good, "--json"])
        #expect(result.status == 4, "\(result.stderr)")
        for (sample, url) in zip(UnsupportedImageSamples.all, urls) {
            #expect(failureReason(result, for: url) == "served as image/jpeg but the bytes are \(sample.refusal)",
                    "\(sample.fileName): \(result.stderr)")
        }
        let items = reportItems(result)
        #expect(items.prefix(urls.count).allSatisfy { $0["errorCode"] as? String == "type-mismatch" }, "\(items)")
        #expect(Self.occurrences(of: Self.phrase, in: result.stderr) == urls.count, "\(result.stderr)")
        #expect(try workspace.images(gallery).map(\.filename) == ["4-dunes.jpg"])
    }
}
