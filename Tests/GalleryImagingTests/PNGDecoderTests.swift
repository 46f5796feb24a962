import GalleryFormat
@testable import GalleryImageHeaders
@testable import GalleryImaging
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// PNG decoding: every colour type and depth the samples hold, and hostile headers and chunks.
@Suite("PNG decoding")
struct PNGDecoderTests {
    static func sample(_ name: String) throws -> [UInt8] { try FileBytes.read(TestPaths.fixture("images/" + name)) }

    @Test(arguments: ["2-tiles.png", "6-bubbles.png", "7-quilt-palette.png", "8-deep-gradient.png", "9-rings-interlaced.png"])
    func decodesEverySampleAtItsHeaderSize(name: String) throws {
        let bytes = try Self.sample(name)
        let header = try ImageHeader.parse(bytes)
        let bitmap = try PNGDecoder.decode(bytes)
        #expect(bitmap.width == header.width && bitmap.height == header.height)
    }

    @Test func roundTripsThroughTheEncoderExactly() throws {
        var generator = SeededGenerator(seed: 7)
        let pixels = (0 ..< 37 * 23 * 4).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        let png = PNGEncoder.encode(width: 37, height: 23, layout: .rgba, pixels: pixels)
        #expect(try PNGDecoder.decode(png) == Bitmap(width: 37, height: 23, pixels: pixels))
        let grey = (0 ..< 9 * 4).map { UInt8($0 * 7) }
        let expanded = grey.flatMap { value -> [UInt8] in [value, value, value, 255] }
        #expect(try PNGDecoder.decode(PNGEncoder.encode(width: 9, height: 4, layout: .grey, pixels: grey)).pixels == expanded)
    }

    /// The thumbnailer's OUTPUT: the same pixels as the kept PNG, in stored deflate blocks, so
    /// larger than every row it holds.
    @Test func aHandOffPNGHoldsTheSamePixelsStored() throws {
        var generator = SeededGenerator(seed: 11)
        // 16,384 RGBA pixels make a row longer than one stored block can hold.
        for (width, height) in [(1, 1), (256, 171), (300, 300), (16384, 2)] {
            for opaque in [true, false] {
                let pixels = (0 ..< width * height * 4).map { index in
                    opaque && index % 4 == 3 ? 255 : UInt8.random(in: 0 ... 255, using: &generator)
                }
                let bitmap = Bitmap(width: width, height: height, pixels: pixels)
                let handOff = bitmap.handOffPNG(), kept = bitmap.png()
                #expect(try PNGDecoder.decode(handOff) == bitmap, "\(width) × \(height), opaque \(opaque)")
                #expect(try PNGDecoder.decode(kept) == bitmap)
                let rowBytes = width * (opaque ? 3 : 4) + 1
                #expect(handOff.count > height * rowBytes, "\(handOff.count) bytes for \(height) rows of \(rowBytes)")
                #expect(handOff[25] == (opaque ? 2 : 6), "colour type")
            }
        }
    }

    @Test func paletteTransparencyBecomesAlpha() throws {
        // 7-quilt-palette.png: tRNS gives index 0 alpha 0 and index 1 alpha 128.
        let bitmap = try PNGDecoder.decode(try Self.sample("7-quilt-palette.png"))
        let alphas = Set(stride(from: 3, to: bitmap.pixels.count, by: 4).map { bitmap.pixels[$0] })
        #expect(alphas.isSuperset(of: [0, 128, 255]))
    }

    @Test func sixteenBitSamplesAreScaledAndInterlacingUndone() throws {
        let sixteen = try thumbnail(of: "invalid/content/IG-THM-003-thumbnail-16-bit.imagegallery")
        let interlaced = try thumbnail(of: "invalid/content/IG-THM-004-thumbnail-interlaced.imagegallery")
        for png in [sixteen, interlaced] {
            let bitmap = try PNGDecoder.decode(png)
            // Uniform grey 0x80 (0x8080 in 16 bits), opaque, in every pixel of every pass.
            #expect(bitmap.pixels == ([128, 128, 128, 255] as [UInt8]).repeated(bitmap.width * bitmap.height))
        }
    }

    @Test func rowsStreamTopToBottomOnceEach() throws {
        var rows: [Int] = []
        let decoder = try PNGDecoder { row, pixels in
            #expect(pixels.count == 400 * 4)
            rows.append(row)
        }
        let bytes = try Self.sample("9-rings-interlaced.png")
        for start in stride(from: 0, to: bytes.count, by: 1000) {
            try decoder.feed(Array(bytes[start ..< min(bytes.count, start + 1000)]))
        }
        try decoder.finish()
        #expect(rows == Array(0 ..< 300))
    }

    // MARK: Hostile input

