import Foundation
@testable import GalleryFormat
@testable import GalleryImageHeaders
import GalleryTestSupport
import Testing

/// Format 2.0's header readers (issue 18, in progress): sizes, transforms, frames and alpha of
/// WebP, GIF, AVIF and HEIC read without decoding, and hostile headers refused with their place.
@Suite("Image headers of format 2.0 types")
struct ImageGeometryTests {
    // MARK: Byte builders

    static func le(_ value: Int, _ count: Int) -> [UInt8] { (0 ..< count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func be(_ value: Int, _ count: Int) -> [UInt8] { le(value, count).reversed() }
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        ascii(type) + le(data.count, 4) + data + (data.count % 2 == 1 ? [0] : [])
    }

    static func webP(_ chunks: [UInt8]) -> [UInt8] { ascii("RIFF") + le(chunks.count + 4, 4) + ascii("WEBP") + chunks }

    static func vp8L(width: Int, height: Int, alpha: Bool) -> [UInt8] {
        chunk("VP8L", [0x2F] + le((width - 1) | (height - 1) << 14 | (alpha ? 1 << 28 : 0), 4) + [0, 0, 0])
    }

    static func vp8(width: Int, height: Int) -> [UInt8] {
        chunk("VP8 ", [0x10, 0x02, 0x00, 0x9D, 0x01, 0x2A] + le(width, 2) + le(height, 2) + [0, 0])
    }

    static func vp8X(width: Int, height: Int, animated: Bool, alpha: Bool) -> [UInt8] {
        chunk("VP8X", [UInt8((animated ? 0x02 : 0) | (alpha ? 0x10 : 0)), 0, 0, 0] + le(width - 1, 3) + le(height - 1, 3))
    }

    static func anmf(x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        chunk("ANMF", le(x / 2, 3) + le(y / 2, 3) + le(width - 1, 3) + le(height - 1, 3) + le(100, 3) + [0]
              + vp8L(width: width, height: height, alpha: false))
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be(payload.count + 8, 4) + ascii(type) + payload }
    static func fullBox(_ type: String, version: UInt8 = 0, flags: Int = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + be(flags, 3) + payload)
    }

    /// A HEIF file: items (id, type), the primary, `dimg` references, and properties with the
    /// items they belong to.
    static func heif(brands: [String] = ["heic", "mif1", "heic"], items: [(Int, String)], primary: Int,
                     derived: [(Int, [Int])] = [], auxiliary: [(Int, [Int])] = [], properties: [[UInt8]],
                     associations: [(Int, [Int])]) -> [UInt8] {
        let ftyp = box("ftyp", ascii(brands[0]) + be(0, 4) + brands.dropFirst().flatMap(ascii))
        let infes = items.flatMap { fullBox("infe", version: 2, be($0.0, 2) + be(0, 2) + ascii($0.1) + [0]) }
        func references(_ type: String, _ list: [(Int, [Int])]) -> [UInt8] {
            list.flatMap { box(type, be($0.0, 2) + be($0.1.count, 2) + $0.1.flatMap { be($0, 2) }) }
        }
        let iref = fullBox("iref", references("dimg", derived) + references("auxl", auxiliary))
        let ipma = fullBox("ipma", be(associations.count, 4) + associations.flatMap { be($0.0, 2) + [UInt8($0.1.count)] + $0.1.map { UInt8($0) } })
        // Each item's data in mdat (iloc version 0, 4-byte offsets and lengths): a grid's
        // description of one row of its tiles, of the output size its ispe gives (1 × 1 without
        // one), three bytes for any other item.
        func output(_ item: Int) -> [UInt8] {
            let ispe = associations.first { $0.0 == item }?.1.map { properties[$0 - 1] }.first { Array($0[4 ..< 8]) == ascii("ispe") }
            return ispe.map { Array($0[14 ..< 16]) + Array($0[18 ..< 20]) } ?? be(1, 2) + be(1, 2)
        }
        let data = items.map { item in
            item.1 == "grid" ? [0, 0, 0, UInt8(max((derived.first { $0.0 == item.0 }?.1.count ?? 1) - 1, 0))] + output(item.0) : [1, 2, 3]
        }
        func meta(mdatData: Int) -> [UInt8] {
            var offset = mdatData
            let entries = zip(items, data).flatMap { item, bytes in
                defer { offset += bytes.count }
                return be(item.0, 2) + be(0, 2) + be(1, 2) + be(offset, 4) + be(bytes.count, 4)
            }
            return fullBox("meta", fullBox("hdlr", be(0, 4) + ascii("pict") + be(0, 12) + [0])
                           + fullBox("pitm", be(primary, 2)) + fullBox("iloc", [0x44, 0x00] + be(items.count, 2) + entries)
                           + fullBox("iinf", be(items.count, 2) + infes) + iref
                           + box("iprp", box("ipco", properties.flatMap { $0 }) + ipma))
        }
        let head = ftyp + meta(mdatData: 0)
        return ftyp + meta(mdatData: head.count + 8) + box("mdat", data.flatMap { $0 })
    }

