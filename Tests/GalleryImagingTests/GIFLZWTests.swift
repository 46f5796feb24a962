import Foundation
@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// The first frame's LZW is decoded by our own (`GIFDecoder.LZW`), not giflib's `DGifGetLine`.
/// Pictures written by Pillow, an encoder people use, must come out as Pillow reads them, in
/// each layout it writes; streams written here reach what Pillow's encoder never writes (a
/// full table kept without a clear, a string code at once after a clear); damage is an error
/// that names it, where giflib read garbage.
@Suite("GIF LZW")
struct GIFLZWTests {
    struct Variant: Sendable, CustomTestStringConvertible {
        var name: String
        var width: Int, height: Int
        var colours: Int
        var interlace: Bool
        var testDescription: String { name }
    }

    static let variants = [
        Variant(name: "grain, 256 colours, interlaced", width: 301, height: 203, colours: 256, interlace: true),
        Variant(name: "grain, 256 colours, progressive", width: 301, height: 203, colours: 256, interlace: false),
        Variant(name: "two colours", width: 97, height: 61, colours: 2, interlace: false),
        Variant(name: "five colours, interlaced", width: 64, height: 40, colours: 5, interlace: true),
        Variant(name: "one row", width: 700, height: 1, colours: 16, interlace: false),
    ]

    /// A gradient with per-pixel grain, quantised by Pillow to `colours` and saved as a GIF;
    /// Pillow's own reading of it as RGBA beside it.
    static let pillow = """
        import random, sys
        from PIL import Image
        width, height, colours, interlace = (int(value) for value in sys.argv[1:5])
        random.seed(34)
        picture = Image.new("RGB", (width, height))
        picture.putdata([(min(255, max(0, x * 255 // width + random.randint(-12, 12))),
                          min(255, max(0, y * 255 // max(height, 2) + random.randint(-12, 12))),
                          random.randint(0, 255)) for y in range(height) for x in range(width)])
        picture.quantize(colors=colours).save(sys.argv[5], interlace=bool(interlace), optimize=False)
        Image.open(sys.argv[5]).convert("RGBA").save(sys.argv[6])
        """

    @Test(arguments: variants)
    func pillowsGIFsComeOutAsPillowReadsThem(_ variant: Variant) throws {
        let folder = try TemporaryDirectory()
        let (gif, reference) = (folder.file("in.gif"), folder.file("reference.png"))
        let made = try Subprocess.run("/usr/bin/python3", ["-c", Self.pillow, String(variant.width), String(variant.height),
                                                           String(variant.colours), variant.interlace ? "1" : "0", gif, reference])
        try #require(made.status == 0, "Pillow: \(made.stderr)")
        let bytes = try FileBytes.read(gif)
        let expected = try PNGDecoder.decode(try FileBytes.read(reference))
        let frame = try GIFDecoder.decode(bytes)
        #expect(frame.bitmap.width == variant.width && frame.bitmap.height == variant.height)
        #expect(frame.bitmap.pixels == expected.pixels, "\(variant.name)")
        // The rows as a thumbnail takes them, from the indices or from the screen.
        var rows: [UInt8] = []
        _ = try GIFDecoder.decodeRows(bytes) { rows += $0 }
        #expect(rows == expected.pixels, "\(variant.name), row by row")
    }

    /// A one-frame GIF of `width` × `height` whose data is `codes`, each `bits` wide as given,
    /// packed least significant bit first into sub-blocks of 255, on a 4-colour grey table.
    static func gif(width: Int, height: Int, rootBits: Int, codes: [(code: Int, bits: Int)]) -> [UInt8] {
        var packed: [UInt8] = [], accumulator = 0, filled = 0
        for (code, bits) in codes {
            accumulator |= code << filled
            filled += bits
            while filled >= 8 { packed.append(UInt8(accumulator & 0xFF)); accumulator >>= 8; filled -= 8 }
        }
        if filled > 0 { packed.append(UInt8(accumulator & 0xFF)) }
        var bytes: [UInt8] = Array("GIF89a".utf8) + [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0x81, 0, 0]
        bytes += [0, 0, 0, 85, 85, 85, 170, 170, 170, 255, 255, 255]
        bytes += [0x2C, 0, 0, 0, 0, UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0, UInt8(rootBits)]
        for start in stride(from: 0, to: packed.count, by: 255) {
            let block = packed[start ..< min(start + 255, packed.count)]
            bytes += [UInt8(block.count)] + block
        }
        bytes += [0, 0x3B]
        return bytes
    }

