import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryImaging

/// Pictures made from profiled photos are in sRGB (issue 31, item 2): JPEG, PNG and WebP tagged
/// with Adobe RGB, ProPhoto, Wide Gamut, Apple RGB and Display P3; grey profiles; AVIF with
/// Display P3 and BT.2020 code points (`avifenc --cicp`) and with a profile; HEIC with a
/// profile. Each thumbnail's flat patches are held to what Little CMS, through Pillow's
/// ImageCms, makes of the file's own numbers (Tests/Colour/profiled_images.py): a mean
/// CIEDE2000 of at most 1.0 and a maximum of 3.0. Descriptions that are sRGB's give the
/// untagged file's thumbnail byte for byte.
@Suite struct ColourConversionTests {
    struct References: Decodable {
        struct Converted: Decodable {
            var file: String
            var raw: [[Int]]
            var expected: [[Int]]
        }
        struct Unchanged: Decodable {
            var file: String
            var same_as: String
        }
        var centres: [[Int]]
        var converted: [Converted]
        var unchanged: [Unchanged]
    }

    let folder: TemporaryDirectory
    let references: References

    init() throws {
        folder = try TemporaryDirectory()
        let made = try Subprocess.run("/usr/bin/python3", [TestPaths.repository + "/Tests/Colour/profiled_images.py", folder.path])
        try #require(made.status == 0, "the profiled images could not be made: \(made.stderr)")
        references = try JSONDecoder().decode(References.self, from: Data(FileBytes.read(folder.file("references.json"))))
    }

    func thumbnail(_ name: String) throws -> Bitmap {
        try Thumbnailer.thumbnail(of: FileBytes.read(folder.file(name)), longSide: 128)
    }

    /// The colour at a source patch centre in a thumbnail of half the size, over 4 × 4 pixels.
    func colour(in bitmap: Bitmap, at centre: [Int]) -> [Int] {
        let (x, y) = (centre[0] / 2, centre[1] / 2)
        var sums = [0, 0, 0]
        for row in y - 2 ..< y + 2 {
            for column in x - 2 ..< x + 2 {
                for channel in 0 ..< 3 { sums[channel] += Int(bitmap.pixels[(row * bitmap.width + column) * 4 + channel]) }
            }
        }
        return sums.map { ($0 + 8) / 16 }
    }

    @Test func profiledPhotosComeOutInSRGB() throws {
        #expect(references.converted.count == 22)
        for file in references.converted {
            let bitmap = try thumbnail(file.file)
            try #require(bitmap.width == 128 && bitmap.height == 64, "\(file.file): \(bitmap.width)×\(bitmap.height)")
            let found = references.centres.map { colour(in: bitmap, at: $0) }
            let differences = zip(found, file.expected).map { ColourDifference.ciede2000($0, $1) }
            let mean = differences.reduce(0, +) / Double(differences.count)
            #expect(mean <= 1.0 && differences.max()! <= 3.0,
                    "\(file.file): ΔE2000 mean \(mean), max \(differences.max()!); found \(found), expected \(file.expected)")
            // The numbers read as sRGB are far off: without the conversion this test fails.
            let unconverted = zip(file.raw, file.expected).map { ColourDifference.ciede2000($0, $1) }.max()!
            #expect(unconverted > 3.0, "\(file.file): its profile barely changes these patches (ΔE2000 \(unconverted))")
        }
    }

    @Test func descriptionsThatAreSRGBChangeNothing() throws {
        #expect(references.unchanged.count == 6)
        for file in references.unchanged {
            #expect(try thumbnail(file.file) == thumbnail(file.same_as), "\(file.file) differs from \(file.same_as)")
        }
    }

    @Test func theOriginalNumbersAreKeptWhenAProfileCannotBeUsed() throws {
        // Adobe RGB with its tag count made hostile: read as sRGB, as the untagged file.
        let tagged = try FileBytes.read(folder.file("adobergb.png"))
        let profile = try FileBytes.read("/usr/share/color/icc/colord/AdobeRGB1998.icc")
        let plan = ColourPlan.of(tagged, as: .png)
        #expect(plan.transform != nil && plan.problem == nil)
        var broken = profile
        broken[128 ..< 132] = [0, 0, 0x13, 0x88]
        let brokenPNG = try PNGBytes.withICCProfile(broken, over: FileBytes.read(folder.file("untagged.png")))
        let refused = ColourPlan.of(brokenPNG, as: .png)
        #expect(refused.transform == nil && refused.problem?.contains("claims 5000 tags") == true, "\(refused.problem ?? "")")
        #expect(try Thumbnailer.thumbnail(of: brokenPNG, longSide: 128) == thumbnail("untagged.png"))
    }
}
