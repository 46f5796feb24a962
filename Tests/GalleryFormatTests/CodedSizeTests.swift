import Foundation
@testable import GalleryFormat
@testable import GalleryImageHeaders
import GalleryTestSupport
import Testing

/// A declared size held to the coded image's own headers (issue 28, item 3; IG-BLB-019): an
/// `ispe` of 65535 × 65535 over a 64 × 64 picture is refused where the header is read, and what
/// real encoders and phones write (odd sizes, 4:2:0 padding, `clap`, rotation, grids) is not.
@Suite("Declared sizes against the coded image (IG-BLB-019)")
struct CodedSizeTests {
    static func fixture(_ path: String) throws -> [UInt8] { try FileBytes.read(TestPaths.fixture(path)) }

    static func be32(_ value: Int) -> [UInt8] { (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    /// `bytes` with each `ispe` property that says `from` made to say `to`; the count of those
    /// changed must be `expected`, so that a test never passes by patching nothing.
    static func replacingISPE(_ bytes: [UInt8], _ from: (Int, Int), _ to: (Int, Int), expected: Int = 1) throws -> [UInt8] {
        let old = Array("ispe".utf8) + [0, 0, 0, 0] + be32(from.0) + be32(from.1)
        var result = bytes
        var found = 0
        for start in 0 ..< max(bytes.count - old.count, 0) where Array(bytes[start ..< start + old.count]) == old {
            result.replaceSubrange(start + 8 ..< start + 16, with: be32(to.0) + be32(to.1))
            found += 1
        }
        try #require(found == expected, "\(found) ispe properties of \(from.0) × \(from.1)")
        return result
    }

    /// The header reader's refusal of `bytes`, nil when it takes them.
    static func refusal(_ bytes: [UInt8]) -> ImageHeaderError? {
        do {
            _ = try ImageHeader.parse(bytes)
            return nil
        } catch {
            return error as? ImageHeaderError
        }
    }

    // MARK: What real files do

    static let realFiles: [(String, Int, Int)] = [
        ("coded-size/odd-333x217.heic", 333, 217), ("coded-size/odd-333x217-444.heic", 333, 217),
        ("coded-size/tiny-3x5.heic", 3, 5), ("coded-size/padded-333x217.heic", 333, 217),
        ("coded-size/clap-334x218.heic", 334, 218), ("coded-size/grid-4032x3024-irot.heic", 4032, 3024),
        ("coded-size/odd-333x217.avif", 333, 217), ("coded-size/rotated-333x217.avif", 333, 217),
        ("coded-size/clap-333x217.avif", 333, 217),
        ("format-2.0/sunset.heic", 800, 600), ("format-2.0/bubbles.heic", 320, 320), ("format-2.0/sunset.avif", 800, 600),
        ("format-2.0/bubbles.avif", 320, 320), ("format-2.0/rotated.avif", 800, 600), ("format-2.0/grid.avif", 800, 600),
        ("format-2.0/lossy.webp", 800, 600), ("format-2.0/lossless-alpha.webp", 320, 320), ("format-2.0/anim.webp", 400, 300),
    ]

    @Test(arguments: 0 ..< 18)
    func aFileAsEncodersAndPhonesWriteItKeepsItsDeclaredSize(_ index: Int) throws {
        let (name, width, height) = Self.realFiles[index]
        let header = try ImageHeader.parse(try Self.fixture(name))
        #expect((header.width, header.height) == (width, height), "\(name)")
    }

    @Test func everyPhoneLikeFileIsListed() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: TestPaths.fixture("coded-size")).filter { !$0.hasSuffix(".md") }
        #expect(Set(files.map { "coded-size/" + $0 }) == Set(Self.realFiles.map(\.0).filter { $0.hasPrefix("coded-size/") }))
    }

    // MARK: HEVC

