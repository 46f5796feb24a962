import Foundation
import GalleryTestSupport
import Testing

/// `strip` through the built program (issue 32), on photos of all six types made by exiftool,
/// with exiftool and the reference decoders as judges: nothing of the scope is left, orientation
/// and the profile stay, and every pixel decodes as before.
@Suite("strip")
struct StripCommandTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// The gallery's images, extracted after the command ran on it.
    func extracted(_ gallery: String) throws -> [String: String] {
        let folder = directory.file("out-" + URL(fileURLWithPath: gallery).lastPathComponent)
        let result = try Subprocess.imagegallery(["extract", gallery, "--to", folder])
        try #require(result.status == 0, "\(result.stderr)")
        var byType: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.contains("private.") {
            byType[String(name.split(separator: ".").last!)] = folder + "/" + name
        }
        return byType
    }

    @Test(arguments: [(["--location"], ["location"]), (["--location", "--identity"], ["location", "identity"]),
                      (["--all-metadata"], ["all"])])
    func everyTypeLosesWhatWasAskedAndKeepsItsPixels(flags: [String], scopes: [String]) throws {
        let gallery = try PrivacyPhotos.gallery(in: directory)
        let result = try Subprocess.imagegallery(["strip"] + flags + ["--json", gallery])
        try #require(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let changed = try #require((report["metadata"] as? [String: Any])?["changed"] as? [[String: Any]])
        #expect(changed.map { $0["position"] as? Int } == [1, 2, 3, 4, 5, 6], "the plain JPEG (7) is not touched")
        let images = try extracted(gallery)
        #expect(images.count == 6)
        for type in PrivacyPhotos.types {
            let failure = try PrivacyPhotos.judge(try PrivacyPhotos.photo(type), try #require(images[type]), scopes: scopes)
            #expect(failure == nil, "\(type): \(failure ?? "")")
        }
        let validated = try Subprocess.imagegallery(["validate", "--deep", gallery])
        #expect(validated.status == 0, "\(validated.stdout)")
    }

    @Test func locationIsTheDefaultAndTheOutputSaysWhatWasRemoved() throws {
        let gallery = try PrivacyPhotos.gallery(in: directory)
        let before = try Subprocess.imagegallery(["list", "--json", gallery]).stdout
        let result = try Subprocess.imagegallery(["strip", gallery])
        try #require(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("removed location from 6 of 7 images"), "\(result.stdout)")
        #expect(result.stdout.contains("EXIF GPS") && result.stdout.contains("IPTC City"))
        let after = try Subprocess.imagegallery(["info", "--privacy", gallery]).stdout
        #expect(after.contains("0 of 7 images carry a location; 6 carry identity fields"), "\(after)")
        // Ids, order, names and captions stay; only the digests and sizes of the six change.
        let rows = { (text: String) in try (JSONSerialization.jsonObject(with: Data(text.utf8)) as! [[String: Any]]) }
        let (old, new) = (try rows(before), try rows(try Subprocess.imagegallery(["list", "--json", gallery]).stdout))
        #expect(old.map { $0["id"] as! String } == new.map { $0["id"] as! String })
        #expect(old.map { $0["filename"] as? String } == new.map { $0["filename"] as? String })
        #expect(zip(old, new).filter { $0["sha256"] as! String != $1["sha256"] as! String }.count == 6)
        #expect(result.stdout.contains("no earlier version of this gallery is kept on this machine"),
                "the output says where the originals still are: \(result.stdout)")
        let purged = try Subprocess.imagegallery(["versions", "--purge", "--json", gallery])
        #expect(purged.status == 0 && purged.stdout.contains("\"purged\""), "\(purged.stderr)")
        let again = try Subprocess.imagegallery(["strip", gallery])
        #expect(again.stdout.contains("nothing to change"), "a second strip finds nothing: \(again.stdout)")
    }

    @Test func namesBecomeNeutral() throws {
        let gallery = try PrivacyPhotos.gallery(in: directory)
        let result = try Subprocess.imagegallery(["strip", "--names", "--json", gallery])
        try #require(result.status == 0, "\(result.stderr)")
        let rows = try JSONSerialization.jsonObject(with: try Subprocess.imagegallery(["list", "--json", gallery]).stdoutData) as! [[String: Any]]
        #expect(rows.map { $0["filename"] as? String } == ["001.jpg", "002.png", "003.webp", "004.gif", "005.avif", "006.heic", "007.jpg"])
        #expect(try Subprocess.imagegallery(["info", "--privacy", gallery]).stdout.contains("6 of 7 images carry a location"),
                "--names alone keeps the metadata")
    }

    @Test func aBrokenImageIsLeftAsItIsAndNamed() throws {
        let fixture = try directory.copy(TestPaths.fixture("invalid/privacy/IG-PRV-003-exif-directory-outside.imagegallery"))
        let result = try Subprocess.imagegallery(["strip", fixture])
        #expect(result.status == 0)
        #expect(result.stderr.contains("image 1 left as it was") && result.stderr.contains("outside the block"), "\(result.stderr)")
    }

    /// A manifest that claims a blob of 2^53 − 1 bytes: nothing is reserved on its word (the
    /// hostile-commands harness found `strip` trapping there).
    @Test func aClaimedHugeBlobEndsCleanly() throws {
        let fixture = try directory.copy(TestPaths.fixture("hostile/m-int-20-byteSize-9007199254740991.imagegallery"))
        for arguments in [["strip", "--location", "--identity", fixture], ["info", "--privacy", fixture]] {
            let result = try Subprocess.imagegallery(arguments)
            #expect(result.status == 0 || result.status == 65, "\(arguments[0]): \(result.status) \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"))
        }
    }

    @Test func privacyReportsReadTheImagesInTextAndJSON() throws {
        let gallery = try PrivacyPhotos.gallery(in: directory)
        let plain = try Subprocess.imagegallery(["info", "--json", gallery])
        #expect(!plain.stdout.contains("privacy"), "plain info stays as it is")
        let info = try Subprocess.imagegallery(["info", "--privacy", "--json", gallery])
        let json = try #require(try JSONSerialization.jsonObject(with: info.stdoutData) as? [String: Any])
        let privacy = try #require(json["privacy"] as? [String: Any])
        #expect(privacy["withLocation"] as? Int == 6 && privacy["withIdentity"] as? Int == 6 && privacy["images"] as? Int == 7)
        let list = try Subprocess.imagegallery(["list", "--privacy", "--json", gallery])
        let rows = try #require(try JSONSerialization.jsonObject(with: list.stdoutData) as? [[String: Any]])
        #expect(rows.count == 7)
        let jpeg = rows[0]
        #expect((jpeg["location"] as? [String])?.contains("IPTC City") == true)
        #expect((jpeg["identity"] as? [String])?.contains("EXIF LensSerialNumber") == true)
        #expect(jpeg["captureTime"] as? String == "2024:05:01 12:34:56")
        #expect(jpeg["filename"] as? String == "private.jpg")
        #expect((rows[6]["location"] as? [String]) == [], "the plain JPEG carries nothing")
        let text = try Subprocess.imagegallery(["list", "--privacy", gallery]).stdout
        #expect(text.contains("6 of 7 images carry a location; 6 carry identity fields; 7 keep their original file names"))
    }
}
