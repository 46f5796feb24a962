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
