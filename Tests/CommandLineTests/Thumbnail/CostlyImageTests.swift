import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// Images whose decode costs seconds of CPU for their size (issue 28): GIFs with real LZW data
/// for every pixel of a 4.3-gigapixel frame on a 64 × 64 screen, and of 1.05 and 0.99
/// gigapixels. No input may cost a thumbnail path (the embedded thumbnail of `create`,
/// `thumbnail`, the confined thumbnailer) more than 2 s of CPU here: each run gets RLIMIT_CPU
/// 2 s (SIGXCPU would end it), never a wall-clock bound. Before the whole frame's work was
/// admitted, the tall frame cost `create` 64 s and the others 15 s each. The files (3 MB and
/// 0.7 MB) are written by `scripts/make-hostile-images.py --large` for the run, not committed.
@Suite("Costly images: the thumbnail paths' CPU bound")
struct CostlyImageTests {
    static let names = ["gif-large-tall-frame.gif", "gif-large-32400.gif", "gif-large-31464.gif"]

    /// Runs `arguments` under RLIMIT_CPU 2 s and RLIMIT_AS 256 MiB.
    static func bounded(_ arguments: [String]) throws -> ProcessResult {
        try Subprocess.run("/usr/bin/prlimit", ["--cpu=2:3", "--as=\(256 << 20)"] + arguments)
    }

    @Test("create, thumbnail -s 512 and the thumbnailer end within 2 s of CPU", arguments: names)
    func thumbnailPaths(name: String) throws {
        let binary = try TestPaths.staticBinary()
        let thumbnailer = try TestPaths.thumbnailer()
        let directory = try TemporaryDirectory()
        let written = try Subprocess.run("/usr/bin/python3", [TestPaths.repository + "/scripts/make-hostile-images.py",
                                                              directory.path, "--large"])
        try #require(written.status == 0, "\(written.stderr)")
        let image = directory.file(name)

        // The embedded thumbnail is refused by the codec's cost, so a grey one is stored.
        let gallery = directory.file("costly.imagegallery")
        let created = try Self.bounded([binary, "create", gallery, image])
        #expect(created.status == 0, "create: exit \(created.status): \(created.stderr)")
        #expect(created.stderr.contains("a grey one is stored"), "create: \(created.stderr)")
        #expect(created.stderr.contains("pixels"), "create does not say why: \(created.stderr)")

        // Asked for more than the grey 256 px one, both thumbnailers decode the image: refused
        // at once, they serve the embedded one (freedesktop allows a smaller thumbnail).
        for (label, program) in [("thumbnail", [binary, "thumbnail"]), ("thumbnailer", [thumbnailer])] {
            let output = directory.file("\(label).png")
            let result = try Self.bounded(program + ["-s", "512", gallery, output])
            #expect([0, 65].contains(result.status), "\(label): exit \(result.status) (SIGXCPU is 24): \(result.stderr)")
        }
    }

    @Test("validate --deep refuses the frames past the 1-gigapixel work limit at once")
    func deepCheck() throws {
        let binary = try TestPaths.staticBinary()
        let directory = try TemporaryDirectory()
        let written = try Subprocess.run("/usr/bin/python3", [TestPaths.repository + "/scripts/make-hostile-images.py",
                                                              directory.path, "--large"])
        try #require(written.status == 0, "\(written.stderr)")
        for name in ["gif-large-tall-frame.gif", "gif-large-32400.gif"] {
            let gallery = directory.file(name + ".imagegallery")
            let created = try Self.bounded([binary, "create", gallery, directory.file(name)])
            try #require(created.status == 0, "\(name): \(created.stderr)")
            let result = try Self.bounded([binary, "validate", "--deep", "--format", "json", gallery])
            #expect([0, 1].contains(result.status), "\(name): exit \(result.status): \(result.stderr)")
            #expect(result.stdout.contains("IG-BLB-009"), "\(name): \(result.stdout)")
        }
    }
}
