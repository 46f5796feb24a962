import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// The real binary, converting real files made by standard tools.
struct ConvertWorkspace {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func file(_ name: String) -> String { directory.file(name) }

    func run(_ arguments: [String], in folder: String? = nil) async throws -> ProcessResult {
        try await Blocking.run { try Subprocess.imagegallery(arguments, in: folder) }
    }

    /// Runs a tool the way a user would make an archive; fails the test if it fails.
    func tool(_ name: String, _ arguments: [String], in folder: String? = nil) async throws {
        guard let program = Subprocess.which(name) else {
            Issue.record("\(name) is not installed (make test installs it)")
            return
        }
        let result = try await Blocking.run { try Subprocess.run(program, arguments, in: folder) }
        #expect(result.status == 0, "\(name) \(arguments): \(result.stderr)")
    }

    /// A folder of copies of fixture images under the names given.
    func imageFolder(_ name: String, _ files: [(name: String, fixture: String)]) throws -> String {
        let folder = file(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (target, fixture) in files {
            let path = folder + "/" + target
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: TestPaths.fixture("images/" + fixture), toPath: path)
        }
        return folder
    }

    /// Every image's bytes, in gallery order.
    func imageBytes(_ gallery: String) throws -> [[UInt8]] {
        let reader = try GalleryReader(path: gallery)
        return try reader.gallery.images.map { image in
            var bytes: [UInt8] = []
            try reader.readBlob(image) { bytes += $0 }
            return bytes
        }
    }

    func fixtureBytes(_ names: [String]) throws -> [[UInt8]] {
        try names.map { try FileBytes.read(TestPaths.fixture("images/" + $0)) }
    }

    /// Everything under the workspace, for checking that nothing appeared outside an output.
    func listing() -> Set<String> {
        Set(FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? [])
    }
}

@Suite("Conversion: unpacked folders")
struct ConvertUnpackedTests {
    static let canonical = ["empty", "three", "all", "duplicate-blob", "images-folder"]

