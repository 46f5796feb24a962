@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// Downscaling: sizes, flat areas, alpha, and agreement between streaming and whole images.
@Suite("Resampling")
struct ResamplerTests {
    @Test func fittingKeepsTheAspectAndNeverEnlarges() {
        #expect(Resampler.fitting(width: 6000, height: 4000, longSide: 256) == (256, 171))
        #expect(Resampler.fitting(width: 4000, height: 6000, longSide: 1024) == (683, 1024))
        #expect(Resampler.fitting(width: 200, height: 100, longSide: 256) == (200, 100))
        #expect(Resampler.fitting(width: 50000, height: 1, longSide: 256) == (256, 1))
    }

    @Test func aFlatImageStaysFlatAtEveryFactor() {
        for (source, target) in [(100, 37), (1000, 256), (257, 256), (30, 1), (5, 5)] {
            let pixels = [UInt8]([200, 100, 50, 255]).repeated(source * (source / 2 + 1))
            let bitmap = Bitmap(width: source, height: source / 2 + 1, pixels: pixels)
            let out = Resampler.resize(bitmap, width: target, height: max(1, target / 2))
            #expect(Set(stride(from: 0, to: out.pixels.count, by: 4).map { Array(out.pixels[$0 ..< $0 + 4]) })
                    == [[200, 100, 50, 255]], "\(source) to \(target)")
        }
    }

    @Test func transparentPixelsDoNotBleedTheirColour() {
        // Left half opaque red, right half fully transparent green: no green may appear.
        var pixels: [UInt8] = []
        for _ in 0 ..< 64 {
            for x in 0 ..< 64 { pixels += x < 32 ? [255, 0, 0, 255] : [0, 255, 0, 0] }
        }
        let out = Resampler.resize(Bitmap(width: 64, height: 64, pixels: pixels), width: 16, height: 16)
        for index in stride(from: 0, to: out.pixels.count, by: 4) where out.pixels[index + 3] > 0 {
            #expect(out.pixels[index + 1] == 0 && out.pixels[index] == 255)
        }
    }

    @Test func averagesAFineCheckerboardToGrey() {
        var pixels: [UInt8] = []
        for y in 0 ..< 512 {
            for x in 0 ..< 512 { pixels += (x + y) % 2 == 0 ? [0, 0, 0, 255] : [255, 255, 255, 255] }
        }
        let out = Resampler.resize(Bitmap(width: 512, height: 512, pixels: pixels), width: 32, height: 32)
        for index in stride(from: 0, to: out.pixels.count, by: 4) {
            #expect(abs(Int(out.pixels[index]) - 128) <= 2, "pixel \(index / 4) is \(out.pixels[index])")
        }
    }

    @Test func streamingRowsMatchesResizingTheWholeImage() throws {
        let bytes = try FileBytes.read(TestPaths.fixture("images/9-rings-interlaced.png"))
        let whole = try PNGDecoder.decode(bytes)
        let expected = Resampler.resize(whole, width: 100, height: 75)
        let resampler = Resampler(sourceWidth: whole.width, sourceHeight: whole.height, width: 100, height: 75)
        let decoder = try PNGDecoder { _, row in resampler.push(row) }
        try decoder.feed(bytes)
        try decoder.finish()
        #expect(resampler.finish() == expected)
    }
}
