import COnDemand
import Foundation
@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// libheif hands HEVC to our decoder (COnDemand's hevc_decoder.c: libde265 on two worker
/// threads, where libheif 1.15's own starts one). That its pictures are libheif's own is
/// `HEICPlanesTests`' check against heif-convert, for every layout heif-enc writes.
@Suite("HEVC decoded by our libde265 plugin")
struct HEVCDecoderTests {
    @Test func libheifChoosesOurDecoder() throws {
        let tool = "/usr/bin/heif-enc"
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw MissingTestInput(description: "\(tool) is not installed: scripts/install-deps test installs it")
        }
        let folder = try TemporaryDirectory()
        let (png, heic) = (folder.file("in.png"), folder.file("out.heic"))
        try FileBytes.write(HEICPlanesTests.picture(width: 128, height: 96, sixteenBits: false, grey: false), to: png)
        let encoded = try Subprocess.run(tool, [png, "-o", heic])
        try #require(encoded.status == 0, "heif-enc: \(encoded.stderr)")

        let before = ig_hevc_decoder_pictures()
        let frame = try HEIFDecoder.decode(try FileBytes.read(heic))
        #expect(frame.bitmap.width == 128 && frame.bitmap.height == 96)
        let after = ig_hevc_decoder_pictures()
        #expect(after > before, "libheif decoded the HEIC without our decoder")
    }
}