    static func ispe(_ width: Int, _ height: Int) -> [UInt8] { fullBox("ispe", be(width, 4) + be(height, 4)) }

    func webP(_ bytes: [UInt8], limits: HeaderLimits = HeaderLimits()) throws -> ImageGeometry {
        try ImageGeometry.webP(size: UInt64(bytes.count), limits: limits, read: bytes.bytes(at:count:))
    }

    func gif(_ bytes: [UInt8], limits: HeaderLimits = HeaderLimits()) throws -> ImageGeometry {
        try ImageGeometry.gif(size: UInt64(bytes.count), limits: limits, read: bytes.bytes(at:count:))
    }

    func heif(_ bytes: [UInt8], limits: HeaderLimits = HeaderLimits()) throws -> (ImageGeometry, ImageGeometry.HEIFCodec) {
        try ImageGeometry.heif(size: UInt64(bytes.count), limits: limits, read: bytes.bytes(at:count:))
    }

    func refusal(_ body: () throws -> Any) -> String? {
        do { _ = try body(); return nil } catch { return "\(error)" }
    }

    // MARK: WebP

    @Test func webPSizesComeFromEachKindOfFirstChunk() throws {
        #expect(try webP(Self.webP(Self.vp8(width: 640, height: 480))) == ImageGeometry(width: 640, height: 480))
        #expect(try webP(Self.webP(Self.vp8L(width: 300, height: 200, alpha: true)))
            == ImageGeometry(width: 300, height: 200, hasAlpha: true))
        let extended = Self.webP(Self.vp8X(width: 300, height: 200, animated: false, alpha: true) + Self.vp8L(width: 300, height: 200, alpha: true))
        #expect(try webP(extended) == ImageGeometry(width: 300, height: 200, hasAlpha: true))
    }

    @Test func anAnimatedWebPCountsItsFrames() throws {
        let file = Self.webP(Self.vp8X(width: 100, height: 80, animated: true, alpha: false) + Self.chunk("ANIM", Self.le(0, 6))
                             + Self.anmf(x: 0, y: 0, width: 100, height: 80) + Self.anmf(x: 10, y: 20, width: 50, height: 40))
        #expect(try webP(file) == ImageGeometry(width: 100, height: 80, frameCount: 2))
        #expect(refusal { try webP(file, limits: { var l = HeaderLimits(); l.frames = 1; return l }()) }?.contains("more than 1 frames") == true)
    }

    @Test func hostileWebPHeadersAreRefusedWithTheirPlace() {
        let canvas = Self.vp8X(width: 100, height: 80, animated: true, alpha: false)
        let cases: [(String, [UInt8])] = [
            ("outside the 100 × 80 canvas", Self.webP(canvas + Self.anmf(x: 60, y: 0, width: 50, height: 40))),
            ("larger than 65535", Self.webP(Self.vp8X(width: 70_000, height: 10, animated: false, alpha: false)
                                            + Self.vp8L(width: 100, height: 10, alpha: false))),
            ("its VP8X canvas", Self.webP(Self.vp8X(width: 300, height: 200, animated: false, alpha: false)
                                          + Self.vp8L(width: 30, height: 20, alpha: false))),
            ("truncated", Array(Self.webP(Self.vp8(width: 64, height: 64)).dropLast(3))),
            ("not a key frame", Self.webP(Self.chunk("VP8 ", [0x11, 0, 0, 0x9D, 0x01, 0x2A, 1, 0, 1, 0]))),
            ("no ANMF frame", Self.webP(canvas)),
            ("not VP8, VP8L or VP8X", Self.webP(Self.chunk("EXIF", [1, 2]))),
            ("runs past the RIFF data", Self.ascii("RIFF") + Self.le(12, 4) + Self.ascii("WEBP") + Self.ascii("VP8L") + Self.le(1_000, 4)),
        ]
        for (expected, bytes) in cases {
            let message = refusal { try webP(bytes) }
            #expect(message?.contains(expected) == true, "\(expected): \(message ?? "accepted")")
        }
    }

    // MARK: GIF

    static func gifFile(width: Int, height: Int, frames: Int, transparent: Bool, trailer: Bool = true) -> [UInt8] {
        var bytes = ascii("GIF89a") + le(width, 2) + le(height, 2) + [0x80, 0, 0] + [UInt8](repeating: 0, count: 6)
        for _ in 0 ..< frames {
            bytes += [0x21, 0xF9, 4, transparent ? 1 : 0, 0, 0, 0, 0]
            bytes += [0x2C] + le(0, 2) + le(0, 2) + le(width, 2) + le(height, 2) + [0]
            bytes += [2, 3, 0x44, 0x01, 0x05, 0]
        }
        return bytes + (trailer ? [0x3B] : [])
    }

    @Test func gifSizeIsTheLogicalScreenAndFramesAreCounted() throws {
        #expect(try gif(Self.gifFile(width: 320, height: 200, frames: 1, transparent: false))
            == ImageGeometry(width: 320, height: 200))
        #expect(try gif(Self.gifFile(width: 32, height: 20, frames: 3, transparent: true))
            == ImageGeometry(width: 32, height: 20, frameCount: 3, hasAlpha: true))
    }

    @Test func hostileGIFHeadersAreRefusedWithTheirPlace() {
        var limits = HeaderLimits()
        limits.frames = 5
        var badCode = Self.gifFile(width: 8, height: 8, frames: 1, transparent: false)
        badCode[13 + 6 + 8 + 10] = 12
        let cases: [(String, [UInt8], HeaderLimits)] = [
            ("more than 5 frames", Self.gifFile(width: 8, height: 8, frames: 6, transparent: false), limits),
            ("the trailer 0x3B is missing", Self.gifFile(width: 8, height: 8, frames: 1, transparent: false, trailer: false), HeaderLimits()),
            ("0 × 8", Self.gifFile(width: 0, height: 8, frames: 1, transparent: false), HeaderLimits()),
            ("LZW minimum code size of 12", badCode, HeaderLimits()),
            ("no image", Self.gifFile(width: 8, height: 8, frames: 0, transparent: false), HeaderLimits()),
        ]
        for (expected, bytes, limits) in cases {
            let message = refusal { try gif(bytes, limits: limits) }
            #expect(message?.contains(expected) == true, "\(expected): \(message ?? "accepted")")
        }
    }

    // MARK: AVIF and HEIC

    @Test func aHEICPhotoHasItsISPESizeAndItsTurn() throws {
        let file = Self.heif(items: [(1, "hvc1")], primary: 1,
                             properties: [Self.ispe(4032, 3024), Self.box("irot", [1]), Self.box("imir", [1])],
                             associations: [(1, [1, 2, 3])])
        let (geometry, codec) = try heif(file)
        #expect(codec == .hevc)
        // No hvcC says the bit depth: the decode's memory is reckoned for 16 bits a sample.
        #expect(geometry == ImageGeometry(width: 4032, height: 3024, quarterTurns: 1, mirror: .horizontal, bitsPerSample: 16))
        #expect(geometry.uprightSize == (3024, 4032))
    }

    /// hvcC bytes 17 and 18 hold the luma and chroma bit depths less 8, in their low 3 bits.
    @Test func aHEICsBitDepthIsItsHvcCs() throws {
        func configuration(luma: UInt8, chroma: UInt8) -> [UInt8] {
            [1] + [UInt8](repeating: 0, count: 16) + [0xF8 | (luma - 8), 0xF8 | (chroma - 8), 0, 0, 0x0F, 0]  // no NAL unit arrays
        }
        for (luma, chroma, expected) in [(UInt8(8), UInt8(8), 8), (10, 10, 10), (8, 12, 12)] {
            let file = Self.heif(items: [(1, "hvc1")], primary: 1,
                                 properties: [Self.ispe(64, 48), Self.box("hvcC", configuration(luma: luma, chroma: chroma))],
                                 associations: [(1, [1, 2])])
            #expect(try heif(file).0.bitsPerSample == expected, "luma \(luma), chroma \(chroma)")
        }
    }

    @Test func anAVIFGridTakesItsTilesCodec() throws {
        let file = Self.heif(brands: ["avif", "mif1", "avif"], items: [(1, "grid"), (2, "av01"), (3, "av01")], primary: 1,
                             derived: [(1, [2, 3])], properties: [Self.ispe(1024, 512), Self.ispe(512, 512)],
                             associations: [(1, [1]), (2, [2]), (3, [2])])
        let (geometry, codec) = try heif(file)
        // No av1C says the bit depth: the decode's memory is reckoned for 16 bits a sample.
        #expect(codec == .av1 && geometry == ImageGeometry(width: 1024, height: 512, bitsPerSample: 16))
    }

    @Test func anAVIFsBitDepthIsItsAV1ConfigurationsMost() throws {
        // av1C: marker and version, profile and level, then seq_tier_0, high_bitdepth, twelve_bit…
        func configuration(_ flags: UInt8) -> [UInt8] { [0x81, 0x00, flags, 0x00] }
        for (flags, alphaFlags, expected) in [(UInt8(0x00), UInt8?.none, 8), (0x40, nil, 10), (0x60, nil, 12),
                                              (0x0C, 0x40, 10), (0x40, 0x00, 10)] {
            var items: [(Int, String)] = [(1, "av01")]
            var properties = [Self.ispe(64, 48), Self.box("av1C", configuration(flags))]
            var associations: [(Int, [Int])] = [(1, [1, 2])]
            var auxiliary: [(Int, [Int])] = []
            if let alphaFlags {
                items.append((2, "av01"))
                properties.append(Self.box("av1C", configuration(alphaFlags)))
                associations.append((2, [1, 3]))
                auxiliary.append((2, [1]))
            }
            let file = Self.heif(brands: ["avif", "mif1"], items: items, primary: 1, auxiliary: auxiliary,
                                 properties: properties, associations: associations)
            #expect(try heif(file).0.bitsPerSample == expected, "av1C flags \(flags), alpha's \(String(describing: alphaFlags))")
        }
    }

    @Test func hostileHEIFHeadersAreRefusedWithTheirPlace() {
        var limits = HeaderLimits()
        limits.tiles = 100
        let ispe = [Self.ispe(64, 64)]
        let cases: [(String, [UInt8])] = [
            ("a grid of grids", Self.heif(items: [(1, "grid")], primary: 1, derived: [(1, [1])], properties: ispe,
                                          associations: [(1, [1])])),
            ("200 tiles, more than 100", Self.heif(items: [(1, "grid")] + (2 ..< 202).map { ($0, "hvc1") }, primary: 1,
                                                   derived: [(1, Array(2 ..< 202))], properties: ispe, associations: [(1, [1])])),
            ("no ispe", Self.heif(items: [(1, "hvc1")], primary: 1, properties: [Self.box("irot", [1])], associations: [(1, [1])])),
            ("not 1 to 65535", Self.heif(items: [(1, "hvc1")], primary: 1, properties: [Self.ispe(0, 10)], associations: [(1, [1])])),
            ("not in iinf", Self.heif(items: [(1, "hvc1")], primary: 7, properties: ispe, associations: [(1, [1])])),
            ("the brands say AVIF", Self.heif(brands: ["avif", "mif1"], items: [(1, "hvc1")], primary: 1, properties: ispe,
                                              associations: [(1, [1])])),
            ("not av01, hvc1 or grid", Self.heif(items: [(1, "jpeg")], primary: 1, properties: ispe, associations: [(1, [1])])),
            ("runs past the end of the file", Self.box("ftyp", Self.ascii("heic") + Self.be(0, 4)) + Self.be(4_000, 4) + Self.ascii("meta")
                + Self.be(0, 8)),
            ("the first box is not ftyp", Self.box("free", [])),
        ]
        for (expected, bytes) in cases {
            let message = refusal { try heif(bytes, limits: limits) }
            #expect(message?.contains(expected) == true, "\(expected): \(message ?? "accepted")")
        }
    }
}

