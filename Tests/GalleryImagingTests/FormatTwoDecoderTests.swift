import Foundation
import GalleryFormat
@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// Format 2.0's decoders against the samples other tools wrote (Fixtures/format-2.0): each
/// gives the pixels the library's own command-line tool gives (dwebp, avifdec, heif-convert;
/// Pillow for GIF), turns as the header says, and refuses damage and bombs with an error.
@Suite("WebP, GIF, AVIF and HEIC decoding")
struct FormatTwoDecoderTests {
    static func sample(_ name: String) throws -> [UInt8] { try FileBytes.read(TestPaths.fixture("format-2.0/" + name)) }

    static func decode(_ name: String, _ bytes: [UInt8], limits: DecodeLimits = DecodeLimits()) throws -> DecodedFrame {
        switch name.split(separator: ".").last {
        case "webp": try WebPDecoder.decode(bytes, limits: limits)
        case "gif": try GIFDecoder.decode(bytes, limits: limits)
        case "avif": try AVIFDecoder.decode(bytes, limits: limits)
        default: try HEIFDecoder.decode(bytes, limits: limits)
        }
    }

    /// The reference decoding of a sample, as a PNG written by the library's own tool.
    static func reference(_ name: String, in folder: TemporaryDirectory) throws -> Bitmap {
        let input = TestPaths.fixture("format-2.0/" + name), output = folder.file(name + ".png")
        // dwebp decodes no animation: Pillow (through libwebp's own animation decoder) does.
        let (tool, arguments): (String, [String]) = switch name.split(separator: ".").last {
        case "webp" where !name.hasPrefix("anim"): ("/usr/bin/dwebp", [input, "-o", output])
        case "avif": ("/usr/bin/avifdec", [input, output])
        case "heic": ("/usr/bin/heif-convert", [input, output])
        default: ("/usr/bin/python3", ["-c", "import sys; from PIL import Image; Image.open(sys.argv[1]).convert('RGBA').save(sys.argv[2])",
                                       input, output])
        }
        let path = tool
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw MissingTestInput(description: "\(tool) is not installed: scripts/install-deps test installs it")
        }
        let ran = try Subprocess.run(path, arguments)
        guard ran.status == 0 else { throw MissingTestInput(description: "\(tool) \(name) exited \(ran.status): \(ran.stderr)") }
        return try PNGDecoder.decode(try FileBytes.read(output))
    }

    /// Mean absolute difference of the colour of pixels both show, and whether alpha agrees.
    static func difference(_ a: Bitmap, _ b: Bitmap) -> (colour: Double, alphaAgrees: Bool) {
        var total = 0, counted = 0, alphaAgrees = true
        for index in stride(from: 0, to: a.pixels.count, by: 4) {
            if (a.pixels[index + 3] == 0) != (b.pixels[index + 3] == 0) { alphaAgrees = false }
            guard a.pixels[index + 3] > 0, b.pixels[index + 3] > 0 else { continue }
            for channel in 0 ..< 3 { total += abs(Int(a.pixels[index + channel]) - Int(b.pixels[index + channel])) }
            counted += 3
        }
        return (counted == 0 ? 0 : Double(total) / Double(counted), alphaAgrees)
    }

    @Test(arguments: ["lossy.webp", "lossless-alpha.webp", "anim.webp", "b.gif", "anim.gif", "sunset.avif", "bubbles.avif",
                      "grid.avif", "sunset.heic", "bubbles.heic"])
    func decodesAsTheLibrarysOwnToolDoes(_ name: String) throws {
        let folder = try TemporaryDirectory()
        let frame = try Self.decode(name, try Self.sample(name))
        let reference = try Self.reference(name, in: folder)
        #expect(frame.bitmap.width == frame.geometry.width && frame.bitmap.height == frame.geometry.height)
        try #require(frame.bitmap.width == reference.width && frame.bitmap.height == reference.height)
        let (colour, alphaAgrees) = Self.difference(frame.bitmap, reference)
        #expect(colour < 0.5, "\(name): mean difference \(colour) from the reference")
        #expect(alphaAgrees, "\(name): transparent pixels differ from the reference")
    }

    @Test func animationsAreCountedAndTheirFirstFrameShown() throws {
        for name in ["anim.webp", "anim.gif"] {
            let frame = try Self.decode(name, try Self.sample(name))
            #expect(frame.geometry.frameCount == 3, "\(name)")
            #expect(frame.bitmap.width == 400 && frame.bitmap.height == 300, "\(name)")
        }
        // Frame 1 is 1-sunset.jpg, frame 2 2-tiles.png: the first frame's colours, not the second's.
        let first = try GIFDecoder.decode(try Self.sample("anim.gif")).bitmap
        let sunset = try Thumbnailer.thumbnail(of: try FileBytes.read(TestPaths.fixture("images/1-sunset.jpg")), longSide: 400)
        #expect(sunset.width == 400 && sunset.height == 300)
        #expect(Self.difference(first, sunset).colour < 20)
    }

    /// `rotated.avif` is `sunset.png` with irot 1 (a quarter turn anticlockwise: the turned
    /// image's (x, y) is the stored (799 - y, x)) then imir axis 1 (top and bottom swap: (x, y)
    /// comes from (x, 799 - y)): upright it is 600 × 800, and its pixel (x, y) is sunset's
    /// (y, x), a transpose. Worked out here by hand, not by the code under test.
    @Test func irotAndImirTurnTheImageUpright() throws {
        let rotated = try AVIFDecoder.decode(try Self.sample("rotated.avif"))
        #expect(rotated.geometry.quarterTurns == 1 && rotated.geometry.mirror == .horizontal)
        let upright = rotated.bitmap.upright(rotated.geometry)
        #expect(upright.width == 600 && upright.height == 800)
        let sunset = try AVIFDecoder.decode(try Self.sample("sunset.avif")).bitmap
        var expected = [UInt8](repeating: 0, count: 600 * 800 * 4)
        for y in 0 ..< 800 {
            for x in 0 ..< 600 {
                let from = (x * 800 + y) * 4, to = (y * 600 + x) * 4
                for channel in 0 ..< 4 { expected[to + channel] = sunset.pixels[from + channel] }
            }
        }
        // Two encodings of one picture: close, not equal. A wrong turn differs by tens of levels.
        let (colour, _) = Self.difference(upright, Bitmap(width: 600, height: 800, pixels: expected))
        #expect(colour < 4, "mean difference \(colour) from sunset turned by hand")
    }

    @Test(arguments: ["lossy.webp", "lossless-alpha.webp", "anim.webp", "b.gif", "anim.gif", "sunset.avif", "grid.avif",
                      "sunset.heic", "bubbles.heic"])
    func truncationIsAnErrorNeverACrash(_ name: String) throws {
        let bytes = try Self.sample(name)
        for length in [bytes.count / 2, bytes.count - 1, 40] {
            #expect(throws: ImageDecodeError.self, "\(name) cut to \(length) bytes") {
                try Self.decode(name, Array(bytes.prefix(length)))
            }
        }
    }

    @Test func aLargeImageIsRefusedBeforeTheLibrarySeesIt() throws {
        let small = DecodeLimits(maxPixels: 100_000, maxWorkPixels: 100_000)
        for name in ["lossy.webp", "anim.webp", "b.gif", "sunset.avif", "sunset.heic"] {
            do {
                _ = try Self.decode(name, try Self.sample(name), limits: small)
                Issue.record("\(name) decoded past a limit of 100,000 pixels")
            } catch let error as ImageDecodeError {
                #expect(error.kind == .pastLimit && error.message.contains("past the limit"), "\(name): \(error.message)")
            }
        }
    }

    /// A GIF whose screen is 65,535 × 65,535 with a 1 × 1 frame: 4.3 billion pixels claimed.
    @Test func aGIFScreenBombIsRefused() throws {
        let gif: [UInt8] = Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
            + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0] + [2, 2, 0x44, 0x01, 0] + [0x3B]
        #expect(throws: ImageDecodeError.self) { try GIFDecoder.decode(gif) }
        // The same frame on a 1 × 1 screen decodes: what is refused is the claim.
        var sound = gif
        (sound[6], sound[7], sound[8], sound[9]) = (1, 0, 1, 0)
        #expect(try GIFDecoder.decode(sound).bitmap.width == 1)
    }

    @Test func aHEICIsNotDecodedAsAVIFNorTheOtherWay() throws {
        #expect(throws: ImageDecodeError.self) { try AVIFDecoder.decode(try Self.sample("sunset.heic")) }
        #expect(throws: ImageDecodeError.self) { try HEIFDecoder.decode(try Self.sample("sunset.avif")) }
    }

    /// Every `irot` (0 to 3 anticlockwise quarter turns) with every `imir` (none, axis 0: left and
    /// right swap, axis 1: top and bottom swap), written by avifenc around a lossless 8 × 4 image
    /// whose every pixel differs: the upright picture is exactly the stored one turned and
    /// mirrored as worked out here by index arithmetic, in the order the file lists them.
    @Test func everyTurnAndMirrorIsUpright() throws {
        let folder = try TemporaryDirectory()
        let (width, height) = (8, 4)
        var stored: [UInt8] = []
        for y in 0 ..< height {
            for x in 0 ..< width { stored += [UInt8(x * 30), UInt8(y * 60), 200, 255] }
        }
        let png = folder.file("m.png")
        try FileBytes.write(PNGEncoder.encode(width: width, height: height, layout: .rgba, pixels: stored), to: png)
        for turns in 0 ..< 4 {
            for axis in [nil, 0, 1] as [Int?] {
                let avif = folder.file("m-\(turns)-\(axis.map(String.init) ?? "none").avif")
                let arguments = ["-l", "--irot", String(turns)] + (axis.map { ["--imir", String($0)] } ?? []) + [png, avif]
                let made = try Subprocess.run("/usr/bin/avifenc", arguments)
                try #require(made.status == 0, "avifenc \(arguments): \(made.stderr)")
                let frame = try AVIFDecoder.decode(try FileBytes.read(avif))
                #expect(frame.bitmap.pixels.count == stored.count)
                // The stored image as a grid, turned and mirrored in the file's order.
                typealias Pixel = [UInt8]
                var grid: [[Pixel]] = (0 ..< height).map { y in
                    (0 ..< width).map { x in Array(stored[(y * width + x) * 4 ..< (y * width + x) * 4 + 4]) }
                }
                // A quarter turn anticlockwise: the new row r is the old column (width - 1 - r), top to bottom.
                func turn() {
                    let columns = grid[0].count
                    grid = (0 ..< columns).map { row -> [Pixel] in grid.map { line -> Pixel in line[columns - 1 - row] } }
                }
                func mirror() {
                    if axis == 0 { grid = grid.map { Array($0.reversed()) } }
                    if axis == 1 { grid = Array(grid.reversed()) }
                }
                if frame.geometry.mirroredFirst { mirror() }
                for _ in 0 ..< turns { turn() }
                if !frame.geometry.mirroredFirst { mirror() }
                let upright = frame.bitmap.upright(frame.geometry)
                #expect(upright.width == grid[0].count && upright.height == grid.count, "irot \(turns), imir \(String(describing: axis))")
                let expected: [UInt8] = grid.flatMap { line in line.flatMap { $0 } }
                #expect(upright.pixels == expected, "irot \(turns), imir \(String(describing: axis))")
            }
        }
    }

    /// An AVIF's thumbnail is made from its rows a band at a time; it is the thumbnail of the
    /// whole decoded image, filtered down and turned the same way (alpha included).
    @Test(arguments: ["sunset.avif", "rotated.avif", "bubbles.avif", "grid.avif"])
    func anAVIFThumbnailFromBandsIsTheWholeImagesThumbnail(_ name: String) throws {
        let bytes = try Self.sample(name)
        let banded = try Thumbnailer.thumbnail(of: bytes, longSide: 100)
        let whole = try AVIFDecoder.decode(bytes)
        let fitted = Resampler.fitting(width: whole.bitmap.width, height: whole.bitmap.height, longSide: 100)
        let expected = Resampler.resize(whole.bitmap, width: fitted.width, height: fitted.height).upright(whole.geometry)
        try #require(banded.width == expected.width && banded.height == expected.height)
        let (colour, alphaAgrees) = Self.difference(banded, expected)
        #expect(colour < 1 && alphaAgrees, "\(name): mean difference \(colour)")
    }

    /// A GIF's thumbnail is made from its rows as giflib gives them when the first frame covers
    /// the screen, from the composed screen otherwise (a 1 × 1 frame on a 4 × 3 screen here);
    /// either way it is the whole screen's thumbnail.
    @Test func aGIFThumbnailFromRowsIsTheWholeScreensThumbnail() throws {
        let partial: [UInt8] = Array("GIF89a".utf8) + [4, 0, 3, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
            + [0x2C, 1, 0, 1, 0, 1, 0, 1, 0, 0] + [2, 2, 0x44, 0x01, 0] + [0x3B]
        for (name, bytes) in [("b.gif", try Self.sample("b.gif")), ("anim.gif", try Self.sample("anim.gif")), ("partial", partial)] {
            let streamed = try Thumbnailer.thumbnail(of: bytes, longSide: 100)
            let whole = try GIFDecoder.decode(bytes).bitmap
            let fitted = Resampler.fitting(width: whole.width, height: whole.height, longSide: 100)
            let expected = Resampler.resize(whole, width: fitted.width, height: fitted.height)
            #expect(streamed == expected, "\(name)")
        }
    }
}
