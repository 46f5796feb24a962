import GalleryFormat
@testable import GalleryImageHeaders
import GalleryImaging
import Testing

/// The JPEG renditions made for display: they decode to the picture they were made from.
@Suite("JPEG encoder")
struct JPEGEncoderTests {
    /// A 64×48 picture: left half red, right half blue, the bottom row half transparent.
    static func picture() -> Bitmap {
        var pixels: [UInt8] = []
        for y in 0 ..< 48 {
            for x in 0 ..< 64 {
                pixels += x < 32 ? [220, 20, 20] : [20, 20, 220]
                pixels.append(y >= 40 ? 0 : 255)
            }
        }
        return Bitmap(width: 64, height: 48, pixels: pixels)
    }

    @Test func aRenditionDecodesToTheSamePictureWithTransparencyOverWhite() throws {
        let jpeg = try JPEGEncoder.encode(Self.picture())
        #expect(MediaType.sniff(jpeg) == .jpeg)
        let decoded = try JPEGDecoder.decode(jpeg)
        #expect(decoded.width == 64 && decoded.height == 48)
        func pixel(_ x: Int, _ y: Int) -> [Int] { (0 ..< 3).map { Int(decoded.pixels[(y * 64 + x) * 4 + $0]) } }
        let red = pixel(8, 8), blue = pixel(56, 8), clear = pixel(8, 46)
        #expect(red[0] > 180 && red[2] < 70, "\(red)")
        #expect(blue[2] > 180 && blue[0] < 70, "\(blue)")
        #expect(clear.allSatisfy { $0 > 225 }, "a transparent pixel is white, not \(clear)")
    }
}
