@testable import GalleryImaging
@testable import GalleryImageHeaders
import GalleryTestSupport
import Testing

/// Thumbnails of the sample images: size, orientation, and the same result however decoded.
@Suite("Thumbnails")
struct ThumbnailerTests {
    static func sample(_ name: String) throws -> [UInt8] { try FileBytes.read(TestPaths.fixture("images/" + name)) }

    @Test(arguments: [("1-sunset.jpg", 256, 256, 192), ("3-lighthouse.jpg", 100, 75, 100), ("2-tiles.png", 120, 120, 90),
                      ("9-rings-interlaced.png", 4000, 400, 300), ("5-balloon-rotated.jpg", 240, 160, 240),
                      ("5-balloon-rotated.jpg", 1000, 320, 480)])
    func fitsTheLongSideUpright(name: String, longSide: Int, width: Int, height: Int) throws {
        let bitmap = try Thumbnailer.thumbnail(of: Self.sample(name), longSide: longSide)
        #expect((bitmap.width, bitmap.height) == (width, height))
    }

    /// A JPEG's rows go into the filter as they decode: the decoded image is never held whole,
    /// and the thumbnail is the one the whole image filtered gives.
    @Test func aJPEGsRowsAreFilteredAsTheyDecode() throws {
        let bytes = try Self.sample("1-sunset.jpg")
        // 800 × 600 at 3/8 scale is 300 × 225 (67,500 pixels) for a 256 × 192 thumbnail;
        // sixteen of its rows are 4,800.
        let whole = try JPEGDecoder.decode(bytes, covering: (256, 192))
        #expect((whole.width, whole.height) == (300, 225))
        let expected = Resampler.resize(whole, width: 256, height: 192)
        // Compared here, not in the expectations, which would print every pixel of a failure.
        let unlimited = try Thumbnailer.thumbnail(of: bytes, longSide: 256) == expected
        #expect(unlimited, "the thumbnail differs from the whole image filtered")
        var limits = DecodeLimits()
        limits.maxPixels = 10_000
        #expect(throws: ImageDecodeError.self) { try JPEGDecoder.decode(bytes, covering: (256, 192), limits: limits) }
        let withinRows = try Thumbnailer.thumbnail(of: bytes, longSide: 256, limits: limits) == expected
        #expect(withinRows, "the thumbnail differs from the whole image filtered")
        limits.filtersInParts = false
        let onOneThread = try Thumbnailer.thumbnail(of: bytes, longSide: 256, limits: limits) == expected
        #expect(onOneThread, "the thumbnail filtered on the decoding thread differs")
    }

    /// Asked for (`writesPNG`), a JPEG's PNG is written beside its filter, row by row, and is
    /// the file `png()` writes of the thumbnail; any change to the bitmap drops it.
    @Test func aJPEGsPNGIsWrittenAsItsRowsAreFiltered() throws {
        let bytes = try Self.sample("1-sunset.jpg")
        // 800 × 600 at 7/8 scale (367,500 pixels, worth a second thread) for 650 × 488.
        var limits = DecodeLimits()
        limits.writesPNG = true
        let thumbnail = try Thumbnailer.thumbnail(of: bytes, longSide: 650, limits: limits)
        #expect((thumbnail.width, thumbnail.height) == (650, 488))
        // Compared here, not in the expectations, which would print every byte of a failure.
        let madePNG = thumbnail.madePNG
        let made = try #require(madePNG, "no PNG was written beside the filter")
        var plain = thumbnail
        plain.madePNG = nil
        let writtenAfter = plain.png() == made, served = thumbnail.png() == made
        #expect(writtenAfter, "the PNG written beside the filter differs from the one written after it")
        #expect(served, "png() did not serve the PNG written beside the filter")
        let unasked = try Thumbnailer.thumbnail(of: bytes, longSide: 650).madePNG == nil
        #expect(unasked, "a PNG was written though none was asked for")
        var changed = thumbnail
        changed.pixels[0] ^= 1
        let dropped = changed.madePNG == nil && changed.png() != made
        #expect(dropped, "a changed bitmap kept its PNG")
    }

    @Test func orientationTurnsThePixels() {
        // 3 × 2, pixels numbered in reading order.
        let pixels = (0 ..< 6).flatMap { index -> [UInt8] in [UInt8(index), 0, 0, 255] }
        let stored = Bitmap(width: 3, height: 2, pixels: pixels)
        func order(_ bitmap: Bitmap) -> [UInt8] { stride(from: 0, to: bitmap.pixels.count, by: 4).map { bitmap.pixels[$0] } }
        // 0 1 2 / 3 4 5 turned a quarter clockwise is 3 0 / 4 1 / 5 2.
        #expect(order(stored.oriented(.right)) == [3, 0, 4, 1, 5, 2])
        #expect(order(stored.oriented(.left)) == [2, 5, 1, 4, 0, 3])
        #expect(order(stored.oriented(.down)) == [5, 4, 3, 2, 1, 0])
        #expect(order(stored.oriented(.upMirrored)) == [2, 1, 0, 5, 4, 3])
        #expect(order(stored.oriented(.downMirrored)) == [3, 4, 5, 0, 1, 2])
        #expect(order(stored.oriented(.leftMirrored)) == [0, 3, 1, 4, 2, 5])
        #expect(order(stored.oriented(.rightMirrored)) == [5, 2, 4, 1, 3, 0])
    }

    @Test func exifOrientationIsRead() throws {
        let rotated = try Self.sample("5-balloon-rotated.jpg").withUnsafeBytes { try JPEGStructure.parse($0) }
        #expect(rotated.orientation == .right)
        let plain = try Self.sample("1-sunset.jpg").withUnsafeBytes { try JPEGStructure.parse($0) }
        #expect(plain.orientation == .up)
    }
}
