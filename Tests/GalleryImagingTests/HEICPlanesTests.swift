import Foundation
import GalleryFormat
@testable import GalleryImageHeaders
@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// HEIC is decoded to planes (libheif's planar RGB or grey, 8 to 16 bits) that our code turns
/// into RGBA rows, so that a large photo is never held as RGBA whole: each layout heif-enc can
/// write must come out as heif-convert, which asks libheif for RGBA, shows it. The files are
/// written here, by heif-enc, from PNGs made byte by byte; odd sizes make heif-enc wrap the
/// image in a grid. heif-enc 1.15 writes no `colr` box, so scripts/heif-colour.py adds the nclx
/// one that says how the planes were coded: the planes must be converted with it, as RGBA is.
@Suite("HEIC planes read as libheif's RGBA")
struct HEICPlanesTests {
    /// A smooth picture (lossy coding keeps it close), `width` × `height`, 8 or 16 bits a sample,
    /// RGB or grey.
    static func picture(width: Int, height: Int, sixteenBits: Bool, grey: Bool) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0 ..< height {
            raw.append(0)
            for x in 0 ..< width {
                let red = x * 65535 / (width - 1), green = y * 65535 / (height - 1), blue = (width - x + y) * 65535 / (width + height)
                for sample in grey ? [(red + green) / 2] : [red, green, blue] {
                    raw += sixteenBits ? [UInt8(sample >> 8), UInt8(sample & 0xFF)] : [UInt8(sample >> 8)]
                }
            }
        }
        return PNGBytes.file(width: UInt32(width), height: UInt32(height), bitDepth: sixteenBits ? 16 : 8,
                             colourType: grey ? 0 : 2, chunks: [PNGBytes.chunk("IDAT", PNGBytes.zlibCompressed(raw))])
    }

    struct Variant: Sendable, CustomTestStringConvertible {
        var name: String
        var options: [String]
        var sixteenBits = false
        var grey = false
        /// The nclx matrix and range written into a colr box, as heif-enc coded the planes.
        var colour: (matrix: Int, fullRange: Bool)? = nil
        /// What the hvcC says, which sizes the decode's memory.
        var bits: Int { options.firstIndex(of: "-b").map { Int(options[$0 + 1])! } ?? 8 }
        var testDescription: String { name }
    }

    static let variants = [
        Variant(name: "4:2:0, full range, BT.601", options: []),
        Variant(name: "limited range", options: ["--full_range_flag", "0"], colour: (6, false)),
        Variant(name: "BT.709 matrix", options: ["--matrix_coefficients", "1"], colour: (1, true)),
        Variant(name: "BT.2020 matrix, limited range", options: ["--matrix_coefficients", "9", "--full_range_flag", "0"],
                colour: (9, false)),
        Variant(name: "4:2:2", options: ["-p", "chroma=422"]),
        Variant(name: "4:4:4", options: ["-p", "chroma=444"]),
        Variant(name: "10 bits", options: ["-b", "10"], sixteenBits: true),
        Variant(name: "12 bits, limited range", options: ["-b", "12", "--full_range_flag", "0"], sixteenBits: true,
                colour: (6, false)),
        Variant(name: "monochrome", options: [], grey: true),
        Variant(name: "lossless GBR", options: ["-L", "-p", "chroma=444", "--matrix_coefficients", "0"], colour: (0, true)),
    ]

    @Test(arguments: variants)
    func eachLayoutComesOutAsHeifConvertShowsIt(_ variant: Variant) throws {
        for tool in ["/usr/bin/heif-enc", "/usr/bin/heif-convert"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw MissingTestInput(description: "\(tool) is not installed: scripts/install-deps test installs it")
        }
        let folder = try TemporaryDirectory()
        let (png, heic, reference) = (folder.file("in.png"), folder.file("out.heic"), folder.file("reference.png"))
        try FileBytes.write(Self.picture(width: 97, height: 65, sixteenBits: variant.sixteenBits, grey: variant.grey), to: png)
        let encoded = try Subprocess.run("/usr/bin/heif-enc", variant.options + [png, "-o", heic])
        try #require(encoded.status == 0, "heif-enc \(variant.options): \(encoded.stderr)")
        if let colour = variant.colour {
            let written = try Subprocess.run("/usr/bin/python3", [TestPaths.repository + "/scripts/heif-colour.py", heic, heic,
                                                                  String(colour.matrix), colour.fullRange ? "1" : "0"])
            try #require(written.status == 0, "heif-colour.py: \(written.stderr)")
        }
        let converted = try Subprocess.run("/usr/bin/heif-convert", [heic, reference])
        try #require(converted.status == 0, "heif-convert: \(converted.stderr)")

        let bytes = try FileBytes.read(heic)
        #expect(try ImageHeader.parse(bytes).bitDepth == variant.bits)
        let frame = try HEIFDecoder.decode(bytes)
        let expected = try PNGDecoder.decode(try FileBytes.read(reference))
        try #require(frame.bitmap.width == expected.width && frame.bitmap.height == expected.height)
        var total = 0, largest = 0
        for index in stride(from: 0, to: expected.pixels.count, by: 4) {
            for channel in 0 ..< 3 {
                let difference = abs(Int(frame.bitmap.pixels[index + channel]) - Int(expected.pixels[index + channel]))
                total += difference
                largest = max(largest, difference)
            }
            #expect(frame.bitmap.pixels[index + 3] == 255)
        }
        let mean = Double(total) / Double(expected.width * expected.height * 3)
        // Rounding differs by a level here and there (libheif's integer paths); a wrong matrix,
        // range or chroma position is off by several levels on average and tens at most.
        #expect(mean < 0.5 && largest <= 3, "\(variant.name): mean difference \(mean), largest \(largest)")
    }
}
