import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

@Suite("imagegallery info, list, extract")
struct ReadCommandTests {
    static let all = TestPaths.fixture("valid/all.imagegallery")

    func json(_ result: ProcessResult) throws -> Any { try JSONSerialization.jsonObject(with: result.stdoutData) }

    @Test func infoDescribesTheGallery() throws {
        let result = try Subprocess.imagegallery(["info", "--json", Self.all])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try #require(try json(result) as? [String: Any])
        let reader = try GalleryReader(path: Self.all)
        #expect(info["title"] as? String == reader.gallery.title)
        #expect(info["id"] as? String == reader.gallery.id.manifestString)
        #expect(info["revision"] as? String == reader.gallery.revision.manifestString)
        #expect(info["imageCount"] as? Int == reader.gallery.images.count)
        #expect((info["totalBytes"] as? NSNumber)?.uint64Value == reader.gallery.totalImageBytes)
        #expect(info["formatVersion"] as? String == "1.0")

        let text = try Subprocess.imagegallery(["info", Self.all])
        #expect(text.stdout.contains("Title:       \(reader.gallery.title)"))
        #expect(text.stdout.contains("Images:      \(reader.gallery.images.count)"))
    }

    @Test func listGivesEveryImageInOrder() throws {
        let result = try Subprocess.imagegallery(["list", "--json", Self.all])
        #expect(result.status == 0)
        let rows = try #require(try json(result) as? [[String: Any]])
        let images = try GalleryReader(path: Self.all).gallery.images
        #expect(rows.count == images.count)
        for (row, image) in zip(rows, images) {
            #expect(row["id"] as? String == image.id.manifestString)
            #expect(row["sha256"] as? String == image.sha256.hex)
            #expect(row["width"] as? Int == image.width)
            #expect(row["mediaType"] as? String == image.mediaType.rawValue)
            #expect(row["source"] as? String == image.source)
        }
        #expect(rows.map { $0["index"] as! Int } == Array(1 ... images.count))
    }

