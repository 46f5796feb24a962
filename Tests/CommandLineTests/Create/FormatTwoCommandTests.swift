import Foundation
import GalleryFormat
import GalleryImageHeaders
import GalleryTestSupport
import Testing

/// Format 2.0 through the built binary: WebP, GIF, AVIF and HEIC taken by `create`, `add`,
/// `convert` and fetching; the version written is the lowest that expresses the gallery, and an
/// upgrade is said; `--accept` keeps to the types a user names.
@Suite("Format 2.0 image types in the commands")
struct FormatTwoCommandTests {
    static func sample(_ name: String) -> String { TestPaths.fixture("format-2.0/" + name) }
    static let jpeg = TestPaths.fixture("images/1-sunset.jpg")

    func json(_ result: ProcessResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result.stdout)")
    }

    @Test func createTakesEachTypeAndWritesFormatTwo() throws {
        let directory = try TemporaryDirectory()
        let gallery = directory.file("g.imagegallery")
        let inputs = [Self.jpeg] + ["lossy.webp", "anim.gif", "rotated.avif", "bubbles.heic"].map(Self.sample)
        let created = try Subprocess.imagegallery(["create", gallery, "--json"] + inputs)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try json(created)["formatVersion"] as? String == "2.0")
        #expect(created.stderr.contains("is format 2.0") && created.stderr.contains("WebP, GIF, AVIF and HEIC"), "\(created.stderr)")
        let reader = try GalleryReader(path: gallery)
        #expect(reader.gallery.formatVersion == .two)
        #expect(reader.gallery.images.map(\.mediaType) == [.jpeg, .webp, .gif, .avif, .heic])
        // The stored size, before irot: rotated.avif is 800 × 600 turned a quarter.
        #expect(reader.gallery.images[3].width == 800 && reader.gallery.images[3].height == 600)
        #expect(reader.gallery.images.map { $0.path.split(separator: ".").last! } == ["jpg", "webp", "gif", "avif", "heic"])
        let deep = try Subprocess.imagegallery(["validate", "--deep", gallery])
        #expect(deep.status == 0, "\(deep.stdout)\(deep.stderr)")
        // Extracted as they were: the bytes of each file given.
        let out = directory.file("out")
        let extracted = try Subprocess.imagegallery(["extract", gallery, "--to", out])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        for input in inputs {
            let name = URL(fileURLWithPath: input).lastPathComponent
            // NN-NAME: the position, then the file's own name.
            let found = names.first { $0.hasSuffix("-" + name) }
            #expect(found != nil, "\(name) not among \(names)")
            if let found { #expect(try FileBytes.read(out + "/" + found) == FileBytes.read(input)) }
        }
    }

    /// The first image a HEIC turned by nothing, an AVIF turned by irot: each gallery's thumbnail
    /// command gives a PNG of the upright picture.
    @Test func theThumbnailOfAGalleryThatStartsWithEachType() throws {
        let directory = try TemporaryDirectory()
        for (name, upright) in [("sunset.heic", (256, 192)), ("rotated.avif", (192, 256)), ("anim.webp", (256, 192)),
                                ("anim.gif", (256, 192))] {
            let gallery = directory.file(name + ".imagegallery")
            #expect(try Subprocess.imagegallery(["create", gallery, Self.sample(name)]).status == 0)
            let png = directory.file(name + ".png")
            let made = try Subprocess.imagegallery(["thumbnail", "-s", "256", gallery, png])
            #expect(made.status == 0, "\(name): \(made.stderr)")
            let header = try ImageHeader.parse(try FileBytes.read(png))
            #expect(header.mediaType == .png && header.width == upright.0 && header.height == upright.1,
                    "\(name): \(header.width)×\(header.height)")
        }
    }

    /// `add` of a WebP to a 1.0 gallery makes it 2.0 and says so; removing it makes it 1.0 again.
    @Test func addUpgradesAndSaysSoAndRemoveComesBack() throws {
        let directory = try TemporaryDirectory()
        let gallery = directory.file("g.imagegallery")
        #expect(try Subprocess.imagegallery(["create", gallery, Self.jpeg]).status == 0)
        #expect(try GalleryReader(path: gallery).gallery.formatVersion == .one)
        let added = try Subprocess.imagegallery(["add", gallery, Self.sample("lossy.webp"), "--json"])
        #expect(added.status == 0, "\(added.stderr)")
        let report = try json(added)
        #expect(report["formatVersion"] as? String == "2.0" && report["upgraded"] as? Bool == true, "\(report)")
        #expect(added.stderr.contains("is now format 2.0") && added.stderr.contains("readers of format 1 will refuse it"),
                "\(added.stderr)")
        #expect(try GalleryReader(path: gallery).gallery.formatVersion == .two)
        // A second WebP is no upgrade.
        let again = try Subprocess.imagegallery(["add", gallery, Self.sample("lossless-alpha.webp"), "--json"])
        #expect(try json(again)["upgraded"] as? Bool == false)
        #expect(!again.stderr.contains("format 2.0"), "\(again.stderr)")
        for _ in 0 ..< 2 { #expect(try Subprocess.imagegallery(["remove", gallery, "2"]).status == 0) }
        let info = try json(try Subprocess.imagegallery(["info", "--json", gallery]))
        #expect(info["formatVersion"] as? String == "1.0", "\(info)")
    }

    @Test func acceptKeepsToTheTypesNamed() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.file("photos")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = try directory.copy(Self.jpeg, as: "photos/1.jpg")
        _ = try directory.copy(Self.sample("lossy.webp"), as: "photos/2.webp")
        let gallery = directory.file("g.imagegallery")
        let created = try Subprocess.imagegallery(["create", gallery, folder, "--accept", "jpeg,png"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stderr.contains("2.webp: skipped: a WebP image; only JPEG and PNG are accepted here"), "\(created.stderr)")
        let reader = try GalleryReader(path: gallery)
        #expect(reader.gallery.images.count == 1 && reader.gallery.formatVersion == .one)
        // Named itself, such a file is refused and nothing is written.
        let named = directory.file("named.imagegallery")
        let refused = try Subprocess.imagegallery(["create", named, Self.sample("sunset.heic"), "--accept", "JPG,png,WebP"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("a HEIC image; only JPEG, PNG and WebP are accepted here"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: named))
        let added = try Subprocess.imagegallery(["add", gallery, Self.sample("b.gif"), "--accept", "jpeg"])
        #expect(added.status != 0 && added.stderr.contains("a GIF image; only JPEG is accepted here"), "\(added.stderr)")
        #expect(try GalleryReader(path: gallery).gallery.images.count == 1)
        let bogus = try Subprocess.imagegallery(["create", directory.file("x.imagegallery"), folder, "--accept", "jpeg,tiff"])
        #expect(bogus.status == 64 && bogus.stderr.contains("\"tiff\" is not an image type"), "\(bogus.stderr)")
    }

    /// An archive's entries of every type, and `--accept` on convert.
    @Test func archivesTakeEveryTypeUnlessToldOtherwise() throws {
        let directory = try TemporaryDirectory()
        let archive = directory.file("pages.zip")
        let inputs = [Self.jpeg, Self.sample("lossy.webp"), Self.sample("b.gif"), Self.sample("sunset.avif"), Self.sample("sunset.heic")]
        let zipped = try Subprocess.run("/usr/bin/zip", ["-j", "-q", archive] + inputs)
        #expect(zipped.status == 0, "\(zipped.stderr)")
        let all = directory.file("all.imagegallery")
        let converted = try Subprocess.imagegallery(["convert", archive, all])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(Set(try GalleryReader(path: all).gallery.images.map(\.mediaType)) == Set(MediaType.allCases).subtracting([.png]))
        let some = directory.file("some.imagegallery")
        let accepted = try Subprocess.imagegallery(["convert", archive, some, "--accept", "jpeg,avif"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(try GalleryReader(path: some).gallery.images.map(\.mediaType) == [.jpeg, .avif])
        #expect(accepted.stderr.contains("lossy.webp: skipped: a WebP image; only JPEG and AVIF are accepted here"), "\(accepted.stderr)")
    }

    /// Fetched: a WebP served as image/webp is taken; with --accept jpeg,png it is refused as
    /// `not-accepted`, naming its type, and the JPEG beside it is added.
    @Test func fetchingTakesTheNewTypesAndHonoursAccept() async throws {
        let workspace = try FetchWorkspace()
        let webp = workspace.url("/samples/lossy.webp")
        let good = workspace.url("/images/4-dunes.jpg")
        let taken = workspace.file("taken.imagegallery")
        let created = try await workspace.run(["create", taken, webp, good])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try workspace.images(taken).map(\.mediaType) == [.webp, .jpeg])
        let kept = workspace.file("kept.imagegallery")
        let refused = try await workspace.run(["create", kept, webp, good, "--accept", "jpeg,png", "--json"])
        #expect(refused.status == 4, "\(refused.stderr)")
        #expect(refused.stdout.contains("not-accepted") && refused.stderr.contains("a WebP image; only JPEG and PNG are accepted here"),
                "\(refused.stdout)\(refused.stderr)")
        #expect(try workspace.images(kept).map(\.mediaType) == [.jpeg])
    }

    /// To a comic: JPEG, PNG and WebP keep their bytes; GIF, AVIF and HEIC become JPEG pages of
    /// the upright picture at full size, unless --keep-originals. Read back by bsdtar.
    @Test func comicPagesAreWhatComicReadersShow() throws {
        let directory = try TemporaryDirectory()
        let gallery = directory.file("g.imagegallery")
        let inputs = [Self.jpeg] + ["lossy.webp", "b.gif", "rotated.avif", "sunset.heic"].map(Self.sample)
        #expect(try Subprocess.imagegallery(["create", gallery] + inputs).status == 0)
        for keep in [false, true] {
            let comic = directory.file("c\(keep).cbz")
            let made = try Subprocess.imagegallery(["convert", gallery, comic] + (keep ? ["--keep-originals"] : []))
            #expect(made.status == 0, "\(made.stderr)")
            let listed = try Subprocess.run("/usr/bin/bsdtar", ["-tf", comic])
            let names = listed.stdout.split(separator: "\n").map(String.init)
            let expected = keep ? ["ComicInfo.xml", "0001.jpg", "0002.webp", "0003.gif", "0004.avif", "0005.heic"]
                : ["ComicInfo.xml", "0001.jpg", "0002.webp", "0003.jpg", "0004.jpg", "0005.jpg"]
            #expect(names == expected, "\(names)")
            let out = directory.file("out\(keep)")
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            #expect(try Subprocess.run("/usr/bin/bsdtar", ["-xf", comic, "-C", out]).status == 0)
            #expect(try FileBytes.read(out + "/0002.webp") == FileBytes.read(inputs[1]))
            if keep {
                #expect(try FileBytes.read(out + "/0005.heic") == FileBytes.read(inputs[4]))
            } else {
                // The AVIF's page is upright: its irot turns 800 × 600 to 600 × 800.
                let avif = try ImageHeader.parse(try FileBytes.read(out + "/0004.jpg"))
                #expect(avif.mediaType == .jpeg && avif.width == 600 && avif.height == 800)
                let heic = try ImageHeader.parse(try FileBytes.read(out + "/0005.jpg"))
                #expect(heic.width == 800 && heic.height == 600)
                let info = try String(contentsOfFile: out + "/ComicInfo.xml", encoding: .utf8)
                #expect(info.contains("ImageWidth=\"600\" ImageHeight=\"800\""), "\(info)")
            }
            // No page folder is left beside the output.
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.contains(".pages-") })
        }
    }

    /// An image's own description becomes its caption: EXIF ImageDescription in a JPEG, a PNG
    /// Description text (written here by Pillow), cleaned of control characters; a caption given
    /// wins; --no-captions leaves them empty. The web gallery shows it as alt text.
    @Test func captionsComeFromTheImagesOwnDescriptions() throws {
        let directory = try TemporaryDirectory()
        let jpeg = directory.file("described.jpg"), png = directory.file("described.png")
        let script = """
            import sys
            from PIL import Image, PngImagePlugin
            image = Image.new("RGB", (40, 30), (200, 80, 20))
            exif = Image.Exif()
            exif[0x010E] = "Harbour at dusk\\x07 seen from the pier"
            image.save(sys.argv[1], exif=exif.tobytes())
            text = PngImagePlugin.PngInfo()
            text.add_text("Description", "Tiles, blue and white")
            image.save(sys.argv[2], pnginfo=text)
            """
        let made = try Subprocess.run("/usr/bin/python3", ["-c", script, jpeg, png])
        try #require(made.status == 0, "\(made.stderr)")
        let gallery = directory.file("g.imagegallery")
        #expect(try Subprocess.imagegallery(["create", gallery, jpeg, png, Self.jpeg]).status == 0)
        let captions = try GalleryReader(path: gallery).gallery.images.map(\.caption)
        #expect(captions == ["Harbour at dusk seen from the pier", "Tiles, blue and white", nil], "\(captions)")
        let bare = directory.file("bare.imagegallery")
        #expect(try Subprocess.imagegallery(["create", bare, jpeg, png, "--no-captions"]).status == 0)
        #expect(try GalleryReader(path: bare).gallery.images.allSatisfy { $0.caption == nil })
        #expect(try Subprocess.imagegallery(["add", bare, png]).status == 0)
        #expect(try GalleryReader(path: bare).gallery.images.last?.caption == "Tiles, blue and white")
        let web = directory.file("web")
        #expect(try Subprocess.imagegallery(["convert", gallery, web, "--to", "web"]).status == 0)
        // The web gallery shows it as the page's caption (the alt text is "Image N of COUNT").
        #expect(try String(contentsOfFile: web + "/pages/001.html", encoding: .utf8)
            .contains("<p class=\"caption\">Harbour at dusk seen from the pier</p>"))
    }

    /// The binary needs none of format 2.0's libraries to start: they (and the thirty libraries
    /// libavif and libheif bring) are loaded when an image of their type is first decoded; nor
    /// libarchive (with libxml2 and ICU), loaded when an archive is first read.
    /// libturbojpeg among the needed ones shows the probe reads the list.
    @Test func theDecodersLibrariesAreLoadedOnlyWhenNeeded() throws {
        let dynamic = try Subprocess.run("/usr/bin/readelf", ["-d", try TestPaths.binary()])
        let needed = dynamic.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.map(String.init)
        #expect(needed.contains { $0.contains("libturbojpeg") }, "\(needed)")
        for library in ["libwebp", "libgif", "libavif", "libheif", "libde265", "libdav1d", "libaom", "libarchive", "libxml2", "libicu"] {
            #expect(!needed.contains { $0.contains(library) }, "imagegallery needs \(library) at start: \(needed)")
        }
    }

    /// Nor the whole of Foundation: FoundationEssentials only, without
    /// FoundationInternationalization and ICU's data, which cost every start about 2 ms
    /// (Benchmarks/RESULTS.md, section v). FoundationEssentials among the needed ones shows the
    /// probe reads the list.
    @Test func theBinaryNeedsFoundationEssentialsOnly() throws {
        let dynamic = try Subprocess.run("/usr/bin/readelf", ["-d", try TestPaths.binary()])
        let needed = dynamic.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.map(String.init)
        #expect(needed.contains { $0.contains("[libFoundationEssentials.so]") }, "\(needed)")
        for library in ["[libFoundation.so]", "libFoundationInternationalization", "lib_FoundationICU", "libFoundationNetworking"] {
            #expect(!needed.contains { $0.contains(library) }, "imagegallery needs \(library) at start: \(needed)")
        }
    }
}
