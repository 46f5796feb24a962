import Foundation
import GalleryFormat
import GalleryImageHeaders
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// `create` as users run it: the built binary, real files, real third-party readers.
@Suite("imagegallery create")
struct CreateCommandTests {
    static let images = TestPaths.fixture("images")

    /// The `create` command lines the independent Python writer made `Fixtures/valid` for.
    static let reproducible: [(String, [String])] = [
        ("empty", ["--title", "Empty", "--date", "2026-01-02T03:04:05Z", "--id", "17b4d738-08bb-5697-b740-871995af02f0"]),
        ("three", ["--title", "Three samples", "--date", "2026-01-02T03:04:05Z", "--id", "f50e8b91-fd90-5e95-b32d-11a88b124f91",
                   images + "/1-sunset.jpg", images + "/2-tiles.png", images + "/3-lighthouse.jpg"]),
        ("images-folder", ["--title", "Sample images", "--date", "2026-01-02T03:04:05Z", "--id",
                           "32b8ef99-f206-55aa-be23-2c581c283157", images]),
        ("duplicate-blob", ["--title", "Duplicate blob", "--date", "2026-01-02T03:04:05Z", "--id",
                            "690c471f-3927-5106-9516-a3aa491eabdf", images + "/1-sunset.jpg", images + "/2-tiles.png",
                            images + "/1-sunset.jpg"]),
    ]

