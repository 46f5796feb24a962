import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// Issue 28, item 3: an AVIF or HEIC whose `ispe` says 65535 × 65535 over a small coded image
/// went into the manifest with that shape and passed `validate --deep` (as past the pixel
/// limit). The header readers now hold the declared size to the codec's own (IG-BLB-019), at
/// `create`, `add` and `validate`; files as phones and encoders write them still pass, decoded.
@Suite("Declared sizes the coded image contradicts, in the commands")
struct DeclaredSizeCommandTests {
    /// `name` of `folder` with its only `ispe` of `from` made to say 65535 × 65535.
    static func lie(_ fixture: String, _ from: (Int, Int), in folder: TemporaryDirectory, as name: String) throws -> String {
        func be32(_ value: Int) -> [UInt8] { (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        var bytes = try FileBytes.read(TestPaths.fixture(fixture))
        let old = Array("ispe".utf8) + [0, 0, 0, 0] + be32(from.0) + be32(from.1)
        let starts = (0 ..< bytes.count - old.count).filter { Array(bytes[$0 ..< $0 + old.count]) == old }
        try #require(starts.count == 1, "\(fixture): \(starts.count) ispe of \(from)")
        bytes.replaceSubrange(starts[0] + 8 ..< starts[0] + 16, with: be32(65_535) + be32(65_535))
        let path = folder.file(name)
        try FileBytes.write(bytes, to: path)
        return path
    }

    @Test func createAndAddRefuseAnISPEThatTheCodedImageContradicts() throws {
        let folder = try TemporaryDirectory()
        let heic = try Self.lie("format-2.0/sunset.heic", (800, 600), in: folder, as: "lie.heic")
        let avif = try Self.lie("format-2.0/sunset.avif", (800, 600), in: folder, as: "lie.avif")
        for (path, codec) in [(heic, "HEVC sequence parameter set"), (avif, "AV1 sequence header")] {
            let gallery = folder.file(URL(fileURLWithPath: path).lastPathComponent + ".imagegallery")
            let created = try Subprocess.imagegallery(["create", gallery, path])
            #expect(created.status == 65, "\(path): exit \(created.status), \(created.stderr)")
            #expect(created.stderr.contains(path) && created.stderr.contains("IG-BLB-019")
                && created.stderr.contains("65535 × 65535") && created.stderr.contains(codec), "\(created.stderr)")
            #expect(!FileManager.default.fileExists(atPath: gallery))
        }
        let gallery = folder.file("g.imagegallery")
        #expect(try Subprocess.imagegallery(["create", gallery, TestPaths.fixture("format-2.0/sunset.heic")]).status == 0)
        let added = try Subprocess.imagegallery(["add", gallery, heic])
        #expect(added.status == 65 && added.stderr.contains("IG-BLB-019"), "exit \(added.status), \(added.stderr)")
        #expect(try GalleryReader(path: gallery).gallery.images.count == 1)
    }

    /// The hostile corpus's gallery that holds sunset.heic with an ispe of 65535 × 65535 (stored
    /// as 1 × 1 in its manifest): invalid without --deep, and with it.
    @Test func validateReportsTheContradictionWithItsID() throws {
        let gallery = TestPaths.fixture("hostile/i-heic-ispe-65535-heic.imagegallery")
        for deep in [false, true] {
            let result = try Subprocess.imagegallery(["validate"] + (deep ? ["--deep"] : []) + [gallery])
            let output = result.stdout + result.stderr
            #expect(result.status == 1, "deep \(deep): exit \(result.status), \(output)")
            #expect(output.contains("IG-BLB-019") && output.contains("its HEVC sequence parameter set (hvcC) codes 800 × 600"),
                    "deep \(deep): \(output)")
        }
    }

    /// Odd sizes, 4:4:4, a 3 × 5 picture, 4:2:0 padding, clap, rotation, a 12 MP grid: taken,
    /// stored with their ispe size, and decoded by --deep to it.
    @Test func filesAsEncodersAndPhonesWriteThemAreTakenAndDecode() throws {
        let folder = try TemporaryDirectory()
        let names = try FileManager.default.contentsOfDirectory(atPath: TestPaths.fixture("coded-size"))
            .filter { !$0.hasSuffix(".md") }.sorted()
        #expect(names.count == 9)
        let gallery = folder.file("phones.imagegallery")
        let created = try Subprocess.imagegallery(["create", gallery] + names.map { TestPaths.fixture("coded-size/" + $0) })
        #expect(created.status == 0, "\(created.stderr)")
        let images = try GalleryReader(path: gallery).gallery.images
        #expect(images.map { "\($0.width)x\($0.height)" }
            == ["333x217", "334x218", "4032x3024", "333x217", "333x217", "333x217", "333x217", "333x217", "3x5"])
        let deep = try Subprocess.imagegallery(["validate", "--deep", gallery])
        #expect(deep.status == 0, "\(deep.stdout)\(deep.stderr)")
        #expect(!(deep.stdout + deep.stderr).contains("IG-BLB-016") && !(deep.stdout + deep.stderr).contains("IG-BLB-015"),
                "\(deep.stdout)\(deep.stderr)")
        // A large image whose declared size is its coded size stays valid past a decode limit:
        // the 12 MP grid under a 10-megapixel limit is IG-BLB-009, a warning, not IG-BLB-019.
        let limited = try Subprocess.imagegallery(["validate", "--deep", "--max-pixels", "10000000", gallery])
        let said = limited.stdout + limited.stderr
        #expect(limited.status == 0 && said.contains("IG-BLB-009") && said.contains("4032×3024") && !said.contains("IG-BLB-019"),
                "\(said)")
    }
}
