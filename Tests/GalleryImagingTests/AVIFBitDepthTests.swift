import Foundation
import GalleryFormat
@testable import GalleryImageHeaders
@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// An AVIF's decode is reckoned at the bit depth its `av1C` states, as a HEIC's is at its
/// `hvcC`'s: an 8-bit photo reserves half the plane memory a 10- or 12-bit one does, so a
/// budget that holds it is not refused by a figure for samples it does not have. The files are
/// written here by avifenc from a PNG made byte by byte.
@Suite("AVIF bit depth")
struct AVIFBitDepthTests {
    @Test(arguments: [8, 10, 12])
    func theAV1ConfigurationSizesTheDecode(_ depth: Int) throws {
        let tool = "/usr/bin/avifenc"
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw MissingTestInput(description: "\(tool) is not installed: scripts/install-deps test installs it")
        }
        let folder = try TemporaryDirectory()
        let (png, avif) = (folder.file("in.png"), folder.file("out.avif"))
        let (width, height) = (96, 64)
        try FileBytes.write(HEICPlanesTests.picture(width: width, height: height, sixteenBits: depth > 8, grey: false), to: png)
        let encoded = try Subprocess.run(tool, ["-d", String(depth), "-s", "10", png, avif])
        try #require(encoded.status == 0, "avifenc -d \(depth): \(encoded.stderr)")
        let bytes = try FileBytes.read(avif)

        let header = try ImageHeader.parse(bytes)
        #expect(header.bitDepth == depth)
        let planes = DecodedFrame.memoryToDecode(header, byteCount: bytes.count) - bytes.count - width * AVIFDecoder.band * 4
        #expect(planes == width * height * 4 * (depth > 8 ? 2 : 1), "\(depth) bits: \(planes) bytes of planes")
        let frame = try AVIFDecoder.decode(bytes)
        #expect(frame.bitmap.width == width && frame.bitmap.height == height)
    }
}