    /// gallery → folder → gallery gives the same bytes.
    @Test(arguments: canonical)
    func aRoundTripIsByteIdentical(_ name: String) async throws {
        let workspace = try ConvertWorkspace()
        let original = TestPaths.fixture("valid/\(name).imagegallery")
        let folder = workspace.file("unpacked")
        var result = try await workspace.run(["convert", original, folder])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileBytes.read(folder + "/manifest.json") == FileBytes.read(TestPaths.fixture("valid/\(name).manifest.json")))
        #expect(try String(contentsOfFile: folder + "/mimetype", encoding: .utf8) == "application/vnd.imagegallery+zip")
        let packed = workspace.file("packed.imagegallery")
        result = try await workspace.run(["convert", folder, packed])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileBytes.read(packed) == FileBytes.read(original))
    }

    /// A tolerated but non-canonical gallery unpacks and packs into a valid, canonical one with
    /// the same images.
    @Test func aToleratedGalleryPacksCanonically() async throws {
        let workspace = try ConvertWorkspace()
        let original = TestPaths.fixture("tolerant/deflated-blobs.imagegallery")
        let folder = workspace.file("unpacked")
        #expect(try await workspace.run(["convert", original, folder]).status == 0)
        let packed = workspace.file("packed.imagegallery")
        let result = try await workspace.run(["convert", folder, packed, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.imageBytes(packed) == workspace.imageBytes(original))
        #expect(try await workspace.run(["validate", packed]).status == 0)
    }

    @Test func aHandEditedManifestIsPackedInCanonicalFormWithAWarning() async throws {
        let workspace = try ConvertWorkspace()
        let folder = workspace.file("unpacked")
        #expect(try await workspace.run(["convert", TestPaths.fixture("valid/three.imagegallery"), folder]).status == 0)
        let manifest = folder + "/manifest.json"
        var text = try String(contentsOfFile: manifest, encoding: .utf8)
        text = text.replacingOccurrences(of: "\n", with: "\r\n")
        try text.write(toFile: manifest, atomically: true, encoding: .utf8)
        let packed = workspace.file("packed.imagegallery")
        let result = try await workspace.run(["convert", folder, packed])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("canonical"), "\(result.stderr)")
        #expect(try FileBytes.read(packed) == FileBytes.read(TestPaths.fixture("valid/three.imagegallery")))
    }

    /// Packing checks first: each fault names the folder and the file, and nothing is written.
    @Test(arguments: ["damaged blob", "extra blob", "extra file", "missing blob", "bad mimetype", "linked thumbnail",
                      "linked blob"])
    func aDamagedFolderIsRefusedByName(_ fault: String) async throws {
        let workspace = try ConvertWorkspace()
        let folder = workspace.file("unpacked")
        #expect(try await workspace.run(["convert", TestPaths.fixture("valid/three.imagegallery"), folder]).status == 0)
        let blobs = try FileManager.default.contentsOfDirectory(atPath: folder + "/images").sorted()
        let named: String
        switch fault {
        case "damaged blob":
            var bytes = try FileBytes.read(folder + "/images/" + blobs[0])
            bytes[bytes.count / 2] ^= 0xFF
            try FileBytes.write(bytes, to: folder + "/images/" + blobs[0])
            named = "images/" + blobs[0]
        case "extra blob":
            try FileManager.default.copyItem(atPath: TestPaths.fixture("images/4-dunes.jpg"), toPath: folder + "/images/extra.jpg")
            named = "images/extra.jpg"
        case "extra file":
            try FileBytes.write(Array("notes".utf8), to: folder + "/notes.txt")
            named = "notes.txt"
        case "missing blob":
            try FileManager.default.removeItem(atPath: folder + "/images/" + blobs[0])
            named = "images/" + blobs[0]
        case "linked thumbnail", "linked blob":
            // A link would carry whatever it points at into the gallery: here a copy of the same
            // bytes, so that only the link itself is at fault.
            let name = fault == "linked thumbnail" ? "thumbnail.png" : "images/" + blobs[0]
            let elsewhere = workspace.file("elsewhere")
            try FileManager.default.moveItem(atPath: folder + "/" + name, toPath: elsewhere)
            try FileManager.default.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: elsewhere)
            named = name
        default:
            try FileBytes.write(Array("application/zip".utf8), to: folder + "/mimetype")
            named = "mimetype"
        }
        let packed = workspace.file("packed.imagegallery")
        let result = try await workspace.run(["convert", folder, packed, "--from", "unpacked"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains(folder) && result.stderr.contains(named), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: packed))
    }

    @Test func anExistingOutputIsKeptWithoutForce() async throws {
        let workspace = try ConvertWorkspace()
        let folder = workspace.file("unpacked")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try FileBytes.write([1, 2, 3], to: folder + "/mine")
        var result = try await workspace.run(["convert", TestPaths.fixture("valid/three.imagegallery"), folder])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(try FileBytes.read(folder + "/mine") == [1, 2, 3])
        // --force replaces only what a conversion writes: never a folder holding other things...
        result = try await workspace.run(["convert", TestPaths.fixture("valid/three.imagegallery"), folder, "--force"])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("neither an unpacked gallery nor a folder of images (it holds mine)"), "\(result.stderr)")
        #expect(try FileBytes.read(folder + "/mine") == [1, 2, 3])
        // ...but an earlier unpacked gallery, or a folder of images, whole.
        try FileManager.default.removeItem(atPath: folder + "/mine")
        #expect(try await workspace.run(["convert", TestPaths.fixture("valid/empty.imagegallery"), folder, "--force"]).status == 0)
        result = try await workspace.run(["convert", TestPaths.fixture("valid/three.imagegallery"), folder, "--force"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/images").count == 3)
        result = try await workspace.run(["convert", TestPaths.fixture("valid/three.imagegallery"), folder, "--to", "images", "--force"])
        #expect(result.status == 0, "\(result.stderr)")
        result = try await workspace.run(["convert", TestPaths.fixture("valid/three.imagegallery"), folder, "--force"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(workspace.listing().allSatisfy { !$0.contains(".partial-") && !$0.contains(".old-") }, "\(workspace.listing())")
    }
}

@Suite("Conversion: folders of images")
struct ConvertImageFolderTests {
    /// images → gallery → images gives the same bytes, in natural order, with a warning for a
    /// file that is not an image.
    @Test func aRoundTripKeepsOrderAndBytes() async throws {
        let workspace = try ConvertWorkspace()
        let folder = try workspace.imageFolder("Holiday", [("10.png", "2-tiles.png"), ("2.jpg", "1-sunset.jpg"),
                                                           ("1.jpeg", "4-dunes.jpg")])
        try FileBytes.write(Array("not an image".utf8), to: folder + "/notes.txt")
        let gallery = workspace.file("holiday.imagegallery")
        var result = try await workspace.run(["convert", folder, gallery, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("notes.txt"), "\(result.stderr)")
        let order = ["4-dunes.jpg", "1-sunset.jpg", "2-tiles.png"]
        #expect(try workspace.imageBytes(gallery) == workspace.fixtureBytes(order))
        #expect(try GalleryReader(path: gallery).gallery.title == "Holiday")

        let exported = workspace.file("exported")
        result = try await workspace.run(["convert", gallery, exported, "--to", "images"])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: exported).sorted()
        #expect(names == ["001-1.jpeg", "002-2.jpg", "003-10.png"])
        #expect(try names.map { try FileBytes.read(exported + "/" + $0) } == workspace.fixtureBytes(order))
    }

    @Test func aTitleCanBeGiven() async throws {
        let workspace = try ConvertWorkspace()
        let folder = try workspace.imageFolder("f", [("a.png", "6-bubbles.png")])
        let gallery = workspace.file("g.imagegallery")
        let result = try await workspace.run(["convert", folder, gallery, "--title", "Bubbles & more"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try GalleryReader(path: gallery).gallery.title == "Bubbles & more")
    }
}

@Suite("Conversion: comic books")
struct ConvertComicTests {
    /// gallery → CBZ → gallery keeps the images, their order and the title; the CBZ is a zip
    /// that standard tools read, with a ComicInfo.xml.
    @Test func aRoundTripThroughCBZKeepsTheImagesInOrder() async throws {
        let workspace = try ConvertWorkspace()
        let original = TestPaths.fixture("valid/all.imagegallery")
        let comic = workspace.file("all.cbz")
        var result = try await workspace.run(["convert", original, comic])
        #expect(result.status == 0, "\(result.stderr)")
        let listing = try await Blocking.run { try Subprocess.run("/usr/bin/unzip", ["-Z1", comic]) }
        let entries = listing.stdout.split(separator: "\n").map(String.init)
        #expect(entries.first == "ComicInfo.xml", "\(entries)")
        let info = try await Blocking.run { try Subprocess.run("/usr/bin/unzip", ["-p", comic, "ComicInfo.xml"]) }
        let title = try GalleryReader(path: original).gallery.title
        #expect(info.stdout.contains("<Title>"), "\(info.stdout)")
        let test = try await Blocking.run { try Subprocess.run("/usr/bin/unzip", ["-tq", comic]) }
        #expect(test.status == 0, "\(test.stdout)")

        let back = workspace.file("back.imagegallery")
        result = try await workspace.run(["convert", comic, back])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.imageBytes(back) == workspace.imageBytes(original))
        #expect(try GalleryReader(path: back).gallery.title == title)
    }

    /// The page order and title of a ComicInfo.xml win over the names.
    @Test func comicInfoGivesTheTitleAndThePageOrder() async throws {
        let workspace = try ConvertWorkspace()
        let pages = try workspace.imageFolder("pages", [("p1.jpg", "1-sunset.jpg"), ("p2.png", "2-tiles.png"), ("p3.jpg", "3-lighthouse.jpg")])
        try FileBytes.write(Array("""
            <?xml version="1.0"?>
            <ComicInfo><Series>Night &amp; Day</Series><Number>3</Number>
              <Pages><Page Image="2" Type="FrontCover"/><Page Image="0"/><Page Image="1" Type="Deleted"/></Pages>
            </ComicInfo>
            """.utf8), to: pages + "/ComicInfo.xml")
        let comic = workspace.file("night.cbz")
        try await workspace.tool("zip", ["-q", "-r", comic, "."], in: pages)
        let gallery = workspace.file("night.imagegallery")
        let result = try await workspace.run(["convert", comic, gallery])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Deleted"), "\(result.stderr)")
        #expect(try workspace.imageBytes(gallery) == workspace.fixtureBytes(["3-lighthouse.jpg", "1-sunset.jpg"]))
        #expect(try GalleryReader(path: gallery).gallery.title == "Night & Day #3")
    }

    /// A CBR: RAR has no writer in Debian main, so it is made by the tests' own RAR 4 writer
    /// and checked with 7z, an independent reader, first.
    @Test func aCBRIsImported() async throws {
        let workspace = try ConvertWorkspace()
        let comic = workspace.file("issue.cbr")
        let info = workspace.file("ComicInfo.xml")
        try FileBytes.write(Array("<ComicInfo><Title>Issue One</Title></ComicInfo>".utf8), to: info)
        try await workspace.tool("python3", [TestPaths.repository + "/Tests/Archives/make-rar.py", comic,
                                             "Issue/02.png=" + TestPaths.fixture("images/2-tiles.png"),
                                             "Issue/01.jpg=" + TestPaths.fixture("images/1-sunset.jpg"),
                                             "ComicInfo.xml=" + info])
        try await workspace.tool("7z", ["t", comic])
        let gallery = workspace.file("issue.imagegallery")
        let result = try await workspace.run(["convert", comic, gallery])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.imageBytes(gallery) == workspace.fixtureBytes(["1-sunset.jpg", "2-tiles.png"]))
        #expect(try GalleryReader(path: gallery).gallery.title == "Issue One")
    }
}

@Suite("Conversion: foreign archives")
struct ConvertArchiveTests {
    static let images = [("photos/10.png", "2-tiles.png"), ("photos/2.jpg", "1-sunset.jpg"), ("photos/1.jpg", "4-dunes.jpg")]
    static let order = ["4-dunes.jpg", "1-sunset.jpg", "2-tiles.png"]

    /// Archives made by the standard tools import in natural order with the original bytes.
    @Test(arguments: [
        ("trip.tar.gz", "tar", ["czf"]), ("trip.tar.bz2", "tar", ["cjf"]), ("trip.tar.xz", "tar", ["cJf"]),
        ("trip.tar.zst", "tar", ["--zstd", "-cf"]), ("trip.tar", "tar", ["cf"]), ("trip.cbt", "tar", ["cf"]),
        ("trip.zip", "zip", ["-q", "-r"]), ("trip.7z", "7z", ["a", "-bd", "-bso0"]), ("trip.cb7", "7z", ["a", "-bd", "-bso0"]),
    ])
    func anArchiveMadeByStandardToolsImports(name: String, tool: String, options: [String]) async throws {
        let workspace = try ConvertWorkspace()
        let source = try workspace.imageFolder("source", Self.images)
        try FileBytes.write(Array("readme".utf8), to: source + "/photos/README.txt")
        let archive = workspace.file(name)
        try await workspace.tool(tool, options + [archive, "photos"], in: source)
        let gallery = workspace.file("trip.imagegallery")
        let result = try await workspace.run(["convert", archive, gallery, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.imageBytes(gallery) == workspace.fixtureBytes(Self.order))
        #expect(try GalleryReader(path: gallery).gallery.title == "trip")
        #expect(result.stderr.contains("README.txt"), "\(result.stderr)")
        #expect(try await workspace.run(["validate", gallery]).status == 0)
    }

    /// Names beyond ASCII, as the standard tools write them: raw bytes in tar, UTF-8 in ZIP,
    /// UTF-16 in 7-Zip (Info-ZIP's zip writes raw bytes with a Unicode extra field; Python's
    /// zipfile sets the UTF-8 flag instead, as most writers do). libarchive converts names to the current locale's character set, which
    /// for a program that never set one is ASCII: every such ZIP or 7-Zip name came back empty,
    /// and the archive's images were all skipped.
    @Test(arguments: [("tar", "tar", ["cf"]), ("zip", "zip", ["-q", "-r"]), ("cbz", "python3", ["-m", "zipfile", "-c"]),
                      ("7z", "7z", ["a", "-bd", "-bso0"])])
    func namesBeyondASCIIAreKept(extension: String, tool: String, options: [String]) async throws {
        let workspace = try ConvertWorkspace()
        let source = try workspace.imageFolder("source", [("pages/01 caf\u{E9}.jpg", "1-sunset.jpg"), ("pages/02 \u{30DA}\u{30FC}\u{30B8}.png", "2-tiles.png")])
        let archive = workspace.file("comic." + `extension`)
        try await workspace.tool(tool, options + [archive, "pages"], in: source)
        let gallery = workspace.file("comic.imagegallery")
        let result = try await workspace.run(["convert", archive, gallery])
        #expect(result.status == 0, "\(result.stderr)")
        let images = try GalleryReader(path: gallery).gallery.images
        #expect(images.map { Array(($0.filename ?? "").utf8) } == [Array("01 caf\u{E9}.jpg".utf8), Array("02 \u{30DA}\u{30FC}\u{30B8}.png".utf8)])
        #expect(try workspace.imageBytes(gallery) == workspace.fixtureBytes(["1-sunset.jpg", "2-tiles.png"]))
    }

    @Test func anArchiveWithoutImagesWritesNothing() async throws {
        let workspace = try ConvertWorkspace()
        let source = workspace.file("source")
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: false)
        try FileBytes.write(Array("text".utf8), to: source + "/a.txt")
        let archive = workspace.file("text.tar.gz")
        try await workspace.tool("tar", ["czf", archive, "a.txt"], in: source)
        let gallery = workspace.file("g.imagegallery")
        let result = try await workspace.run(["convert", archive, gallery])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains(archive), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: gallery))
        #expect(workspace.listing().allSatisfy { !$0.contains(".spool-") }, "\(workspace.listing())")
    }

    @Test func aDamagedArchiveIsAClearError() async throws {
        let workspace = try ConvertWorkspace()
        let source = try workspace.imageFolder("source", Self.images)
        let archive = workspace.file("trip.tar.gz")
        try await workspace.tool("tar", ["czf", archive, "photos"], in: source)
        var bytes = try FileBytes.read(archive)
        bytes.removeLast(bytes.count / 2)
        try FileBytes.write(bytes, to: archive)
        let gallery = workspace.file("g.imagegallery")
        let result = try await workspace.run(["convert", archive, gallery])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains(archive), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: gallery))
    }
}
