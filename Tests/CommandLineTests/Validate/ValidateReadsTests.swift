import Foundation
import GalleryTestSupport
import Testing

/// How `validate` reads a gallery of photos: each photo once, and its header and colour
/// description from the bytes it hashed, not by walking its segments in the file again.
@Suite("imagegallery validate: reads")
struct ValidateReadsTests {
    /// strace's count of the reads of `gallery` alone (`-P`), by `validate` of it.
    func reads(of gallery: String, in directory: TemporaryDirectory) throws -> Int {
        let strace = try #require(Subprocess.which("strace"), "strace is not installed: run scripts/install-deps test")
        let log = directory.file("reads.log")
        let result = try Subprocess.run(strace, ["-f", "-qq", "-e", "trace=pread64", "-P", gallery, "-o", log,
                                                 try TestPaths.binary(), "validate", gallery])
        #expect(result.status == 0, "\(result.stderr)")
        return try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count
    }

    /// The fixtures' ten photos and the thumbnail: a read of each local header, one of each
    /// entry's data, a few for the central directory and the manifest. Walking each JPEG's
    /// segments in the file took about 40 reads a photo (425 for these).
    @Test func eachPhotoIsReadOnce() throws {
        let directory = try TemporaryDirectory()
        let gallery = directory.file("photos.imagegallery")
        let images = try FileManager.default.contentsOfDirectory(atPath: TestPaths.fixture("images"))
            .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.sorted().map { TestPaths.fixture("images/" + $0) }
        #expect(images.count == 10)
        let created = try Subprocess.run(try TestPaths.binary(), ["create", gallery, "--title", "Reads"] + images)
        try #require(created.status == 0, "\(created.stderr)")
        let entries = images.count + 1
        let count = try reads(of: gallery, in: directory)
        #expect(count <= 4 * entries + 16, "validate read the gallery \(count) times for \(entries) entries")
    }
}
