import Foundation
import GalleryFormat
@testable import GalleryImageHeaders
@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// Phones store photos as HEIC grids of 512 × 512 tiles, which libheif 1.15 decodes only whole;
/// `HEIFDecoder+Grid` decodes them a row of tiles at a time, each tile handed to libheif as a file
/// of its own (issue 28, item 4). The grids here are laid out as an iPhone lays out its files
/// (hidden tiles, the grid's data in `idat`, `irot` and `imir` on the grid item) by
/// scripts/make-grid-heic.py from tiles heif-enc coded; heif-convert, which decodes the grid
/// whole and applies its transforms, is the reference. AVIF grids are walked the same way
/// through libavif (`AVIFDecoder+Grid`), with avifdec's whole decode as their reference.
@Suite("HEIC grids, tile by tile")
struct HEICGridTests {
    struct Variant: Sendable, CustomStringConvertible {
        var width: Int
        var height: Int
        var options: [String] = []
        /// An nclx `colr` on the grid item alone (matrix, full range), as phones tag the grid
        /// and not the tiles: libheif 1.15 converts a grid's tiles with their own description
        /// (none here), and the tiles decoded one by one must come out as the whole grid does.
        var colour: (matrix: Int, fullRange: Bool)?
        /// An AVIF grid (tiles coded by heif-enc's AV1 encoder), decoded by libavif; its reference
        /// is avifdec's whole decode, which applies no transform, so the rows are compared as stored.
        var avif = false
        var description: String {
            "\(avif ? "AVIF" : "HEIC") \(width)×\(height) \(options.joined(separator: " "))" + (colour.map { " nclx \($0)" } ?? "")
        }
    }

    static let variants = [
        Variant(width: 1100, height: 700),
        Variant(width: 1100, height: 700, options: ["--irot", "1"]),
        Variant(width: 700, height: 1030, options: ["--tile", "256", "--irot", "3", "--imir", "1"]),
        Variant(width: 512, height: 1024, options: ["--imir", "0"]),
        Variant(width: 1100, height: 700, colour: (9, false)),
        Variant(width: 1100, height: 700, options: ["--avif", "--irot", "1"], avif: true),
        Variant(width: 700, height: 1030, options: ["--avif", "--tile", "256"], avif: true),
    ]

    static func make(_ variant: Variant, in folder: TemporaryDirectory) throws -> (heic: String, reference: String) {
        for tool in ["/usr/bin/heif-enc", "/usr/bin/heif-convert", "/usr/bin/avifdec"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw MissingTestInput(description: "\(tool) is not installed: scripts/install-deps test installs it")
        }
        let (heic, reference) = (folder.file(variant.avif ? "grid.avif" : "grid.heic"), folder.file("reference.png"))
        let made = try Subprocess.run("/usr/bin/python3", [TestPaths.repository + "/scripts/make-grid-heic.py", heic,
                                                           String(variant.width), String(variant.height)] + variant.options)
        try #require(made.status == 0, "make-grid-heic.py: \(made.stderr)")
        if let colour = variant.colour {
            let written = try Subprocess.run("/usr/bin/python3", [TestPaths.repository + "/scripts/heif-colour.py", heic, heic,
                                                                  String(colour.matrix), colour.fullRange ? "1" : "0"])
            try #require(written.status == 0, "heif-colour.py: \(written.stderr)")
        }
        // libheif 1.15 reads imir's axis the other way round from the final HEIF text (as libavif
        // 0.11 does, Specs/security.md 3.2.1): its reference is made without the imir, which the
        // test then applies as the final text says.
        let unmirrored = folder.file("unmirrored.heic")
        let strip = "import importlib.util, sys; spec = importlib.util.spec_from_file_location('h', sys.argv[1]); "
            + "h = importlib.util.module_from_spec(spec); spec.loader.exec_module(h); "
            + "f = h.Heif.parse(open(sys.argv[2], 'rb').read()); item = f.items[f.primary]; "
            + "item.props = [(p, e) for p, e in item.props if p[4:8] != b'imir']; open(sys.argv[3], 'wb').write(f.build())"
        let stripped = try Subprocess.run("/usr/bin/python3", ["-c", strip, TestPaths.repository + "/scripts/make-hostile-images.py",
                                                               heic, unmirrored])
        try #require(stripped.status == 0, "\(stripped.stderr)")
        let converted = variant.avif ? try Subprocess.run("/usr/bin/avifdec", [heic, reference])
            : try Subprocess.run("/usr/bin/heif-convert", [unmirrored, reference])
        try #require(converted.status == 0, "\(converted.stderr)")
        return (heic, reference)
    }

