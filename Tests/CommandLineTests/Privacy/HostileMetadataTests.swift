import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// The hostile corpus's metadata family (`Fixtures/hostile/e-*`: directory loops, offsets past
/// the end, counts that overflow, malformed and pathologically deep XMP, extended XMP that
/// declares 100 MB, HEIF metadata items that overlap the picture, the boxes or each other):
/// `info --privacy`, `list --privacy` and `strip` end cleanly under 256 MiB, and a strip either
/// changes only what it should (the gallery still validates) or leaves the image as it was and
/// says why.
@Suite("Hostile metadata")
struct HostileMetadataTests {
    static let galleries = ((try? FileManager.default.contentsOfDirectory(atPath: TestPaths.fixture("hostile"))) ?? [])
        .filter { $0.hasPrefix("e-") && $0.hasSuffix(".imagegallery") }.sorted()

    @Test func theFamilyIsThere() {
        #expect(Self.galleries.count >= 30)
    }

    @Test(arguments: galleries)
    func everyCommandEndsCleanlyWithinTheCap(name: String) throws {
        let directory = try TemporaryDirectory()
        let original = TestPaths.fixture("hostile/" + name)
        for arguments in [["info", "--privacy", "--json", original], ["list", "--privacy", "--json", original]] {
            let (result, mebibytes) = try Subprocess.imagegalleryPeakMemory(arguments)
            #expect(result.status == 0 || result.status == 65, "\(arguments[0]): exit \(result.status): \(result.stderr)")
            #expect(mebibytes < 256, "\(arguments[0]): \(mebibytes) MiB")
        }
        let valid = GalleryValidator.validate(path: original).isValid
        for flags in [["--location", "--identity"], ["--all-metadata"]] {
            let copy = try directory.copy(original, as: "copy.imagegallery")
            defer { try? FileManager.default.removeItem(atPath: copy) }
            let before = try? GalleryReader(path: copy).gallery
            let (result, mebibytes) = try Subprocess.imagegalleryPeakMemory(["strip"] + flags + ["--json", copy])
            #expect(mebibytes < 256, "strip: \(mebibytes) MiB")
            #expect(result.status == 0 || result.status == 65, "strip \(flags): exit \(result.status): \(result.stderr)")
            // A gallery the document layer refuses to open is refused; one it opens is stripped.
            guard let before, result.status == 0 else {
                #expect(before == nil || !valid, "a valid gallery is stripped: \(result.stderr)")
                continue
            }
            let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
            let left = ((report["metadata"] as? [String: Any])?["left"] as? [[String: Any]]) ?? []
            let after = try GalleryReader(path: copy).gallery
            for entry in left {
                let position = try #require(entry["position"] as? Int)
                #expect(after.images[position - 1].sha256 == before.images[position - 1].sha256,
                        "an image left as it was keeps its bytes")
                #expect((entry["reason"] as? String)?.isEmpty == false)
            }
            #expect(GalleryValidator.validate(path: copy).isValid == valid, "\(name): strip \(flags) changed the verdict")
        }
    }
}
