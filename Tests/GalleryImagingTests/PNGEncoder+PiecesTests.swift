@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// A large image's rows are deflated in pieces on every core: the PNG must hold the same
/// pixels, carry the zlib header zlib writes, and a small image must stay one stream.
@Suite("PNG deflated in pieces")
struct PNGEncoderPiecesTests {
    /// A photo-like picture: gradients with grain, compressible but not flat.
    static func photo(width: Int, height: Int, opaque: Bool) -> Bitmap {
        var generator = SeededGenerator(seed: UInt64(width * height))
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let grain = Int.random(in: -8 ... 8, using: &generator)
                pixels += [UInt8(clamping: x * 255 / width + grain), UInt8(clamping: y * 255 / height + grain),
                           UInt8(clamping: 128 + grain), opaque ? 255 : UInt8(clamping: (x + y) % 256)]
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// The IDAT chunks' data, joined: the zlib stream.
    static func zlibStream(of png: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = []
        var offset = 8
        while offset + 8 <= png.count {
            let length = png[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if Array(png[offset + 4 ..< offset + 8]) == Array("IDAT".utf8) { stream += png[offset + 8 ..< offset + 8 + length] }
            offset += 12 + length
        }
        return stream
    }

    /// How many times a sync flush's empty stored block (00 00 FF FF) appears.
    static func syncFlushes(in stream: [UInt8]) -> Int {
        guard stream.count >= 4 else { return 0 }
        return (0 ..< stream.count - 3).count { stream[$0] == 0 && stream[$0 + 1] == 0 && stream[$0 + 2] == 0xFF && stream[$0 + 3] == 0xFF }
    }

    @Test(arguments: [(1024, 683, true), (600, 400, false), (256, 171, true)])
    func theSamePixelsComeBack(size: (Int, Int, Bool)) throws {
        let bitmap = Self.photo(width: size.0, height: size.1, opaque: size.2)
        let png = bitmap.png()
        #expect(try PNGDecoder.decode(png) == bitmap, "\(size.0) × \(size.1)")
        let stream = Self.zlibStream(of: png)
        #expect(Array(stream.prefix(2)) == [0x78, 0x01], "level 1's header")
        let filtered = size.1 * (size.0 * (size.2 ? 3 : 4) + 1)
        let pieces = (filtered + PNGEncoder.deflatePieceSize - 1) / PNGEncoder.deflatePieceSize
        if pieces >= 2 {
            // Every piece but the last ends on a byte boundary with a sync flush.
            #expect(Self.syncFlushes(in: stream) >= pieces - 1, "\(pieces) pieces")
        }
    }

    @Test func aSmallImageIsOneStream() {
        // A 256 px thumbnail, as `create` embeds it: one zlib stream, so no piece boundary.
        let png = Self.photo(width: 256, height: 171, opaque: true).png()
        #expect(Self.syncFlushes(in: Self.zlibStream(of: png)) == 0)
    }

    @Test func theHeaderIsZlibsForEveryLevel() {
        let written: [Int32: [UInt8]] = [0: [0x78, 0x01], 1: [0x78, 0x01], 2: [0x78, 0x5E], 5: [0x78, 0x5E],
                                         6: [0x78, 0x9C], 7: [0x78, 0xDA], 9: [0x78, 0xDA]]
        for (level, header) in written {
            #expect(PNGEncoder.zlibHeader(level: level) == header, "level \(level)")
        }
    }
}