    @Test(arguments: variants)
    func theTilesComeOutAsHeifConvertShowsTheGrid(_ variant: Variant) throws {
        let folder = try TemporaryDirectory()
        let (heic, reference) = try Self.make(variant, in: folder)
        let bytes = try FileBytes.read(heic)
        let geometry = try ImageGeometry.heif(size: UInt64(bytes.count), read: bytes.bytes(at:count:)).0
        let grid = variant.avif ? try AVIFDecoder.gridLayout(of: bytes, geometry: geometry)
            : try HEIFDecoder.gridLayout(of: bytes, geometry: geometry)
        try #require(grid != nil, "not decoded tile by tile")
        #expect(grid?.width == variant.width && grid?.height == variant.height)

        var pixels: [UInt8] = []
        let decoded = variant.avif ? try AVIFDecoder.decodeRows(bytes) { pixels.append(contentsOf: $0) }
            : try HEIFDecoder.decodeRows(bytes) { pixels.append(contentsOf: $0) }
        let stored = Bitmap(width: variant.width, height: variant.height, pixels: pixels)
        let upright = variant.avif ? stored : stored.upright(decoded)
        var expected = try PNGDecoder.decode(try FileBytes.read(reference))
        if !variant.avif, let mirror = decoded.mirror {
            // The final text: axis 0 is a vertical axis (left and right swap), 1 a horizontal one.
            expected = expected.oriented(mirror == .vertical ? .upMirrored : .downMirrored)
        }
        try #require(upright.width == expected.width && upright.height == expected.height,
                     "\(upright.width)×\(upright.height), reference \(expected.width)×\(expected.height)")
        let tileWidth = grid?.tileWidth ?? 1, tileHeight = grid?.tileHeight ?? 1
        var total = 0, largest = 0, awayFromSeams = 0
        for index in stride(from: 0, to: expected.pixels.count, by: 4) {
            var worst = 0
            for channel in 0 ..< 3 {
                let difference = abs(Int(upright.pixels[index + channel]) - Int(expected.pixels[index + channel]))
                total += difference
                worst = max(worst, difference)
            }
            largest = max(largest, worst)
            let (x, y) = (index / 4 % expected.width, index / 4 / expected.width)
            let seam = [x % tileWidth, (x + 1) % tileWidth, y % tileHeight, (y + 1) % tileHeight].contains(0)
                || x == expected.width - 1 || y == expected.height - 1
            if worst > 3 && !seam { awayFromSeams += 1 }
        }
        let mean = Double(total) / Double(expected.width * expected.height * 3)
        // A tile out of place, a wrong crop or a wrong turn is off by tens of levels.
        if variant.avif {
            // libavif converts a grid's YUV to RGB whole, its chroma upsampled across the tiles'
            // seams; a tile converted alone takes its own edge samples there. That shows only on
            // the pixel columns and rows either side of a seam, where a sharp edge meets it.
            let report = "\(variant): mean difference \(mean), largest \(largest), \(awayFromSeams) pixels off by more than 3 "
                + "away from a seam"
            #expect(mean < 0.1 && awayFromSeams == 0, "\(report)")
        } else {
            #expect(mean < 0.5 && largest <= 3, "\(variant): mean difference \(mean), largest \(largest)")
        }
    }

    /// A row of tiles is what is held: a grid decodes within a budget that the same image,
    /// decoded whole, passes many times over.
    @Test func aGridDecodesWithinARowOfTilesBudget() throws {
        let folder = try TemporaryDirectory()
        let (heic, _) = try Self.make(Variant(width: 3000, height: 2000), in: folder)
        let bytes = try FileBytes.read(heic)
        let geometry = try ImageGeometry.heif(size: UInt64(bytes.count), read: bytes.bytes(at:count:)).0
        let grid = try #require(try HEIFDecoder.gridLayout(of: bytes, geometry: geometry))
        let budget = HEIFDecoder.gridMemory(grid, bitsPerSample: geometry.bitsPerSample, byteCount: bytes.count)
        let whole = HEIFDecoder.bandedMemory(width: 3000, height: 2000, bitsPerSample: geometry.bitsPerSample, byteCount: bytes.count)
        #expect(budget * 4 < whole, "a row of tiles \(budget >> 20) MiB, whole \(whole >> 20) MiB")
        var rows = 0
        _ = try HEIFDecoder.decodeRows(bytes, limits: DecodeLimits(maxBytes: budget)) { row in
            #expect(row.count == 3000 * 4)
            rows += 1
        }
        #expect(rows == 2000)
    }
}