    /// `list --json` writes its rows with our own writer (issue 34): each row's keys sorted,
    /// absent members left out, and a caption of quotes, backslashes, control characters,
    /// slashes and non-ASCII read back as written; the same document JSONEncoder wrote.
    @Test func theListingEscapesWhatACaptionHolds() throws {
        let directory = try TemporaryDirectory()
        let gallery = directory.file("g.imagegallery")
        #expect(try Subprocess.imagegallery(["create", gallery, TestPaths.fixture("images/1-sunset.jpg"),
                                             TestPaths.fixture("images/2-tiles.png")]).status == 0)
        let caption = "\"Quoted\" back\\slash\nline\ttab \u{01}\u{1F} a/b \u{7F} é 🌍"
        #expect(try Subprocess.imagegallery(["caption", gallery, "1", caption]).status == 0)
        let result = try Subprocess.imagegallery(["list", "--json", gallery])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(try json(result) as? [[String: Any]])
        #expect(rows.first?["caption"] as? String == caption)
        #expect(rows.last?["caption"] == nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let images = try GalleryReader(path: gallery).gallery.images
        let expected = try images.enumerated().map { position, image in
            String(decoding: try encoder.encode(ListedRow(index: position + 1, image: image)), as: UTF8.self)
        }
        #expect(result.stdout == "[" + expected.joined(separator: ",") + "]\n")
    }

    /// What JSONEncoder made of a row before issue 34, to hold our writer to.
    struct ListedRow: Encodable {
        var index: Int, id: String, mediaType: String, width: Int, height: Int, byteSize: UInt64, sha256: String
        var path: String, source: String?, filename: String?, caption: String?, added: String?

        init(index: Int, image: GalleryImage) {
            self.index = index
            id = image.id.manifestString
            mediaType = image.mediaType.rawValue
            width = image.width
            height = image.height
            byteSize = image.byteSize
            sha256 = image.sha256.hex
            path = image.path
            source = image.source
            filename = image.filename
            caption = image.caption
            added = image.added?.rfc3339
        }
    }

    @Test func extractRoundTripsTheOriginalBytes() throws {
        let directory = try TemporaryDirectory()
        let source = Self.all
        let result = try Subprocess.imagegallery(["extract", source, "--to", directory.file("out"), "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try #require(try json(result) as? [[String: Any]])
        let images = try GalleryReader(path: source).gallery.images
        #expect(written.count == images.count)
        for (item, image) in zip(written, images) {
            let bytes = try FileBytes.read(item["path"] as! String)
            #expect(SHA256Hasher.of(bytes) == image.sha256)
        }
        // The extracted files are the sample images themselves (those that are samples).
        var compared = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.file("out")) {
            let original = TestPaths.fixture("images/" + name.drop { $0 != "-" }.dropFirst())
            if FileManager.default.fileExists(atPath: original) {
                #expect(try FileBytes.read(directory.file("out/" + name)) == FileBytes.read(original), "\(name)")
                compared += 1
            }
        }
        // Every image of all.imagegallery is one of the samples: a renaming must not make this vacuous.
        #expect(compared == images.count, "only \(compared) extracted files were compared with the sample images")
    }

    @Test func extractSelectsByIndexAndID() throws {
        let directory = try TemporaryDirectory()
        let images = try GalleryReader(path: Self.all).gallery.images
        let result = try Subprocess.imagegallery(["extract", Self.all, "--to", directory.path, "--json", "3",
                                                  images[0].id.manifestString])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try #require(try json(result) as? [[String: Any]])
        #expect(written.map { $0["index"] as! Int } == [3, 1])
        #expect(try Subprocess.imagegallery(["extract", Self.all, "--to", directory.path, "99"]).status == 64)
        #expect(try Subprocess.imagegallery(["extract", Self.all, "--to", directory.path, "nonsense"]).status == 64)
    }

    @Test func extractNeverOverwritesWithoutForce() throws {
        let directory = try TemporaryDirectory()
        #expect(try Subprocess.imagegallery(["extract", Self.all, "--to", directory.path, "1"]).status == 0)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first)
        try FileBytes.write([1, 2, 3], to: directory.file(name))
        let refused = try Subprocess.imagegallery(["extract", Self.all, "--to", directory.path, "1"])
        #expect(refused.status == 73)
        #expect(try FileBytes.read(directory.file(name)) == [1, 2, 3])
        #expect(try Subprocess.imagegallery(["extract", Self.all, "--to", directory.path, "--force", "1"]).status == 0)
        #expect(try FileBytes.read(directory.file(name)) != [1, 2, 3])
    }

    @Test func extractNamesCannotEscapeTheFolder() throws {
        // A manifest cannot carry a filename with a separator (IG-MAN-008), and extract builds
        // names itself; check the folder holds exactly what was written.
        let directory = try TemporaryDirectory()
        let result = try Subprocess.imagegallery(["extract", Self.all, "--to", directory.file("x"), "--json"])
        let written = try #require(try json(result) as? [[String: Any]])
        for item in written {
            let path = item["path"] as! String
            #expect(path.hasPrefix(directory.file("x") + "/"))
            #expect(!path.dropFirst(directory.file("x").count + 1).contains("/"))
        }
    }

    @Test func corruptBlobLeavesNoFile() throws {
        let directory = try TemporaryDirectory()
        let broken = TestPaths.fixture("invalid/IG-PKG-020-crc-mismatch-blob.imagegallery")
        guard FileManager.default.fileExists(atPath: broken) else {
            Issue.record("fixture \(broken) is missing")
            return
        }
        let result = try Subprocess.imagegallery(["extract", broken, "--to", directory.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("IG-PKG-020"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// All or nothing: the images are flushed and renamed into place only once every one of
    /// them has been read and checked, so a damaged last image leaves no file, not the first two.
    @Test func aDamagedLaterImageLeavesNoFileAtAll() throws {
        let directory = try TemporaryDirectory()
        let gallery = try directory.copy(TestPaths.fixture("valid/three.imagegallery"))
        let reader = try GalleryReader(path: gallery)
        let last = try #require(reader.gallery.images.last)
        let offset = try reader.archive.dataOffset(of: try reader.blobEntry(for: last))
        var bytes = try FileBytes.read(gallery)
        bytes[Int(offset) + Int(last.byteSize) / 2] ^= 0xFF
        try FileBytes.write(bytes, to: gallery)
        let out = directory.file("out")
        let result = try Subprocess.imagegallery(["extract", gallery, "--to", out])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains(last.path), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
    }

    /// Text from a file cannot drive the terminal (format spec, section 12): escape sequences
    /// and bidirectional overrides in a generator string are shown escaped by `info`, and kept
    /// as they are (JSON-escaped) by `info --json`.
    @Test func textFromTheFileIsNeutralisedOnATerminal() throws {
        let directory = try TemporaryDirectory()
        let unpacked = directory.file("unpacked")
        #expect(try Subprocess.imagegallery(["convert", TestPaths.fixture("valid/three.imagegallery"), unpacked]).status == 0)
        let hostile = "evil\u{1B}]0;pwned\u{7}\u{1B}[2J\u{202E}gpj.exe"
        let manifest = unpacked + "/manifest.json"
        var text = try String(contentsOfFile: manifest, encoding: .utf8)
        let escaped = "evil\\u001b]0;pwned\\u0007\\u001b[2J\u{202E}gpj.exe"
        let generator = try #require(text.range(of: #""generator": "[^"]*""#, options: .regularExpression))
        text.replaceSubrange(generator, with: "\"generator\": \"\(escaped)\"")
        try text.write(toFile: manifest, atomically: true, encoding: .utf8)
        let gallery = directory.file("g.imagegallery")
        let packed = try Subprocess.imagegallery(["convert", unpacked, gallery, "--from", "unpacked"])
        #expect(packed.status == 0, "\(packed.stderr)")
        let shown = try Subprocess.imagegallery(["info", gallery])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(!shown.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        #expect(shown.stdout.contains("evil\\u{1B}]0;pwned\\u{7}\\u{1B}[2J\\u{202E}gpj.exe"), "\(shown.stdout)")
        let json = try Subprocess.imagegallery(["info", gallery, "--json"])
        let object = try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any]
        #expect(object?["generator"] as? String == hostile)
    }

    /// Every command that reads a gallery answers an invalid one with its id and exit 65, never a crash.
    @Test(arguments: try TestPaths.fixtures(in: "invalid", withExtension: "imagegallery"))
    func invalidGalleriesGiveCleanErrors(path: String) throws {
        let directory = try TemporaryDirectory()
        let expected = String(URL(fileURLWithPath: path).lastPathComponent.prefix(10))
        for arguments in [["info", path], ["list", path], ["extract", path, "--to", directory.path]] {
            let result = try Subprocess.imagegallery(arguments)
            // 0 is right when the defect lies where the command does not read (e.g. the thumbnail for
            // extract); FixtureTests proves a full read finds every defect.
            #expect(result.status == 65 || result.status == 0, "\(arguments[0]): exit \(result.status): \(result.stderr)")
            if result.status == 65 {
                #expect(result.stderr.contains(expected), "\(arguments[0]): \(result.stderr)")
                #expect(result.stderr.contains(path))
            }
        }
        // extract reads every image: anything the fixture breaks is found by it or by opening.
        let extract = try Subprocess.imagegallery(["extract", path, "--to", directory.file("all")])
        if extract.status == 0 {
            // Only defects outside the images (e.g. in an extra entry) may pass extract.
            #expect(!expected.hasPrefix("IG-MAN"), "\(extract.stdout)")
        }
    }

    @Test func missingFileIsNoInput() throws {
        let result = try Subprocess.imagegallery(["info", "/nonexistent/g.imagegallery"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("/nonexistent/g.imagegallery"))
    }

    @Test func versionAndHelp() throws {
        let version = try Subprocess.imagegallery(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == GalleryVersion.string)
        let help = try Subprocess.imagegallery(["--help"])
        #expect(help.status == 0)
        for code in ["64", "65", "66", "73", "74"] { #expect(help.stdout.contains("  \(code) "), "exit code \(code) undocumented") }
    }
}
