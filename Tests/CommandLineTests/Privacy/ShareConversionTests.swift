import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// `convert --strip` (issue 32): a web gallery leaves location out by default and says so; the
/// other forms strip only when asked; `--strip none` publishes the originals byte for byte.
@Suite("Conversions that share")
struct ShareConversionTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test func aWebGalleryLeavesLocationOutByDefault() throws {
        let gallery = try PrivacyPhotos.gallery(in: directory)
        let web = directory.file("web")
        let result = try Subprocess.imagegallery(["convert", gallery, "--to", "web", web])
        try #require(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("removed location from 6 of 7 images (the default for a web gallery"), "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: web + "/images").sorted()
        let data = try String(contentsOfFile: web + "/assets/gallery-data.js", encoding: .utf8)
        for (index, type) in PrivacyPhotos.types.enumerated() {
            let published = web + "/images/" + names[index]
            let failure = try PrivacyPhotos.judge(try PrivacyPhotos.photo(type), published, scopes: ["location"])
            #expect(failure == nil, "\(type): \(failure ?? "")")
            let bytes = try FileBytes.read(published)
            #expect(data.contains("\"bytes\": \(bytes.count), \"sha256\": \"\(SHA256Hasher.of(bytes).hex)\""),
                    "the data gives the published file's own size and digest")
        }
    }

    @Test func stripNonePublishesTheOriginals() throws {
        let gallery = try PrivacyPhotos.gallery(in: directory)
        let web = directory.file("web")
        let result = try Subprocess.imagegallery(["convert", gallery, "--to", "web", "--strip", "none", web])
        try #require(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("removed"))
        #expect(try FileBytes.read(web + "/images/001.jpg") == FileBytes.read(try PrivacyPhotos.photo("jpg")))
    }

    @Test func aFolderAndAComicStripOnlyWhenAsked() throws {
        let gallery = try PrivacyPhotos.gallery(in: directory)
        let kept = directory.file("kept")
        #expect(try Subprocess.imagegallery(["convert", gallery, "--to", "images", kept]).status == 0)
        #expect(try FileBytes.read(kept + "/001-private.jpg") == FileBytes.read(try PrivacyPhotos.photo("jpg")))

        let folder = directory.file("shared")
        let result = try Subprocess.imagegallery(["convert", gallery, "--to", "images", "--strip", "all", folder])
        try #require(result.status == 0, "\(result.stderr)")
        let failure = try PrivacyPhotos.judge(try PrivacyPhotos.photo("heic"), folder + "/006-private.heic", scopes: ["all"])
        #expect(failure == nil, "\(failure ?? "")")

        let comic = directory.file("trip.cbz")
        #expect(try Subprocess.imagegallery(["convert", gallery, "--strip", "identity", comic]).status == 0)
        let unpacked = directory.file("comic")
        #expect(try Subprocess.run("/usr/bin/unzip", ["-q", comic, "-d", unpacked]).status == 0)
        let page = try #require(try FileManager.default.contentsOfDirectory(atPath: unpacked).sorted().first { $0.hasSuffix(".jpg") })
        let verdict = try PrivacyPhotos.judge(try PrivacyPhotos.photo("jpg"), unpacked + "/" + page, scopes: ["location", "identity"])
        #expect(verdict == nil, "\(verdict ?? "")")
        let info = try String(contentsOfFile: unpacked + "/ComicInfo.xml", encoding: .utf8)
        let size = try FileBytes.read(unpacked + "/" + page).count
        #expect(info.contains("ImageSize=\"\(size)\""), "ComicInfo gives the stripped page's size")
    }

    @Test func aBadStripValueIsAUsageError() throws {
        let result = try Subprocess.imagegallery(["convert", TestPaths.fixture("valid/three.imagegallery"), "--to", "web",
                                                  "--strip", "gps", directory.file("web")])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--strip gps: choose location, identity, all or none"))
    }
}