    /// The case, and smaller and larger lies: sunset.heic's SPS codes 800 × 600.
    @Test(arguments: [(65_535, 65_535), (1_600, 1_200), (400, 300), (801, 600), (800, 602), (64, 64)])
    func anISPEThatTheHEVCPictureContradictsIsRefused(_ width: Int, _ height: Int) throws {
        let declared = (width, height)
        let lie = try Self.replacingISPE(try Self.fixture("format-2.0/sunset.heic"), (800, 600), declared)
        let error = try #require(Self.refusal(lie), "\(declared) accepted")
        #expect(error.diagnostic == .declaredSizeContradicted, "\(error)")
        #expect(error.message.contains("ispe says \(declared.0) × \(declared.1)") && error.message.contains("codes 800 × 600"),
                "\(error)")
        #expect(error.offset != nil)
    }

    /// A 64 × 64 picture (x265's smallest, under tiny-3x5.heic's grid) that says 65535 × 65535.
    @Test func aSixtyFourPixelTileThatSaysSixtyFiveThousandIsRefused() throws {
        let lie = try Self.replacingISPE(try Self.fixture("coded-size/tiny-3x5.heic"), (64, 64), (65_535, 65_535))
        let error = try #require(Self.refusal(lie))
        #expect(error.diagnostic == .declaredSizeContradicted && error.message.contains("tile 1's ispe says 65535 × 65535"),
                "\(error)")
    }

    /// An odd size one less than a 4:2:0 picture is padding; the uncropped picture, or two
    /// less, is not.
    @Test func fourTwoZeroPaddingIsOneSampleOnAnOddSide() throws {
        let sunset = try Self.fixture("format-2.0/sunset.heic")
        #expect(Self.refusal(try Self.replacingISPE(sunset, (800, 600), (799, 599))) == nil)
        #expect(Self.refusal(try Self.replacingISPE(sunset, (800, 600), (798, 600)))?.diagnostic == .declaredSizeContradicted)
        // 4:4:4 has no padding to explain an odd size: its window crops to any size.
        let full = try Self.fixture("coded-size/odd-333x217-444.heic")
        #expect(Self.refusal(try Self.replacingISPE(full, (334, 218), (333, 217)))?.diagnostic == .declaredSizeContradicted)
        // The tile's coded picture, before its conformance window, is not what the decoder gives.
        let odd = try Self.fixture("coded-size/odd-333x217.heic")
        let uncropped = try #require(Self.refusal(try Self.replacingISPE(odd, (334, 218), (336, 224))))
        #expect(uncropped.diagnostic == .declaredSizeContradicted
            && uncropped.message.contains("336 × 224 less its conformance window"), "\(uncropped)")
    }

    // MARK: Grids

    @Test func aGridsISPEIsItsOutputSize() throws {
        let odd = try Self.fixture("coded-size/odd-333x217.heic")
        let error = try #require(Self.refusal(try Self.replacingISPE(odd, (333, 217), (65_535, 65_535))))
        #expect(error.diagnostic == .declaredSizeContradicted && error.message.contains("output of 333 × 217"), "\(error)")
    }

    /// A grid whose description and ispe agree on more than its tiles cover.
    @Test func aGridsTilesCoverItsOutput() throws {
        var bytes = try Self.replacingISPE(try Self.fixture("coded-size/odd-333x217.heic"), (333, 217), (4_000, 217))
        let description: [UInt8] = [0, 0, 0, 0, 0x01, 0x4D, 0x00, 0xD9]  // 1 × 1 tile, 333 × 217, in idat
        let at = try #require((0 ..< bytes.count - 8).first { Array(bytes[$0 ..< $0 + 8]) == description })
        bytes.replaceSubrange(at + 4 ..< at + 6, with: [0x0F, 0xA0])
        let error = try #require(Self.refusal(bytes))
        #expect(error.diagnostic == .declaredSizeContradicted && error.message.contains("do not cover"), "\(error)")
    }

    @Test func aPhonesTwelveMegapixelGridStandsAndItsTilesAreHeldToo() throws {
        let grid = try Self.fixture("coded-size/grid-4032x3024-irot.heic")
        #expect(Self.refusal(grid) == nil)
        let error = try #require(Self.refusal(try Self.replacingISPE(grid, (512, 512), (4_096, 4_096))))
        #expect(error.diagnostic == .declaredSizeContradicted && error.message.contains("tile 2's ispe"), "\(error)")
    }

    // MARK: AV1

    @Test(arguments: [(65_535, 65_535), (1_600, 1_200), (400, 300), (799, 600)])
    func anISPEThatTheAV1SequenceHeaderContradictsIsRefused(_ width: Int, _ height: Int) throws {
        let declared = (width, height)
        let lie = try Self.replacingISPE(try Self.fixture("format-2.0/sunset.avif"), (800, 600), declared)
        let error = try #require(Self.refusal(lie), "\(declared) accepted")
        #expect(error.diagnostic == .declaredSizeContradicted && error.message.contains("AV1 sequence header codes frames of 800 × 600"),
                "\(error)")
    }

    @Test func anAVIFGridsTilesAreHeldToTheirSequenceHeaders() throws {
        let lie = try Self.replacingISPE(try Self.fixture("format-2.0/grid.avif"), (400, 300), (4_000, 3_000))
        let error = try #require(Self.refusal(lie))
        #expect(error.diagnostic == .declaredSizeContradicted && error.message.contains("AV1 sequence header"), "\(error)")
    }

    /// A rotated AVIF says its stored size: the turned one is a lie.
    @Test func aRotatedImagesISPEIsItsStoredSize() throws {
        let lie = try Self.replacingISPE(try Self.fixture("coded-size/rotated-333x217.avif"), (333, 217), (217, 333))
        #expect(Self.refusal(lie)?.diagnostic == .declaredSizeContradicted)
    }

    // MARK: WebP

    static func le(_ value: Int, _ count: Int) -> [UInt8] { (0 ..< count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        Array(type.utf8) + le(data.count, 4) + data + (data.count % 2 == 1 ? [0] : [])
    }
    static func vp8L(_ width: Int, _ height: Int) -> [UInt8] {
        chunk("VP8L", [0x2F] + le((width - 1) | (height - 1) << 14, 4) + [0, 0, 0])
    }
    static func webP(canvas: (Int, Int), animated: Bool, _ chunks: [UInt8]) -> [UInt8] {
        let body = Array("WEBP".utf8) + chunk("VP8X", [animated ? 0x02 : 0, 0, 0, 0] + le(canvas.0 - 1, 3) + le(canvas.1 - 1, 3))
            + chunks
        return Array("RIFF".utf8) + le(body.count, 4) + body
    }
    static func anmf(_ width: Int, _ height: Int, _ frame: [UInt8]) -> [UInt8] {
        chunk("ANMF", le(0, 3) + le(0, 3) + le(width - 1, 3) + le(height - 1, 3) + le(100, 3) + [0] + frame)
    }

    @Test func aWebPAnimationFrameIsTheSizeOfItsBitstream() throws {
        let good = Self.webP(canvas: (100, 80), animated: true, Self.anmf(50, 40, Self.chunk("ALPH", [0]) + Self.vp8L(50, 40)))
        #expect(Self.refusal(good) == nil)
        let lie = Self.webP(canvas: (100, 80), animated: true, Self.anmf(50, 40, Self.vp8L(5, 4)))
        let error = try #require(Self.refusal(lie))
        #expect(error.diagnostic == .declaredSizeContradicted
            && error.message.contains("frame 1's ANMF chunk says 50 × 40, but its VP8L bitstream codes 5 × 4"), "\(error)")
    }

    @Test func aWebPStillIsItsCanvasSize() throws {
        let error = try #require(Self.refusal(Self.webP(canvas: (16_000, 16_000), animated: false, Self.vp8L(64, 64))))
        #expect(error.diagnostic == .declaredSizeContradicted && error.message.contains("VP8X canvas 16000 × 16000"), "\(error)")
    }

    // MARK: The bit readers

    /// H.265 7.4.2: 0x000003 is 0x0000 with an emulation prevention byte; the reader reads past it.
    @Test func emulationPreventionBytesAreTakenOut() throws {
        var bits = ExpGolombReader(removingEmulationPrevention: [0x00, 0x00, 0x03, 0x01, 0xFF])
        #expect(try bits.read(24) == 1)
        #expect(try bits.read(8) == 0xFF)
        #expect(throws: ImageHeaderError.self) { try bits.read(1) }
        // ue(v): 1 → 0, 010 → 1, 011 → 2, 00100 → 3.
        var codes = ExpGolombReader([0b1010_0110, 0b0100_0000])
        #expect(try [codes.unsignedExpGolomb(), codes.unsignedExpGolomb(), codes.unsignedExpGolomb(), codes.unsignedExpGolomb()]
            == [0, 1, 2, 3])
        var endless = ExpGolombReader([UInt8](repeating: 0, count: 8) + [0xFF])
        #expect(throws: ImageHeaderError.self) { try endless.unsignedExpGolomb() }
    }

    /// Each file's SPS, as the Python reference (a plain reading of H.265 7.3.2.2) finds it.
    @Test func theSPSOfHeifEncsFilesReads() throws {
        let bytes = try Self.fixture("coded-size/odd-333x217.heic")
        let hvcC = Array("hvcC".utf8)
        let at = try #require((0 ..< bytes.count - 4).first { Array(bytes[$0 ..< $0 + 4]) == hvcC })
        let size = Int(bytes.be32(at - 4))
        let coded = try #require(try HEVCCodedSize.fromConfiguration(Array(bytes[at + 4 ..< at - 4 + size])))
        #expect(coded == HEVCCodedSize(codedWidth: 336, codedHeight: 224, width: 334, height: 218, subWidth: 2, subHeight: 2))
    }
}