/// The same readers on files that other tools wrote (Fixtures/format-2.0, see its README).
@Suite("Image headers of format 2.0 types, files other tools wrote")
struct ImageGeometryToolFileTests {
    enum Reader: Sendable {
        case webP, gif, heif

        func read(_ bytes: [UInt8]) throws -> ImageGeometry {
            let size = UInt64(bytes.count)
            switch self {
            case .webP: return try ImageGeometry.webP(size: size, read: bytes.bytes(at:count:))
            case .gif: return try ImageGeometry.gif(size: size, read: bytes.bytes(at:count:))
            case .heif: return try ImageGeometry.heif(size: size, read: bytes.bytes(at:count:)).0
            }
        }
    }

    static let expected: [(String, Reader, ImageGeometry)] = [
        ("lossy.webp", .webP, ImageGeometry(width: 800, height: 600)),
        ("lossless-alpha.webp", .webP, ImageGeometry(width: 320, height: 320, hasAlpha: true)),
        ("anim.webp", .webP, ImageGeometry(width: 400, height: 300, frameCount: 3)),
        ("b.gif", .gif, ImageGeometry(width: 480, height: 360)),
        ("anim.gif", .gif, ImageGeometry(width: 400, height: 300, frameCount: 3)),
        ("sunset.avif", .heif, ImageGeometry(width: 800, height: 600)),
        ("bubbles.avif", .heif, ImageGeometry(width: 320, height: 320, hasAlpha: true)),
        ("rotated.avif", .heif, ImageGeometry(width: 800, height: 600, quarterTurns: 1, mirror: .horizontal)),
        ("grid.avif", .heif, ImageGeometry(width: 800, height: 600)),
        // 4:2:0 by their hvcC (bubbles.heic's alpha item, grey, is not the image's).
        ("sunset.heic", .heif, ImageGeometry(width: 800, height: 600, chromaFormat: 1)),
        ("bubbles.heic", .heif, ImageGeometry(width: 320, height: 320, hasAlpha: true, chromaFormat: 1)),
    ]

    @Test(arguments: 0 ..< 11)
    func eachFileReadsAsItsToolDescribesIt(_ index: Int) throws {
        let (name, reader, geometry) = Self.expected[index]
        let bytes = try FileBytes.read(TestPaths.fixture("format-2.0/" + name))
        #expect(try reader.read(bytes) == geometry, "\(name)")
    }

    @Test func theCodecOfEachHEIFFileIsItsPrimaryItems() throws {
        for (name, codec) in [("sunset.avif", ImageGeometry.HEIFCodec.av1), ("grid.avif", .av1), ("sunset.heic", .hevc)] {
            let bytes = try FileBytes.read(TestPaths.fixture("format-2.0/" + name))
            #expect(try ImageGeometry.heif(size: UInt64(bytes.count), read: bytes.bytes(at:count:)).1 == codec, "\(name)")
        }
    }

    @Test func theListCoversEveryFile() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: TestPaths.fixture("format-2.0")).filter { !$0.hasSuffix(".md") }
        #expect(Set(files) == Set(Self.expected.map(\.0)))
        #expect(Self.expected.count == 11)
    }
}
