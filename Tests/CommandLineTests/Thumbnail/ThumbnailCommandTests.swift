import Foundation
import GalleryFormat
import GalleryImageHeaders
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// `imagegallery thumbnail` as file managers run it: on hostile galleries it fails cleanly,
/// within its memory cap, and it writes its output in place.
@Suite("imagegallery thumbnail")
struct ThumbnailCommandTests {
    /// Images whose header `create` accepts but whose pixels must not be trusted.
    static func hostileImages() throws -> [(String, [UInt8])] {
        let sunset = try FileBytes.read(TestPaths.fixture("images/1-sunset.jpg"))
        var huge = sunset
        let sof = huge.indices.first { huge[$0] == 0xFF && huge[$0 + 1] == 0xC0 }!
        huge.replaceSubrange(sof + 5 ..< sof + 9, with: [0xFF, 0xDC, 0xFF, 0xDC])
        let idat = [UInt8](repeating: 0, count: 16)  // not even a zlib stream
        return [
            ("one-bit-50000-squared.png", PNGBytes.file(width: 50000, height: 50000, bitDepth: 1, colourType: 0,
                                                        chunks: [PNGBytes.chunk("IDAT", idat)])),
            ("jpeg-65500-squared.jpg", Array(huge.prefix(20000))),
            ("jpeg-truncated.jpg", Array(sunset.prefix(sunset.count / 2))),
            ("png-truncated.png", Array(try FileBytes.read(TestPaths.fixture("images/6-bubbles.png")).prefix(9000))),
        ]
    }

    /// The first image is tried, fails within the cap, and the sound embedded thumbnail is
    /// served though smaller than asked (the freedesktop spec allows it).
    @Test(arguments: try hostileImages().map(\.0))
    func hostileFirstImagesFallBackCleanlyWithinTheCap(name: String) throws {
        let directory = try TemporaryDirectory()
        let image = directory.file(name)
        try FileBytes.write(try Self.hostileImages().first { $0.0 == name }!.1, to: image)
        let gallery = directory.file("g.imagegallery")
        // create takes the image by its header; its own thumbnail falls back to the placeholder.
        let created = try Subprocess.imagegallery(["create", gallery, image])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stderr.contains("no thumbnail from this image"), "\(created.stderr)")
        // 512 px is more than the embedded placeholder's 256, so the first image itself is tried.
        let (result, mebibytes) = try Subprocess.imagegalleryPeakMemory(["thumbnail", "-s", "512", gallery,
                                                                          directory.file("out.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let embedded = try ImageHeader.parse(try GalleryReader(path: gallery).thumbnail())
        if result.status == 0 {
            let served = try ImageHeader.parse(try FileBytes.read(directory.file("out.png")))
            #expect(served.width == embedded.width && served.height == embedded.height)
        }
        #expect(mebibytes < 256, "peak \(mebibytes) MiB")
    }

    /// A tEXt chunk that declares two gigabytes and holds a few bytes hides the image data past
    /// the end of the file: the header reader finds that without decoding, so `create` refuses
    /// the image (IG-BLB-018) and writes nothing, where it once stored it for a thumbnailer to meet.
    @Test func aChunkPastTheEndOfTheFileIsRefusedAtCreate() throws {
        let directory = try TemporaryDirectory()
        let image = directory.file("text-bomb.png")
        try FileBytes.write(PNGBytes.file(width: 2000, height: 2000, bitDepth: 8, colourType: 0, chunks: [
            PNGBytes.rawChunk(type: "tEXt", declaredLength: 0x7FFF_FFF0, data: Array("Comment\u{0}x".utf8)),
            PNGBytes.chunk("IDAT", [UInt8](repeating: 0, count: 16)),
        ]), to: image)
        let gallery = directory.file("g.imagegallery")
        let created = try Subprocess.imagegallery(["create", gallery, image])
        #expect(created.status == 65, "\(created.stderr)")
        #expect(created.stderr.contains("IG-BLB-018") && created.stderr.contains("text-bomb.png"), "\(created.stderr)")
        #expect(!FileManager.default.fileExists(atPath: gallery))
    }

    @Test func notAGalleryFailsCleanly() throws {
        let directory = try TemporaryDirectory()
        let noise = directory.file("noise.imagegallery")
        var generator = SystemRandomNumberGenerator()
        try FileBytes.write((0 ..< 4096).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }, to: noise)
        let result = try Subprocess.imagegallery(["thumbnail", noise, directory.file("out.png")])
        #expect(result.status == 65)
        #expect(result.stderr.contains("IG-PKG-"), "\(result.stderr)")
    }

    /// tumbler creates the output and reads it back through the descriptor it holds: a rename
    /// would leave that descriptor on an empty file.
    @Test func writesTheOutputInPlace() throws {
        let directory = try TemporaryDirectory()
        let gallery = directory.file("g.imagegallery")
        #expect(try Subprocess.imagegallery(["create", gallery, TestPaths.fixture("images")]).status == 0)
        let output = directory.file("out.png")
        // -s 512 goes past the embedded 256 px to the 800 × 600 photo: 512 × 384.
        _ = FileManager.default.createFile(atPath: output, contents: Data())
        let held = try #require(FileHandle(forReadingAtPath: output))
        let result = try Subprocess.imagegallery(["thumbnail", "-s", "512", gallery, output])
        #expect(result.status == 0, "\(result.stderr)")
        let seen = held.readDataToEndOfFile()
        #expect(Array(seen.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Array(seen[16 ..< 24]) == [0, 0, 2, 0, 0, 0, 1, 128])
    }

    /// The embedded 256 px thumbnail serves every size up to it: the photo is not read.
    @Test func embeddedThumbnailIsUsedWhenLargeEnough() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("photo.jpg")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("images/1-sunset.jpg"), toPath: source)
        let gallery = directory.file("g.imagegallery")
        #expect(try Subprocess.imagegallery(["create", gallery, source]).status == 0)
        // Damage the photo's bytes inside the gallery (its CRC then fails): only a reader that
        // goes to the photo notices.
        var bytes = try FileBytes.read(gallery)
        let archive = try ZipArchive(file: GalleryFile.openForReading(FilePath(gallery)))
        let blob = try #require(archive.entries.first { $0.name.hasPrefix("images/") })
        let offset = Int(try archive.dataOffset(of: blob))
        bytes[offset + 5000] ^= 0xFF
        try FileBytes.write(bytes, to: gallery)
        let result = try Subprocess.imagegallery(["thumbnail", "-s", "256", gallery, directory.file("out.png")])
        #expect(result.status == 0, "\(result.stderr)")
    }
}

