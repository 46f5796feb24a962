import Foundation
@testable import GalleryFormat
@testable import GalleryImageHeaders
import GalleryTestSupport
import Testing

/// What the header readers find without decoding a pixel (issue 28, item 2): an AVIF or HEIC
/// whose items do not hold together (IG-BLB-017) and a PNG without image data (IG-BLB-018) are
/// refused where the header is read, so `create`, `add`, `convert` and fetch refuse them as
/// `validate` does, not only `validate --deep`.
@Suite("Image structure found without decoding")
struct StructureWithoutDecodingTests {
    typealias Bytes = ImageGeometryTests

    /// A HEIC with one 64 × 48 `hvc1` item and the properties given.
    static func heic(properties: [[UInt8]] = [Bytes.ispe(64, 48)], associations: [(Int, [Int])] = [(1, [1])]) -> [UInt8] {
        Bytes.heif(items: [(1, "hvc1")], primary: 1, properties: properties, associations: associations)
    }

    /// Where the first `iloc` entry's first extent length lies (the builders write version 0,
    /// 4-byte offsets and lengths, no base offset).
    static func firstExtentLength(in file: [UInt8]) -> Int {
        let type = Array("iloc".utf8)
        let at = (0 ... file.count - 4).first { Array(file[$0 ..< $0 + 4]) == type }!
        // type, version and flags, sizes, count, then item id, data reference, extent count, offset.
        return at + 4 + 4 + 2 + 2 + 2 + 2 + 2 + 4
    }

    static func patched(_ file: [UInt8], at offset: Int, _ value: UInt32) -> [UInt8] {
        var file = file
        file[offset ..< offset + 4] = ArraySlice(Bytes.be(Int(value), 4))
        return file
    }

    func refusal(_ bytes: [UInt8]) -> ImageHeaderError? {
        do {
            _ = try ImageHeader.parse(bytes)
            return nil
        } catch let error as ImageHeaderError {
            return error
        } catch {
            Issue.record("not an ImageHeaderError: \(error)")
            return nil
        }
    }

    @Test func aSoundFileStillReads() throws {
        #expect(refusal(Self.heic()) == nil)
        #expect(refusal(Self.heic(properties: [Bytes.ispe(64, 48), Bytes.box("irot", [1]), Bytes.box("imir", [0])],
                                  associations: [(1, [1, 2, 3])])) == nil)
    }

    @Test func itemDataPastTheEndOfTheFileIsRefused() throws {
        let good = Self.heic()
        let at = Self.firstExtentLength(in: good)
        for (length, expected) in [(UInt32.max, "runs past the end of the file"), (UInt32(good.count), "runs past the end of the file")] {
            let error = try #require(refusal(Self.patched(good, at: at, length)), "length \(length)")
            #expect(error.diagnostic == .heifItemsBroken, "\(error)")
            #expect(error.message.contains(expected), "\(error)")
            #expect(error.description.hasPrefix("IG-BLB-017: "))
        }
        // Length 0 is the rest of the file: sound.
        #expect(refusal(Self.patched(good, at: at, 0)) == nil)
    }

    @Test func aPropertyAssociationPastIpcoIsRefused() throws {
        let error = try #require(refusal(Self.heic(associations: [(1, [1, 24])])))
        #expect(error.diagnostic == .heifItemsBroken)
        #expect(error.message.contains("property 24, but ipco holds 1"), "\(error)")
    }

    @Test func aGridWithMissingTilesIsRefused() throws {
        // A grid of one row of three tiles, its description then made two rows of two.
        let file = Bytes.heif(brands: ["avif", "mif1"], items: [(1, "grid"), (2, "av01"), (3, "av01"), (4, "av01")], primary: 1,
                              derived: [(1, [2, 3, 4])], properties: [Bytes.ispe(128, 64), Bytes.ispe(64, 64)],
                              associations: [(1, [1]), (2, [2]), (3, [2]), (4, [2])])
        #expect(refusal(file) == nil)
        // mdat's payload starts with the grid's description: version, flags, rows - 1, columns - 1.
        let mdat = try #require((0 ... file.count - 4).last { Array(file[$0 ..< $0 + 4]) == Array("mdat".utf8) }) + 4
        var broken = file
        broken[mdat + 2] = 1
        broken[mdat + 3] = 1
        let error = try #require(refusal(broken))
        #expect(error.diagnostic == .heifItemsBroken)
        #expect(error.message.contains("the grid of 2 × 2 tiles lists 3 in its dimg reference: tiles are missing"), "\(error)")
    }

    @Test func anEmptyOrMalformedRotationIsRefused() throws {
        for (property, expected) in [(Bytes.box("irot", []), "irot property holds 0 bytes, not 1 (it is empty)"),
                                     (Bytes.box("irot", [1, 0]), "irot property holds 2 bytes, not 1"),
                                     (Bytes.box("imir", []), "imir property holds 0 bytes, not 1 (it is empty)")] {
            let error = try #require(refusal(Self.heic(properties: [Bytes.ispe(64, 48), property], associations: [(1, [1, 2])])),
                                     "\(expected)")
            #expect(error.diagnostic == .heifItemsBroken)
            #expect(error.message.contains(expected), "\(error)")
        }
    }

    @Test func aPNGWithoutImageDataIsRefused() throws {
        let ihdr = [0, 0, 0, 16, 0, 0, 0, 12, 8, 2, 0, 0, 0] as [UInt8]
        let idat = PNGBytes.chunk("IDAT", PNGBytes.zlibCompressed([UInt8](repeating: 0, count: 12 * 49)))
        let sound = PNGBytes.signature + PNGBytes.chunk("IHDR", ihdr) + PNGBytes.chunk("tEXt", Array("a\0b".utf8)) + idat
            + PNGBytes.chunk("IEND", [])
        #expect(refusal(sound) == nil)
        let cases: [(String, [UInt8])] = [
            ("reaches IEND before any IDAT", PNGBytes.signature + PNGBytes.chunk("IHDR", ihdr) + PNGBytes.chunk("IEND", [])),
            ("ends (at byte 33) before any IDAT", PNGBytes.signature + PNGBytes.chunk("IHDR", ihdr)),
            ("tEXt chunk (1000 bytes) runs past the end of the file", PNGBytes.signature + PNGBytes.chunk("IHDR", ihdr)
                + PNGBytes.rawChunk(type: "tEXt", declaredLength: 1_000, data: Array("a\0b".utf8)) + idat),
        ]
        for (expected, bytes) in cases {
            let error = try #require(refusal(bytes), "\(expected)")
            #expect(error.diagnostic == .pngWithoutImageData, "\(error)")
            #expect(error.message.contains(expected), "\(expected): \(error)")
        }
    }

    /// The files the tools wrote (Fixtures/format-2.0) hold together.
    @Test func everyToolFileHoldsTogether() throws {
        for name in ["sunset.avif", "bubbles.avif", "rotated.avif", "grid.avif", "sunset.heic", "bubbles.heic"] {
            let bytes = try FileBytes.read(TestPaths.fixture("format-2.0/" + name))
            #expect(refusal(bytes) == nil, "\(name)")
        }
    }
}
