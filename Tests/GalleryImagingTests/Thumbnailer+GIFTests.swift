import GalleryFormat
@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// A GIF whose frame covers its screen, interlaced or not, reaches the filter as colour
/// indices, looked up on the filter's thread: the thumbnail must be the one its RGBA rows give,
/// and an index past the colour table must fail the decode as it does on the RGBA path.
@Suite("GIF thumbnails from colour indices")
struct ThumbnailerGIFTests {
    @Test(arguments: ["b.gif", "anim.gif"])
    func indicesGiveTheThumbnailTheirColoursGive(_ name: String) throws {
        let bytes = try FileBytes.read(TestPaths.fixture("format-2.0/" + name))
        let frame = try GIFDecoder.decode(bytes)
        let fitted = Resampler.fitting(width: frame.bitmap.width, height: frame.bitmap.height, longSide: 100)
        let fromColours = Resampler.resize(frame.bitmap, width: fitted.width, height: fitted.height)
        let resampler = Resampler(sourceWidth: frame.bitmap.width, sourceHeight: frame.bitmap.height,
                                  width: fitted.width, height: fitted.height)
        let geometry = try Thumbnailer.gifFromIndices(bytes, width: frame.bitmap.width, height: frame.bitmap.height,
                                                      limits: DecodeLimits(), resampler: resampler)
        #expect(geometry != nil, "\(name)'s first frame covers its screen: it must take the indexed path")
        #expect(resampler.finish().pixels == fromColours.pixels)
        #expect(try Thumbnailer.formatTwo(bytes, longSide: 100, limits: DecodeLimits()).pixels == fromColours.pixels)
    }

    /// A 2 × 1 GIF with a table of two colours whose second pixel is colour 3: its LZW codes
    /// (3 bits: clear, 0, 3, end) written by hand, since no encoder writes such a file.
    static let pastTheTable: [UInt8] = Array("GIF89a".utf8) + [2, 0, 1, 0, 0x80, 0, 0]
        + [0, 0, 0, 255, 255, 255]
        + [0x2C, 0, 0, 0, 0, 2, 0, 1, 0, 0]
        + [2, 2, 0xC4, 0x0A, 0, 0x3B]

    @Test func anIndexPastTheTableFailsBothPaths() throws {
        let expected = "the GIF's first image uses colour 3 of a table of 2"
        let paths: [() throws -> Void] = [{ _ = try GIFDecoder.decode(Self.pastTheTable) },
                                          { _ = try Thumbnailer.formatTwo(Self.pastTheTable, longSide: 256, limits: DecodeLimits()) }]
        for decode in paths {
            do {
                try decode()
                Issue.record("a colour past the table was decoded")
            } catch let error as ImageDecodeError {
                #expect(error.kind == .corrupt)
                #expect(error.detail.message == expected)
            }
        }
    }

    /// An interlaced frame takes the indexed path too, its indices held and each row handed on
    /// once every row above it is in: the thumbnail is the composed screen's.
    @Test func anInterlacedFrameGivesItsRowsInOrder() throws {
        // b.gif with its image descriptor's interlace flag set: the data's rows are read as passes.
        var bytes = try FileBytes.read(TestPaths.fixture("format-2.0/b.gif"))
        let descriptor = try #require(Self.imageDescriptor(in: bytes))
        bytes[descriptor + 9] |= 0x40
        let screen = try GIFDecoder.decode(bytes).bitmap
        let expected = Resampler.resize(screen, width: 100, height: 75)
        let resampler = Resampler(sourceWidth: 480, sourceHeight: 360, width: 100, height: 75)
        let geometry = try Thumbnailer.gifFromIndices(bytes, width: 480, height: 360, limits: DecodeLimits(), resampler: resampler)
        #expect(geometry != nil)
        #expect(resampler.finish().pixels == expected.pixels)
        #expect(try Thumbnailer.formatTwo(bytes, longSide: 100, limits: DecodeLimits()).pixels == expected.pixels)
    }

    /// The offset of the first image descriptor, past the screen's table and any extensions.
    static func imageDescriptor(in bytes: [UInt8]) -> Int? {
        var offset = 13 + (bytes[10] & 0x80 != 0 ? 3 << (Int(bytes[10] & 7) + 1) : 0)
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x2C: return offset
            case 0x21:
                offset += 2
                while offset < bytes.count, bytes[offset] != 0 { offset += Int(bytes[offset]) + 1 }
                offset += 1
            default: return nil
            }
        }
        return nil
    }
}
