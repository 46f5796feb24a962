import FoundationEssentials
import GalleryImageHeaders
@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// A whole bitmap is filtered in two parts of its output rows, on two threads. Each row must
/// come out as a resize on one thread makes it, whatever the sizes, the alpha or a colour
/// conversion after.
@Suite("Resampling in parts")
struct ResamplerPartsTests {
    static func picture(width: Int, height: Int, opaque: Bool, seed: UInt64) -> Bitmap {
        var generator = SeededGenerator(seed: seed)
        let pixels = (0 ..< width * height * 4).map { index in
            opaque && index % 4 == 3 ? 255 : UInt8.random(in: 0 ... 255, using: &generator)
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    @Test(arguments: [(640, 427, 256, 171), (1500, 1000, 1024, 683), (600, 3, 200, 2), (50, 600, 7, 97),
                      (300, 300, 300, 3), (900, 700, 899, 699), (4, 4, 2, 2)])
    func twoPartsMakeTheBytesOfOne(sizes: (Int, Int, Int, Int)) {
        let (sourceWidth, sourceHeight, width, height) = sizes
        for opaque in [true, false] {
            let bitmap = Self.picture(width: sourceWidth, height: sourceHeight, opaque: opaque, seed: UInt64(sourceWidth * 7 + height))
            let whole = Resampler.resize(bitmap, width: width, height: height, colour: nil, inParts: false)
            let parts = Resampler.resize(bitmap, width: width, height: height, colour: nil, inParts: true)
            #expect(parts.width == width && parts.height == height)
            #expect(parts == whole, "\(sourceWidth) × \(sourceHeight) to \(width) × \(height), opaque \(opaque)")
        }
    }

    @Test func aLargeBitmapIsSplitByDefault() {
        // The public resize takes the parts for a photo-sized bitmap; the sums are the same.
        let bitmap = Self.picture(width: 800, height: 600, opaque: true, seed: 3)
        #expect(bitmap.width * bitmap.height >= Resampler.pixelsWorthParts)
        #expect(Resampler.resize(bitmap, width: 333, height: 250)
                == Resampler.resize(bitmap, width: 333, height: 250, colour: nil, inParts: false))
    }

    @Test func aColourConversionAfterThePartsIsTheRowByRowOne() throws {
        // Adobe RGB from colord: converted row by row inside one resampler, or over the whole
        // output once the parts are joined, each pixel gives the same bytes.
        let profile = try FileBytes.read("/usr/share/color/icc/colord/AdobeRGB1998.icc")
        let transform = try #require(try ColourTransform.toSRGB(from: .iccProfile(profile, compressed: false)))
        let bitmap = Self.picture(width: 700, height: 500, opaque: true, seed: 9)
        let whole = Resampler.resize(bitmap, width: 256, height: 183, colour: transform, inParts: false)
        let parts = Resampler.resize(bitmap, width: 256, height: 183, colour: transform, inParts: true)
        #expect(parts == whole)
        #expect(parts != Resampler.resize(bitmap, width: 256, height: 183, colour: nil, inParts: true), "the profile converts")
    }

    @Test func aPartTakesOnlyTheSourceRowsUnderIt() {
        let vertical = Resampler.contributions(from: 1000, to: 683)
        let horizontal = Resampler.contributions(from: 1500, to: 1024)
        var output = [UInt8](repeating: 0, count: 1024 * 683 * 4)
        output.withUnsafeMutableBufferPointer { buffer in
            let lower = Resampler(sourceWidth: 1500, sourceHeight: 1000, width: 1024, height: 683, horizontal: horizontal,
                                  vertical: vertical, rows: 0 ..< 341, destination: buffer.baseAddress!)
            let upper = Resampler(sourceWidth: 1500, sourceHeight: 1000, width: 1024, height: 683, horizontal: horizontal,
                                  vertical: vertical, rows: 341 ..< 683, destination: buffer.baseAddress!)
            #expect(lower.sourceRows.lowerBound == 0 && upper.sourceRows.upperBound == 1000)
            // Each part reaches a few rows past the middle of the source, not the far end.
            #expect(lower.sourceRows.upperBound > 500 && lower.sourceRows.upperBound < 510, "\(lower.sourceRows)")
            #expect(upper.sourceRows.lowerBound < 500 && upper.sourceRows.lowerBound > 490, "\(upper.sourceRows)")
        }
    }
}
