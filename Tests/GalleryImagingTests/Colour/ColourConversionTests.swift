import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryImaging

/// Pictures made from profiled photos are in sRGB (issue 31, item 2): JPEG, PNG and WebP tagged
/// with Adobe RGB, ProPhoto, Wide Gamut, Apple RGB and Display P3; grey profiles; a CMYK JPEG
/// (Adobe's inverted ink) with a lookup-table profile built with Little CMS; AVIF with
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
        #expect(references.converted.count == 23)
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

    /// A 16-bit PNG in linear light (sRGB's primaries, a curve of gamma 1, a profile built with
    /// Little CMS) keeps its 16 bits into the conversion. Its dark stripes, 60, 130, 200 and 1000
    /// of 65,535, are 0, 1, 1 and 4 in 8 bits, which the sRGB curve would make 0, 13, 13 and 34;
    /// from 16 bits they are 3, 7, 10 and 33, the curve's values for the stripes themselves.
    @Test func sixteenBitSamplesKeepTheirPrecisionIntoTheConversion() throws {
        let made = try Subprocess.run("/usr/bin/python3", ["-c", """
            import struct, sys, zlib
            sys.path.insert(0, sys.argv[2])
            import profiled_images as p
            profile = p.built_profile(p.D65, [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)], [1, 1, 0, 0, 0])
            def chunk(kind, body):
                return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
            row = b"".join(struct.pack(">HHH", v, v, v) for v in (60, 130, 200, 1000) for _ in range(16))
            data = zlib.compress(b"".join(b"\\x00" + row for _ in range(64)))
            png = (b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 64, 64, 16, 2, 0, 0, 0))
                   + chunk(b"iCCP", b"linear\\x00\\x00" + zlib.compress(profile)) + chunk(b"IDAT", data) + chunk(b"IEND", b""))
            open(sys.argv[1], "wb").write(png)
            """, folder.file("linear16.png"), TestPaths.repository + "/Tests/Colour"])
        try #require(made.status == 0, "\(made.stderr)")
        let bitmap = try Thumbnailer.thumbnail(of: FileBytes.read(folder.file("linear16.png")), longSide: 32)
        let found = (0 ..< 4).map { Int(bitmap.pixels[(16 * bitmap.width + $0 * 8 + 4) * 4]) }
        let expected = [60, 130, 200, 1000].map { sample -> Int in
            let linear = Double(sample) / 65535
            let encoded = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
            return Int((encoded * 255).rounded())
        }
        #expect(expected == [3, 7, 10, 33])
        #expect(zip(found, expected).allSatisfy { abs($0 - $1) <= 1 }, "found \(found), expected \(expected)")
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
