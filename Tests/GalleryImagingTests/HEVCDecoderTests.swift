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
    /// A 128 × 96 HEIC written by heif-enc with `options`.
    static func encoded(_ options: [String] = []) throws -> [UInt8] {
        let tool = "/usr/bin/heif-enc"
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw MissingTestInput(description: "\(tool) is not installed: scripts/install-deps test installs it")
        }
        let folder = try TemporaryDirectory()
        let (png, heic) = (folder.file("in.png"), folder.file("out.heic"))
        try FileBytes.write(HEICPlanesTests.picture(width: 128, height: 96, sixteenBits: false, grey: false), to: png)
        let encoded = try Subprocess.run(tool, options + [png, "-o", heic])
        try #require(encoded.status == 0, "heif-enc: \(encoded.stderr)")
        return try FileBytes.read(heic)
    }

    @Test func libheifChoosesOurDecoder() throws {
        let bytes = try Self.encoded()
        let before = ig_hevc_decoder_pictures()
        let frame = try HEIFDecoder.decode(bytes)
        #expect(frame.bitmap.width == 128 && frame.bitmap.height == 96)
        let after = ig_hevc_decoder_pictures()
        #expect(after > before, "libheif decoded the HEIC without our decoder")
    }

    /// The decode's memory is reckoned by the `hvcC`'s chroma: a 4:2:0 photo's six bytes a
    /// pixel, where 4:4:4 keeps the eight every HEIC was counted at before.
    @Test func theHvcCsChromaSizesTheDecode() throws {
        let subsampled = try HEIFBoxes.geometry(of: try Self.encoded(), expecting: .hevc)
        let full = try HEIFBoxes.geometry(of: try Self.encoded(["-p", "chroma=444"]), expecting: .hevc)
        #expect(subsampled.chromaFormat == 1 && full.chromaFormat == 3)
        let pixels = 128 * 96
        #expect(HEIFDecoder.bandedMemory(subsampled, byteCount: 0) - 128 * 4 == pixels * 6)
        #expect(HEIFDecoder.bandedMemory(full, byteCount: 0) - 128 * 4 == pixels * 8)
    }

    /// A 4:4:4 stream whose `hvcC` says 4:2:0 would take more memory than was admitted for it:
    /// our decoder refuses its picture (libheif alone decodes it).
    @Test func aPictureWithMoreChromaThanItsHvcCStatesIsRefused() throws {
        var bytes = try Self.encoded(["-p", "chroma=444"])
        let hvcC = try #require((0 ..< bytes.count - 4).first { Array(bytes[$0 ..< $0 + 4]) == Array("hvcC".utf8) })
        #expect(bytes[hvcC + 4 + 16] & 3 == 3)
        bytes[hvcC + 4 + 16] = 0xFC | 1
        #expect(try HEIFBoxes.geometry(of: bytes, expecting: .hevc).chromaFormat == 1)
        #expect { try HEIFDecoder.decode(bytes) } throws: {
            ($0 as? ImageDecodeError)?.message.contains("more chroma or bits a sample than its hvcC states") == true
        }
    }

    /// A grid's tiles are decoded two at a time, each by a decoder of ours without worker
    /// threads (on the thread that decodes the tile), and come out as the one-at-a-time walk
    /// gave them: `HEICGridTests` compares every layout with heif-convert.
    @Test func aGridsTilesAreDecodedWithoutWorkerThreads() throws {
        let folder = try TemporaryDirectory()
        let (heic, _) = try HEICGridTests.make(HEICGridTests.Variant(width: 1100, height: 700), in: folder)
        let before = ig_hevc_decoder_pictures_without_workers()
        var rows = 0
        _ = try HEIFDecoder.decodeRows(try FileBytes.read(heic)) { _ in rows += 1 }
        #expect(rows == 700)
        // 3 × 2 tiles of 512: other tests' grids may add to the count, never take from it.
        #expect(ig_hevc_decoder_pictures_without_workers() - before >= 6, "a grid's tiles were decoded by decoders with workers")
    }
}
