import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// Issue 28, item 2: `create`, `add` and `convert` wrote galleries that `validate --deep`
/// refuses. What the header readers find without decoding (an AVIF or HEIC whose items do not
/// hold together, IG-BLB-017; a PNG without IDAT, IG-BLB-018) is now refused when the image is
/// taken; corrupt pixels in a sound file stay `--deep`'s, said in a notice when the first image
/// gets the placeholder thumbnail, and refused up front with `--check-pixels`.
@Suite("Images refused by their structure, and --check-pixels")
struct StructureRefusalCommandTests {
    /// make-hostile-images.py's files, written afresh into a scratch folder.
    static func hostileImages() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let ran = try Subprocess.run("/usr/bin/python3", [TestPaths.repository + "/scripts/make-hostile-images.py", folder.path])
        guard ran.status == 0 else { throw MissingTestInput(description: "make-hostile-images.py exited \(ran.status): \(ran.stderr)") }
        return folder
    }

    /// A 16 × 12 PNG with its IHDR and IEND but no IDAT chunk.
    static func pngWithoutImageData() -> [UInt8] {
        PNGBytes.signature + PNGBytes.chunk("IHDR", [0, 0, 0, 16, 0, 0, 0, 12, 8, 2, 0, 0, 0]) + PNGBytes.chunk("IEND", [])
    }

    /// The sunset JPEG cut to an eighth: its header is sound, its scan data ends early.
    static func cutJPEG(in folder: TemporaryDirectory) throws -> String {
        let bytes = try FileBytes.read(TestPaths.fixture("images/1-sunset.jpg"))
        let path = folder.file("cut.jpg")
        try FileBytes.write(Array(bytes.prefix(bytes.count / 8)), to: path)
        return path
    }

    static let brokenItems = ["heic-iloc-4GiB.heic", "avif-iloc-4GiB.avif", "heic-iloc-past-eof.heic", "heic-ipma-past-ipco.heic",
                              "avif-ipma-past-ipco.avif", "heic-grid-missing-tile.heic", "avif-grid-missing-tile.avif",
                              "avif-irot-empty.avif"]

    @Test func createRefusesAnImageWhoseItemsDoNotHoldTogether() throws {
        let images = try Self.hostileImages()
        let folder = try TemporaryDirectory()
        for name in Self.brokenItems {
            let output = folder.file("\(name).imagegallery")
            let run = try Subprocess.imagegallery(["create", output, images.file(name)])
            #expect(run.status == 65, "\(name): exit \(run.status), \(run.stderr)")
            #expect(run.stderr.contains(name) && run.stderr.contains("IG-BLB-017"), "\(name): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(name): a gallery was written")
        }
    }

    @Test func createRefusesAPNGWithoutImageData() throws {
        let folder = try TemporaryDirectory()
        let png = folder.file("empty.png")
        try FileBytes.write(Self.pngWithoutImageData(), to: png)
        let run = try Subprocess.imagegallery(["create", folder.file("g.imagegallery"), png])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("empty.png: IG-BLB-018: "), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("g.imagegallery")))
    }

    @Test func addAndConvertRefuseThemToo() throws {
        let images = try Self.hostileImages()
        let folder = try TemporaryDirectory()
        let gallery = folder.file("g.imagegallery")
        #expect(try Subprocess.imagegallery(["create", gallery, TestPaths.fixture("images/1-sunset.jpg")]).status == 0)
        let before = try FileBytes.read(gallery)
        let png = folder.file("empty.png")
        try FileBytes.write(Self.pngWithoutImageData(), to: png)
        for (path, id) in [(images.file("heic-iloc-4GiB.heic"), "IG-BLB-017"), (images.file("avif-grid-missing-tile.avif"), "IG-BLB-017"),
                           (png, "IG-BLB-018")] {
            let run = try Subprocess.imagegallery(["add", gallery, path])
            #expect(run.status == 65 && run.stderr.contains(id), "add \(path): exit \(run.status), \(run.stderr)")
            #expect(try FileBytes.read(gallery) == before, "add \(path) changed the gallery")
        }
        // convert of a folder of images takes them as create does.
        let input = folder.file("input")
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: images.file("heic-grid-missing-tile.heic"), toPath: input + "/grid.heic")
        let run = try Subprocess.imagegallery(["convert", input, folder.file("c.imagegallery")])
        #expect(run.status == 65 && run.stderr.contains("IG-BLB-017"), "convert: exit \(run.status), \(run.stderr)")
    }

    /// The gallery of Fixtures/hostile holding a HEIC whose iloc extent is 4 GiB: libheif's
    /// "security limit" made it a warning under --deep (IG-BLB-009); the box reader refuses
    /// it, with and without --deep, as its AVIF twin.
    @Test(arguments: ["i-heic-iloc-4GiB-heic", "i-avif-iloc-4GiB-avif"])
    func validateRefusesAnILOCOf4GiB(_ name: String) throws {
        let path = TestPaths.fixture("hostile/\(name).imagegallery")
        for deep in [false, true] {
            let run = try Subprocess.imagegallery(["validate", "--format", "json", path] + (deep ? ["--deep"] : []))
            #expect(run.status == 1, "\(name) deep \(deep): exit \(run.status), \(run.stdout)")
            #expect(run.stdout.contains("\"IG-BLB-017\"") && !run.stdout.contains("IG-BLB-009"), "\(name) deep \(deep): \(run.stdout)")
        }
    }

    @Test func addSaysSoWhenTheFirstImageGetsThePlaceholderThumbnail() throws {
        let folder = try TemporaryDirectory()
        let cut = try Self.cutJPEG(in: folder)
        let gallery = folder.file("g.imagegallery")
        #expect(try Subprocess.imagegallery(["create", gallery, TestPaths.fixture("images/2-tiles.png")]).status == 0)
        let added = try Subprocess.imagegallery(["add", gallery, cut, "--at", "1"])
        #expect(added.status == 0, "\(added.stderr)")
        let notices = added.stderr.split(separator: "\n").filter { $0.contains("no thumbnail from this image") }
        #expect(notices.count == 1 && notices[0].contains(cut), "\(added.stderr)")
        // An image added after the first one leaves the thumbnail alone, and says nothing.
        let later = try Subprocess.imagegallery(["add", gallery, cut])
        #expect(later.status == 0 && !later.stderr.contains("no thumbnail"), "\(later.stderr)")
        // create says it too.
        let created = try Subprocess.imagegallery(["create", folder.file("c.imagegallery"), cut])
        #expect(created.status == 0 && created.stderr.contains("\(cut): no thumbnail from this image ("), "\(created.stderr)")
    }

    @Test func checkPixelsRefusesAnImageWhosePixelsDoNotDecode() throws {
        let folder = try TemporaryDirectory()
        let cut = try Self.cutJPEG(in: folder)
        let good = TestPaths.fixture("images/1-sunset.jpg")
        // create
        let output = folder.file("g.imagegallery")
        let refused = try Subprocess.imagegallery(["create", "--check-pixels", output, good, cut])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("\(cut): IG-BLB-008: its pixels do not decode"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let checked = try Subprocess.imagegallery(["create", "--check-pixels", output, good, TestPaths.fixture("format-2.0/sunset.heic"),
                                                   TestPaths.fixture("format-2.0/anim.gif")])
        #expect(checked.status == 0, "\(checked.stderr)")
        // add
        let before = try FileBytes.read(output)
        let added = try Subprocess.imagegallery(["add", "--check-pixels", output, cut])
        #expect(added.status == 65 && added.stderr.contains("IG-BLB-008"), "\(added.stderr)")
        #expect(try FileBytes.read(output) == before)
        // convert of a folder
        let input = folder.file("input")
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: cut, toPath: input + "/cut.jpg")
        let converted = try Subprocess.imagegallery(["convert", "--check-pixels", input, folder.file("c.imagegallery")])
        #expect(converted.status == 65 && converted.stderr.contains("IG-BLB-008"), "\(converted.stderr)")
        // Without the option the image is taken: its header is sound.
        #expect(try Subprocess.imagegallery(["convert", input, folder.file("c.imagegallery")]).status == 0)
    }
}
