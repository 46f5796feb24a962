import Foundation
@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// A large lossy WebP made small while it is decoded (libwebp's rescaler, its rows filtered and
/// scaled on libwebp's second thread): the same picture as one thread gives, and as a full
/// decode filtered down by our resampler, within what the two filters' kernels make of grain.
@Suite("WebP scaled while decoding")
struct WebPDecoderScalingTests {
    /// A 1,600 × 1,000 gradient with seeded grain, through cwebp -q 80: wider than the 512
    /// pixels below which libwebp starts no second thread.
    static func encodedPhoto(in folder: TemporaryDirectory) throws -> [UInt8] {
        let (width, height) = (1600, 1000)
        var generator = SeededGenerator(seed: 34)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let grain = Int(generator.next() % 25) - 12
                let index = (y * width + x) * 4
                pixels[index] = UInt8(clamping: 255 * x / (width - 1) + grain)
                pixels[index + 1] = UInt8(clamping: 255 * y / (height - 1) + grain)
                pixels[index + 2] = UInt8(clamping: 255 - 255 * (x + y) / (width + height - 2) + grain)
            }
        }
        let png = folder.file("photo.png"), webp = folder.file("photo.webp")
        try FileBytes.write(Bitmap(width: width, height: height, pixels: pixels).png(), to: png)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/cwebp") else {
            throw MissingTestInput(description: "cwebp is not installed: scripts/install-deps test installs it")
        }
        let ran = try Subprocess.run("/usr/bin/cwebp", ["-quiet", "-q", "80", png, "-o", webp])
        guard ran.status == 0 else { throw MissingTestInput(description: "cwebp exited \(ran.status): \(ran.stderr)") }
        return try FileBytes.read(webp)
    }

    @Test(arguments: [256, 1024])
    func scaledDecodeIsTheSamePictureOnEitherPath(_ longSide: Int) throws {
        let folder = try TemporaryDirectory()
        let bytes = try Self.encodedPhoto(in: folder)
        let fitted = Resampler.fitting(width: 1600, height: 1000, longSide: longSide)
        let threaded = try WebPDecoder.decode(bytes, covering: fitted).bitmap
        let alone = try WebPDecoder.decode(bytes, covering: fitted, threaded: false).bitmap
        #expect((threaded.width, threaded.height) == (fitted.width, fitted.height))
        // libwebp's threads split the work, not the arithmetic: the bytes are the same.
        #expect(threaded.pixels == alone.pixels)
        let whole = try WebPDecoder.decode(bytes).bitmap
        #expect((whole.width, whole.height) == (1600, 1000))
        let filtered = Resampler.resize(whole, width: fitted.width, height: fitted.height)
        let difference = FormatTwoDecoderTests.difference(threaded, filtered)
        #expect(difference.alphaAgrees)
        // Box averaging (libwebp) against Lanczos-3 (ours) over a gradient: under 2 steps of 255.
        #expect(difference.colour < 2, "mean difference \(difference.colour)")
    }
}