/// A thumbnailer sandbox, or `ulimit -v`, caps the address space: past what the cap leaves, a
/// request is refused with exit 65 and a message, where an allocation would otherwise fail and
/// take the process down. Runs the release build, whose address space is what users get
/// (IMAGEGALLERY_STATIC_BINARY, which `make test` sets; without it the test fails).
@Suite("imagegallery thumbnail under an address-space cap")
struct ThumbnailAddressSpaceTests {
    @Test func aLargeRequestUnderTheCapIsServedOrRefusedNeverACrash() throws {
        let binary = try TestPaths.staticBinary()
        let directory = try TemporaryDirectory()
        let jpeg = directory.file("wide.jpg")
        let made = try Subprocess.run("/usr/bin/python3", ["-c", """
            from PIL import Image
            Image.linear_gradient("L").resize((9000, 7000)).convert("RGB").save("\(jpeg)", quality=80)
            """])
        #expect(made.status == 0, "\(made.stderr)")
        let gallery = directory.file("wide.imagegallery")
        #expect(try Subprocess.run(binary, ["create", gallery, jpeg]).status == 0)
        var refused = 0
        for size in [256, 1024, 2048, 4096] {
            let output = directory.file("thumbnail-\(size).png")
            let result = try Subprocess.run("/usr/bin/prlimit", ["--as=\(256 << 20)", binary, "thumbnail", "-s", "\(size)", gallery, output])
            #expect([0, 65].contains(result.status), "-s \(size): exit \(result.status): \(result.stderr)")
            if result.status == 0 {
                // The size asked, or the embedded thumbnail when the decode is past the cap.
                let header = try ImageHeader.parse(try FileBytes.read(output))
                let embedded = try ImageHeader.parse(try GalleryReader(path: gallery).thumbnail())
                #expect(max(header.width, header.height) == size || header == embedded, "-s \(size)")
                if header != embedded || size == max(embedded.width, embedded.height) { continue }
                refused += 1
            } else {
                refused += 1
                #expect(result.stderr.contains(gallery) && result.stderr.contains("memory limit"), "\(result.stderr)")
            }
        }
        // 256 px comes from DCT scaling at a sixty-fourth of the pixels: never refused.
        #expect(refused < 4)
        // Without the cap the same request is served.
        #expect(try Subprocess.run(binary, ["thumbnail", "-s", "4096", gallery, directory.file("uncapped.png")]).status == 0)
    }
}

/// The desktop's line (`thumbnail -s SIZE IN OUT`) skips the argument parser; the same request
/// through the parser (`--` before the paths) must give the same bytes, the same messages and
/// the same exit codes.
@Suite("imagegallery thumbnail: the desktop's line and the parsed line agree")
struct DesktopThumbnailLineCommandTests {
    @Test(arguments: ["valid/three.imagegallery", "valid/empty.imagegallery", "valid/all.imagegallery"])
    func sameThumbnail(_ fixture: String) throws {
        let directory = try TemporaryDirectory()
        let gallery = TestPaths.fixture(fixture)
        for size in ["64", "256", "700"] {
            let direct = try Subprocess.imagegallery(["thumbnail", "-s", size, gallery, directory.file("direct.png")])
            let parsed = try Subprocess.imagegallery(["thumbnail", "-s", size, "--", gallery, directory.file("parsed.png")])
            #expect(direct.status == 0, "\(direct.stderr)")
            #expect(parsed.status == 0, "\(parsed.stderr)")
            let bytes = try FileBytes.read(directory.file("direct.png"))
            #expect(!bytes.isEmpty)
            #expect(bytes == (try FileBytes.read(directory.file("parsed.png"))), "\(fixture) at \(size)")
        }
    }

    @Test func sameFailures() throws {
        let directory = try TemporaryDirectory()
        let broken = directory.file("broken.imagegallery")
        try FileBytes.write(Array("PK\u{3}\u{4} not a gallery".utf8), to: broken)
        for input in [broken, directory.file("missing.imagegallery"), directory.path] {
            let direct = try Subprocess.imagegallery(["thumbnail", "-s", "128", input, directory.file("out.png")])
            let parsed = try Subprocess.imagegallery(["thumbnail", "-s", "128", "--", input, directory.file("out.png")])
            #expect(direct.status != 0)
            #expect(direct.status == parsed.status, "\(input)")
            #expect(direct.stderr == parsed.stderr, "\(input)")
        }
    }
}