    @Test func hugeDimensionsAreRefusedFromTheHeader() throws {
        // 1-bit greyscale, 50000 × 50000: 2.5 gigapixels in a 100-byte file.
        let png = PNGBytes.file(width: 50000, height: 50000, bitDepth: 1, colourType: 0,
                                chunks: [PNGBytes.chunk("IDAT", PNGBytes.zlibStored([0, 0]))])
        let error = try #require(throws: ImageDecodeError.self) { try PNGDecoder.decode(png) }
        #expect(error.kind == .pastLimit)
        #expect(error.message.contains("2500000000 pixels"))
    }

    @Test func wholeImageIsRefusedPastTheMemoryLimitBeforeAnyRowIsKept() throws {
        let png = PNGEncoder.encode(width: 200, height: 200, layout: .grey, pixels: [UInt8](repeating: 1, count: 40000))
        let error = try #require(throws: ImageDecodeError.self) {
            try PNGDecoder.decode(png, limits: DecodeLimits(maxBytes: 100_000))
        }
        #expect(error.kind == .pastLimit)
        // Streaming, without keeping rows, the same limit is no obstacle.
        let decoder = try PNGDecoder(limits: DecodeLimits(maxBytes: 100_000))
        try decoder.feed(png)
        try decoder.finish()
    }

    @Test func textChunkBombsAreNotRead() throws {
        // A tEXt chunk declaring 2 GB: libpng alone treats that as a benign error and allocates.
        let bomb = PNGBytes.file(width: 1, height: 1, bitDepth: 8, colourType: 0, chunks: [
            PNGBytes.rawChunk(type: "tEXt", declaredLength: 0x7FFF_FFF0, data: Array("Comment\u{0}".utf8)),
        ])
        #expect(throws: ImageDecodeError.self) { try PNGDecoder.decode(bomb) }
        // A zTXt that inflates to 64 MiB of text, before the image data: skipped, not inflated.
        let text = [UInt8](repeating: 0x41, count: 64 << 20)
        let ztxt = PNGBytes.chunk("zTXt", Array("Comment\u{0}\u{0}".utf8) + PNGBytes.zlibCompressed(text))
        let idat = PNGBytes.chunk("IDAT", PNGBytes.zlibCompressed([0, 7]))
        let decoded = try PNGDecoder.decode(PNGBytes.file(width: 1, height: 1, bitDepth: 8, colourType: 0,
                                                          chunks: [ztxt, idat]),
                                            limits: DecodeLimits(maxBytes: 4 << 20))
        #expect(decoded.pixels == [7, 7, 7, 255])
    }

    @Test func damagedDataIsCorruptNotACrash() throws {
        let bytes = try Self.sample("2-tiles.png")
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x10
        for damaged in [Array(bytes.prefix(bytes.count / 2)), flipped, Array(bytes.prefix(8)), [0x89, 0x50]] {
            let error = try #require(throws: ImageDecodeError.self) { try PNGDecoder.decode(damaged) }
            #expect(error.kind == .corrupt, "\(error)")
        }
        var generator = SeededGenerator(seed: 1)
        for _ in 0 ..< 200 {
            var mutated = bytes
            for _ in 0 ..< 4 { mutated[Int.random(in: 8 ..< mutated.count, using: &generator)] = UInt8.random(in: 0 ... 255, using: &generator) }
            // Decoded or refused, both are fine; a refusal is a typed decode error, nothing else.
            do { _ = try PNGDecoder.decode(mutated) } catch { #expect(error is ImageDecodeError, "\(error)") }
        }
    }

    func thumbnail(of fixture: String) throws -> [UInt8] {
        let archive = try ZipArchive(file: GalleryFile.openForReading(FilePath(TestPaths.fixture(fixture))))
        return try archive.readAll(try #require(archive.entry(named: "thumbnail.png")), limit: 1 << 20)
    }

    /// A chunk that declares more bytes than the file holds is damage (IG-BLB-008), though
    /// libpng meets its chunk-size limit first; a large chunk that is there is a limit.
    @Test func aChunkLongerThanTheFileIsCorruptNotPastALimit() {
        let idat = PNGBytes.chunk("IDAT", PNGBytes.zlibCompressed([UInt8](repeating: 0, count: 9)))
        let lying = PNGBytes.file(width: 2, height: 4, bitDepth: 8, colourType: 0, chunks: [
            PNGBytes.rawChunk(type: "tEXt", declaredLength: 0x7FFF_FFFF, data: Array("Comment\u{0}x".utf8)), idat,
        ])
        let checker = ImagePixelChecker()
        let verdict = checker.check(.png, size: UInt64(lying.count), maxPixels: nil, read: lying.bytes(at:count:))
        guard case .corrupt(let message) = verdict else {
            Issue.record("a chunk declaring 2 GiB in \(lying.count) bytes gave \(verdict)")
            return
        }
        #expect(message.contains("tEXt"), "\(message)")
    }
}

extension Array {
    func repeated(_ times: Int) -> [Element] { Array((0 ..< times).map { _ in self }.joined()) }
}
