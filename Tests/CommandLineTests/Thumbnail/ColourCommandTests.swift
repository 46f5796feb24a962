import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

/// Colour through the built programs (issue 31): `create`'s embedded thumbnail and `convert --to
/// web`'s thumbnails are converted from a ProPhoto-tagged photo, while `extract` and the web
/// gallery's copy keep the original byte for byte; an HDR AVIF (PQ) is thumbnailed with a warning
/// that names what could not be honoured.
@Suite("Colour through the programs")
struct ColourCommandTests {
    let folder: TemporaryDirectory
    /// The photo's left half in ProPhoto's numbers, and what Little CMS makes of them in sRGB.
    let numbers = [150, 91, 61]
    let sRGB: [Int]

    init() throws {
        folder = try TemporaryDirectory()
        let made = try Subprocess.run("/usr/bin/python3", ["-c", """
            import sys
            from PIL import Image, ImageCms
            profile = "/usr/share/color/icc/colord/ProPhotoRGB.icc"
            image = Image.new("RGB", (1200, 800), (150, 91, 61))
            image.paste((60, 120, 200), (600, 0, 1200, 800))
            image.save(sys.argv[1], quality=95, subsampling=0, icc_profile=open(profile, "rb").read())
            image.save(sys.argv[2])
            one = ImageCms.profileToProfile(Image.new("RGB", (1, 1), (150, 91, 61)), profile, ImageCms.createProfile("sRGB"),
                                            renderingIntent=1)
            print(*one.getpixel((0, 0)))
            """, folder.file("prophoto.jpg"), folder.file("plain.png")])
        try #require(made.status == 0, "\(made.stderr)")
        sRGB = made.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(sRGB.count == 3 && ColourDifference.ciede2000(numbers, sRGB) > 10)
    }

    /// The colour at a quarter of the way across and half the way down a PNG.
    func leftHalf(ofPNG path: String) throws -> [Int] {
        let bitmap = try PNGDecoder.decode(FileBytes.read(path))
        let at = (bitmap.height / 2 * bitmap.width + bitmap.width / 4) * 4
        return bitmap.pixels[at ..< at + 3].map(Int.init)
    }

    @Test func theEmbeddedAndTheWebGallerysThumbnailsAreSRGBAndTheOriginalsUntouched() throws {
        let gallery = folder.file("g.imagegallery")
        let created = try Subprocess.imagegallery(["create", gallery, folder.file("prophoto.jpg")])
        try #require(created.status == 0, "\(created.stderr)")
        // 256 px: the embedded thumbnail, as create made it.
        let thumbnail = try Subprocess.imagegallery(["thumbnail", "-s", "256", gallery, folder.file("t.png")])
        #expect(thumbnail.status == 0 && thumbnail.stderr.isEmpty, "\(thumbnail.stderr)")
        let embedded = try leftHalf(ofPNG: folder.file("t.png"))
        #expect(ColourDifference.ciede2000(embedded, sRGB) <= 1.0, "embedded \(embedded), Little CMS \(sRGB)")

        let web = folder.file("web")
        let converted = try Subprocess.imagegallery(["convert", gallery, "--to", "web", web])
        try #require(converted.status == 0, "\(converted.stderr)")
        let webThumbnail = try leftHalf(ofPNG: web + "/thumbs/001.png")
        #expect(ColourDifference.ciede2000(webThumbnail, sRGB) <= 1.0, "web thumbnail \(webThumbnail), Little CMS \(sRGB)")
        let original = try FileBytes.read(folder.file("prophoto.jpg"))
        #expect(try FileBytes.read(web + "/images/001.jpg") == original, "the web gallery's copy is the original")

        let extracted = folder.file("out")
        let extract = try Subprocess.imagegallery(["extract", gallery, "--to", extracted])
        try #require(extract.status == 0, "\(extract.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: extracted).filter { $0.hasSuffix(".jpg") }
        try #require(files.count == 1, "\(files)")
        #expect(try FileBytes.read(extracted + "/" + files[0]) == original, "the extracted image is the original")
    }

    /// A profile our checks pass but Little CMS cannot use, or one for other pixels than the
    /// image's: `validate --deep` warns (IG-BLB-020) and the gallery stays valid; without
    /// `--deep` no colour engine runs and nothing is said.
    @Test(arguments: ["p-icc-grey-on-rgb", "p-icc-no-tags", "p-icc-cmyk-on-rgb"])
    func deepValidationWarnsOfAProfileTheEngineCannotUse(name: String) throws {
        let gallery = TestPaths.fixture("hostile/\(name).imagegallery")
        let deep = try Subprocess.imagegallery(["validate", "--deep", gallery])
        #expect(deep.status == 0, "\(deep.stdout) \(deep.stderr)")
        #expect(deep.stdout.contains("warning IG-BLB-020") && deep.stdout.contains("read as sRGB"), "\(deep.stdout)")
        let shallow = try Subprocess.imagegallery(["validate", gallery])
        #expect(shallow.status == 0 && !shallow.stdout.contains("IG-BLB-02"), "\(shallow.stdout)")
    }

    /// PQ is out of scope (issue 31): the primaries are converted, the curve read as sRGB's,
    /// and the command says so; it still makes the thumbnail.
    @Test func anHDRAVIFIsThumbnailedWithAWarning() throws {
        let avifenc = try #require(Subprocess.which("avifenc"), "avifenc is not installed: scripts/install-deps test installs it")
        let encoded = try Subprocess.run(avifenc, ["--cicp", "9/16/9", "-r", "full", folder.file("plain.png"), folder.file("pq.avif")])
        try #require(encoded.status == 0, "\(encoded.stderr)")
        let gallery = folder.file("pq.imagegallery")
        let created = try Subprocess.imagegallery(["create", gallery, folder.file("pq.avif")])
        try #require(created.status == 0, "\(created.stderr)")
        // Past the embedded thumbnail's 256 px, so the photo itself is decoded.
        let thumbnail = try Subprocess.imagegallery(["thumbnail", "-s", "512", gallery, folder.file("pq.png")])
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        #expect(thumbnail.stderr.contains("warning") && thumbnail.stderr.contains("PQ"), "\(thumbnail.stderr)")
        #expect(try PNGBytes.size(ofFile: folder.file("pq.png")).map { [$0.width, $0.height] } == [512, 341])
    }
}