    /// LZW as the appendix has it, with the widths a decoder reads: a clear first, then no
    /// other, the full table kept at 12 bits to the end.
    static func encode(_ indices: [UInt8], rootBits: Int) -> [(code: Int, bits: Int)] {
        let clear = 1 << rootBits
        var table: [Int: Int] = [:], next = clear + 2, bits = rootBits + 1
        var codes: [(code: Int, bits: Int)] = [(clear, bits)]
        var current = Int(indices[0])
        for index in indices.dropFirst() {
            let key = current << 8 | Int(index)
            if let found = table[key] { current = found; continue }
            codes.append((current, bits))
            if next < 4096 { table[key] = next; next += 1 }
            // The decoder adds its entry one code later, and widens when its next reaches the width.
            if next - 1 >= 1 << bits, bits < 12 { bits += 1 }
            current = Int(index)
        }
        codes.append((current, bits))
        codes.append((clear + 1, bits))
        return codes
    }

    @Test func aFullTableIsKeptWithoutAClear() throws {
        var generator = SystemRandomNumberGenerator()
        let (width, height) = (256, 160)
        let indices = (0 ..< width * height).map { _ in UInt8.random(in: 0 ... 3, using: &generator) }
        let codes = Self.encode(indices, rootBits: 2)
        #expect(codes.count > 4096 + 8, "the stream must fill the table: \(codes.count) codes")
        let frame = try GIFDecoder.decode(Self.gif(width: width, height: height, rootBits: 2, codes: codes))
        let shown = stride(from: 0, to: frame.bitmap.pixels.count, by: 4).map { frame.bitmap.pixels[$0] / 85 }
        #expect(shown == indices)
    }

    @Test func damageIsNamed() throws {
        // Root 1, then code 7 where the table's next entry is 6: giflib read garbage for it.
        let past = Self.gif(width: 4, height: 1, rootBits: 2, codes: [(4, 3), (1, 3), (7, 3), (5, 3)])
        #expect { try GIFDecoder.decode(past) } throws: { ($0 as? ImageDecodeError)?.message.contains("past the table") == true }
        // A string code at once after the clear, before any root.
        let stringFirst = Self.gif(width: 4, height: 1, rootBits: 2, codes: [(4, 3), (6, 3), (5, 3)])
        #expect { try GIFDecoder.decode(stringFirst) } throws: { ($0 as? ImageDecodeError)?.message.contains("before any colour") == true }
        // The end code, and the data's end, before the last row.
        let ended = Self.gif(width: 4, height: 2, rootBits: 2, codes: [(4, 3), (1, 3), (2, 3), (5, 3)])
        #expect { try GIFDecoder.decode(ended) } throws: { ($0 as? ImageDecodeError)?.message.contains("before its last row") == true }
        let short = Self.gif(width: 4, height: 1, rootBits: 2, codes: [(4, 3), (1, 3)])
        #expect { try GIFDecoder.decode(short) } throws: { ($0 as? ImageDecodeError)?.message.contains("before its last row") == true }
        // The third entry added takes the codes to 4 bits.
        let sound = Self.gif(width: 4, height: 1, rootBits: 2, codes: [(4, 3), (1, 3), (2, 3), (3, 3), (0, 4), (5, 4)])
        #expect(try GIFDecoder.decode(sound).bitmap.pixels.enumerated().filter { $0.offset % 4 == 0 }.map { $0.element / 85 } == [1, 2, 3, 0])
    }
}