    /// The independent writer's galleries, entry for entry: names, order, methods, flags and
    /// bytes. Only `thumbnail.png` differs (that writer stores the grey placeholder; we store the
    /// first image made small), so it is checked for what the format asks instead; a gallery
    /// with no images gets the placeholder from both, and then the whole file is identical.
    @Test(arguments: reproducible.map(\.0))
    func reproducesTheIndependentWriter(name: String) throws {
        let arguments = Self.reproducible.first { $0.0 == name }!.1
        let directory = try TemporaryDirectory()
        let output = directory.file("out.imagegallery")
        let result = try Subprocess.imagegallery(["create", output] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let fixture = TestPaths.fixture("valid/\(name).imagegallery")
        if name == "empty" {
            #expect(try FileBytes.read(output) == FileBytes.read(fixture))
            return
        }
        let ours = try ZipArchive(file: GalleryFile.openForReading(FilePath(output)))
        let theirs = try ZipArchive(file: GalleryFile.openForReading(FilePath(fixture)))
        #expect(ours.entries.map(\.name) == theirs.entries.map(\.name))
        for (mine, other) in zip(ours.entries, theirs.entries) {
            #expect(mine.method == other.method && mine.flags == other.flags, "\(mine.name)")
            guard mine.name != GalleryPackage.thumbnailEntry else { continue }
            #expect(try ours.readAll(mine, limit: 1 << 24) == theirs.readAll(other, limit: 1 << 24), "\(mine.name)")
        }
        let thumbnail = try ours.readAll(try #require(ours.entry(named: GalleryPackage.thumbnailEntry)), limit: 1 << 24)
        let header = try ImageHeader.parse(thumbnail)
        // Every first image here is upright and landscape: the thumbnail is 256 px wide, the
        // height in proportion (ties to even).
        let first = try GalleryReader(path: output).gallery.images[0]
        #expect(header.mediaType == .png && header.bitDepth == 8 && !header.interlaced)
        let height = Int((256 * Double(first.height) / Double(first.width)).rounded(.toNearestOrEven))
        #expect((header.width, header.height) == (256, height))
    }

    /// The first image turned upright by its EXIF orientation, fitted into 256 px.
    @Test func thumbnailIsTheFirstImageUpright() throws {
        let directory = try TemporaryDirectory()
        let output = directory.file("g.imagegallery")
        let result = try Subprocess.imagegallery(["create", output, Self.images + "/5-balloon-rotated.jpg", Self.images + "/1-sunset.jpg"])
        #expect(result.status == 0, "\(result.stderr)")
        let archive = try ZipArchive(file: GalleryFile.openForReading(FilePath(output)))
        let thumbnail = try archive.readAll(try #require(archive.entry(named: GalleryPackage.thumbnailEntry)), limit: 1 << 24)
        let header = try ImageHeader.parse(thumbnail)
        // Stored 480 × 320 with orientation 6: seen upright, 320 × 480, so 171 × 256.
        #expect((header.width, header.height) == (171, 256))
    }

    @Test func isDeterministicAcrossRuns() throws {
        let directory = try TemporaryDirectory()
        for name in ["a", "b"] {
            let result = try Subprocess.imagegallery(["create", directory.file(name), "--title", "Same", Self.images])
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try FileBytes.read(directory.file("a")) == FileBytes.read(directory.file("b")))
    }

    @Test func writesTheDetectableLayout() throws {
        let directory = try TemporaryDirectory()
        let output = directory.file("g.imagegallery")
        #expect(try Subprocess.imagegallery(["create", output, Self.images]).status == 0)
        let bytes = try FileBytes.read(output)
        #expect(String(decoding: bytes[30 ..< 38], as: UTF8.self) == "mimetype")
        #expect(String(decoding: bytes[38 ..< 70], as: UTF8.self) == "application/vnd.imagegallery+zip")
    }

    /// unzip, Python's zipfile, bsdtar and 7-Zip all accept what we write.
    @Test(arguments: [
        ("unzip", ["-tq"]), ("python3", ["-m", "zipfile", "-t"]), ("bsdtar", ["-tf"]), ("7z", ["t"]),
    ])
    func otherToolsAcceptTheFile(tool: String, arguments: [String]) throws {
        let program = try #require(Subprocess.which(tool), "\(tool) is not installed: run scripts/install-deps")
        let directory = try TemporaryDirectory()
        let output = directory.file("g.imagegallery")
        #expect(try Subprocess.imagegallery(["create", output, Self.images]).status == 0)
        let result = try Subprocess.run(program, arguments + [output])
        #expect(result.status == 0, "\(tool): \(result.stdout) \(result.stderr)")
    }

    @Test func takesFolderImagesInNaturalOrderAndSkipsOthers() throws {
        let directory = try TemporaryDirectory()
        let output = directory.file("g.imagegallery")
        let result = try Subprocess.imagegallery(["create", output, Self.images])
        #expect(result.status == 0)
        #expect(result.stderr.contains("README.md: skipped: not a JPEG, PNG, WebP, GIF, AVIF or HEIC image"), "\(result.stderr)")
        let list = try Subprocess.imagegallery(["list", "--json", output])
        let rows = try JSONSerialization.jsonObject(with: list.stdoutData) as! [[String: Any]]
        #expect(rows.map { $0["filename"] as! String } == (1 ... 10).map { number in
            try! FileManager.default.contentsOfDirectory(atPath: Self.images).first { $0.hasPrefix("\(number)-") }!
        })
    }

    @Test func readsPixelSizesFromHeaders() throws {
        let directory = try TemporaryDirectory()
        let output = directory.file("g.imagegallery")
        #expect(try Subprocess.imagegallery(["create", output, Self.images + "/1-sunset.jpg", Self.images + "/3-lighthouse.jpg",
                                             Self.images + "/9-rings-interlaced.png"]).status == 0)
        let reader = try GalleryReader(path: output)
        // The interlaced PNG's size, read here from its IHDR (width and height, big-endian, at 16 and 20).
        let png = try FileBytes.read(Self.images + "/9-rings-interlaced.png")
        let rings = [16, 20].map { at in png[at ..< at + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(reader.gallery.images.map { [$0.width, $0.height] } == [[800, 600], [450, 600], rings])
        #expect(reader.gallery.images.map(\.mediaType) == [.jpeg, .jpeg, .png])
    }

    @Test func emptyGalleryWithNoSources() throws {
        let directory = try TemporaryDirectory()
        let output = directory.file("e.imagegallery")
        let result = try Subprocess.imagegallery(["create", output, "--title", "Nothing yet"])
        #expect(result.status == 0, "\(result.stderr)")
        let reader = try GalleryReader(path: output)
        #expect(reader.gallery.images.isEmpty)
        #expect(reader.gallery.title == "Nothing yet")
    }

    @Test func refusesToOverwriteWithoutForce() throws {
        let directory = try TemporaryDirectory()
        let output = directory.file("g.imagegallery")
        try FileBytes.write(Array("precious".utf8), to: output)
        let refused = try Subprocess.imagegallery(["create", output, Self.images])
        #expect(refused.status == 73)
        #expect(refused.stderr.contains(output))
        #expect(try FileBytes.read(output) == Array("precious".utf8), "the existing file must be untouched")
        #expect(try Subprocess.imagegallery(["create", output, "--force", Self.images]).status == 0)
        #expect(try GalleryReader(path: output).gallery.images.count == 10)
    }

    @Test func explicitNonImageIsADataError() throws {
        let directory = try TemporaryDirectory()
        let result = try Subprocess.imagegallery(["create", directory.file("g.imagegallery"), Self.images + "/README.md"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("README.md"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "nothing may be left behind")
    }

    @Test func missingSourceIsNoInput() throws {
        let directory = try TemporaryDirectory()
        let result = try Subprocess.imagegallery(["create", directory.file("g.imagegallery"), directory.file("nope.jpg")])
        #expect(result.status == 66)
        #expect(result.stderr.contains("nope.jpg"))
    }

    @Test func badOptionsAreUsageErrors() throws {
        let directory = try TemporaryDirectory()
        #expect(try Subprocess.imagegallery(["create", directory.file("g"), "--date", "yesterday"]).status == 64)
        #expect(try Subprocess.imagegallery(["create", directory.file("g"), "--id", "not-a-uuid"]).status == 64)
        #expect(try Subprocess.imagegallery(["frobnicate"]).status == 64)
    }

    @Test func noSyncWritesTheSameBytes() throws {
        let directory = try TemporaryDirectory()
        #expect(try Subprocess.imagegallery(["create", directory.file("a"), "--title", "S", Self.images]).status == 0)
        #expect(try Subprocess.imagegallery(["create", directory.file("b"), "--no-sync", "--title", "S", Self.images]).status == 0)
        #expect(try FileBytes.read(directory.file("a")) == FileBytes.read(directory.file("b")))
        // Replacing a file without flushing the new one first could lose both in a crash.
        let refused = try Subprocess.imagegallery(["create", directory.file("a"), "--no-sync", "--force", Self.images])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--no-sync cannot be combined with --force"), "\(refused.stderr)")
        // convert shares the two flags and their rule (WriteOptions).
        let converted = try Subprocess.imagegallery(["convert", Self.images, directory.file("c"), "--no-sync", "--force"])
        #expect(converted.status == 64)
        #expect(converted.stderr.contains("--no-sync cannot be combined with --force"), "\(converted.stderr)")
    }

    @Test func sourceDateEpochSetsTheTime() throws {
        let directory = try TemporaryDirectory()
        let output = directory.file("g.imagegallery")
        let result = try Subprocess.imagegallery(["create", output, Self.images + "/2-tiles.png"],
                                                 environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(result.status == 0)
        #expect(try GalleryReader(path: output).gallery.created == Timestamp(seconds: 1_700_000_000))
    }
}
