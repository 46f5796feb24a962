internal import CTurboJPEG
import Dispatch
import GalleryFormat
@testable import GalleryImageHeaders
@testable import GalleryImaging
import GalleryTestSupport
import Synchronization
import Testing

/// JPEG decoding through libjpeg-turbo: structure, DCT scaling, limits and damage, and the
/// pixels TurboJPEG gives.
@Suite("JPEG decoding")
struct JPEGDecoderTests {
    static func sample(_ name: String) throws -> [UInt8] { try FileBytes.read(TestPaths.fixture("images/" + name)) }

    @Test(arguments: ["1-sunset.jpg", "3-lighthouse.jpg", "4-dunes.jpg", "5-balloon-rotated.jpg", "10-fractal.jpg"])
    func decodesEverySampleAtFullSize(name: String) throws {
        let bytes = try Self.sample(name)
        let structure = try bytes.withUnsafeBytes { try JPEGStructure.parse($0) }
        let bitmap = try JPEGDecoder.decode(bytes)
        #expect(bitmap.width == structure.width && bitmap.height == structure.height)
        #expect(stride(from: 3, to: bitmap.pixels.count, by: 4).allSatisfy { bitmap.pixels[$0] == 255 })
    }

    /// The rows of libjpeg's scanline reader are TurboJPEG's whole-image decode, pixel for pixel,
    /// at every scale a thumbnail uses: baseline, progressive and greyscale files.
    @Test(arguments: ["1-sunset.jpg", "3-lighthouse.jpg", "4-dunes.jpg", "10-fractal.jpg"])
    func rowsAreTurboJPEGsPixels(name: String) throws {
        let bytes = try Self.sample(name)
        let handle = try #require(tjInitDecompress())
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        #expect(tjDecompressHeader3(handle, bytes, UInt(bytes.count), &width, &height, &subsampling, &colourspace) == 0)
        for eighths in [8, 4, 3, 2, 1] {
            let scaled = ((Int(width) * eighths + 7) / 8, (Int(height) * eighths + 7) / 8)
            let ours = try JPEGDecoder.decode(bytes, covering: scaled)
            #expect((ours.width, ours.height) == scaled)
            var theirs = [UInt8](repeating: 0, count: scaled.0 * scaled.1 * 4)
            let status = theirs.withUnsafeMutableBufferPointer {
                tjDecompress2(handle, bytes, UInt(bytes.count), $0.baseAddress, Int32(scaled.0), 0, Int32(scaled.1),
                              Int32(TJPF_RGBA.rawValue), 0)
            }
            #expect(status == 0)
            // Compared here, not in the expectation, which would print every pixel of a failure.
            let same = ours.pixels == theirs
            #expect(same, "\(name) at \(eighths)/8 differs from TurboJPEG's decode")
        }
    }

    @Test func structureTellsScansAndSampling() throws {
        let baseline = try Self.sample("1-sunset.jpg").withUnsafeBytes { try JPEGStructure.parse($0) }
        #expect(!baseline.progressive && baseline.scans == 1)
        #expect(baseline.components.map(\.horizontal) == [2, 1, 1] && baseline.components.map(\.vertical) == [2, 1, 1])
        let progressive = try Self.sample("3-lighthouse.jpg").withUnsafeBytes { try JPEGStructure.parse($0) }
        #expect(progressive.progressive && progressive.scans > 1)
        let grey = try Self.sample("4-dunes.jpg").withUnsafeBytes { try JPEGStructure.parse($0) }
        #expect(grey.components.count == 1)
    }

    @Test func greyscaleComesOutGrey() throws {
        let bitmap = try JPEGDecoder.decode(try Self.sample("4-dunes.jpg"))
        for index in stride(from: 0, to: bitmap.pixels.count, by: 4) {
            #expect(bitmap.pixels[index] == bitmap.pixels[index + 1] && bitmap.pixels[index] == bitmap.pixels[index + 2])
        }
    }

    /// CMYK as Adobe writes it (inverted: 255 is no ink), encoded here by TurboJPEG itself.
    @Test func cmykComesOutAsRGB() throws {
        let width = 32, height = 16
        var cmyk: [UInt8] = []
        for _ in 0 ..< height {
            for x in 0 ..< width { cmyk += x < 16 ? [255, 255, 255, 255] : [255, 0, 255, 255] }  // white | magenta
        }
        let handle = try #require(tjInitCompress())
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = cmyk.withUnsafeBufferPointer {
            tjCompress2(handle, $0.baseAddress, Int32(width), 0, Int32(height), Int32(TJPF_CMYK.rawValue), &buffer, &size,
                        Int32(TJSAMP_444.rawValue), 95, 0)
        }
        #expect(status == 0)
        defer { tjFree(buffer) }
        let jpeg = Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
        let bitmap = try JPEGDecoder.decode(jpeg)
        func pixel(_ x: Int, _ y: Int) -> [Int] { (0 ..< 4).map { Int(bitmap.pixels[(y * width + x) * 4 + $0]) } }
        #expect(zip(pixel(4, 8), [255, 255, 255, 255]).allSatisfy { abs($0 - $1) <= 8 }, "\(pixel(4, 8))")
        #expect(zip(pixel(28, 8), [255, 0, 255, 255]).allSatisfy { abs($0 - $1) <= 8 }, "\(pixel(28, 8))")
    }

    @Test func scalesToTheSmallestFactorThatCovers() throws {
        let bytes = try Self.sample("1-sunset.jpg")  // 800 × 600
        let eighth = try JPEGDecoder.decode(bytes, covering: (100, 75))
        #expect((eighth.width, eighth.height) == (100, 75))
        let quarter = try JPEGDecoder.decode(bytes, covering: (101, 75))
        #expect((quarter.width, quarter.height) == (200, 150))
        let full = try JPEGDecoder.decode(bytes, covering: (2000, 2000))
        #expect((full.width, full.height) == (800, 600))
    }

    @Test func limitsAreCheckedBeforeDecoding() throws {
        let progressive = try Self.sample("3-lighthouse.jpg")
        let scans = try #require(throws: ImageDecodeError.self) {
            try JPEGDecoder.decode(progressive, limits: DecodeLimits(maxScans: 2))
        }
        #expect(scans.kind == .pastLimit && scans.message.contains("scans"))
        let pixels = try #require(throws: ImageDecodeError.self) {
            try JPEGDecoder.decode(progressive, limits: DecodeLimits(maxPixels: 1000))
        }
        #expect(pixels.kind == .pastLimit)
        let memory = try #require(throws: ImageDecodeError.self) {
            try JPEGDecoder.decode(progressive, limits: DecodeLimits(maxBytes: 200_000))
        }
        #expect(memory.kind == .pastLimit && memory.message.contains("memory"))
    }

    @Test func hugeDeclaredDimensionsCostNothing() throws {
        // A frame header declaring 65500 × 65500 in front of a few bytes of scan data.
        var bytes = try Self.sample("1-sunset.jpg")
        let sof = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = 0xFF; bytes[sof + 6] = 0xDC; bytes[sof + 7] = 0xFF; bytes[sof + 8] = 0xDC
        let error = try #require(throws: ImageDecodeError.self) { try JPEGDecoder.decode(Array(bytes.prefix(4000))) }
        #expect(error.kind == .pastLimit)
    }

    @Test func damagedDataIsCorruptNotACrash() throws {
        let bytes = try Self.sample("1-sunset.jpg")
        for damaged in [Array(bytes.prefix(bytes.count / 2)), Array(bytes.prefix(2)), [0xFF, 0xD8, 0xFF, 0xD9]] {
            let error = try #require(throws: ImageDecodeError.self) { try JPEGDecoder.decode(damaged) }
            #expect(error.kind == .corrupt, "\(error)")
        }
        var generator = SeededGenerator(seed: 3)
        for _ in 0 ..< 200 {
            var mutated = bytes
            for _ in 0 ..< 4 { mutated[Int.random(in: 2 ..< mutated.count, using: &generator)] = UInt8.random(in: 0 ... 255, using: &generator) }
            // Decoded or refused, both are fine; a refusal is a typed decode error, nothing else.
            do { _ = try JPEGDecoder.decode(mutated, covering: (50, 50)) } catch { #expect(error is ImageDecodeError, "\(error)") }
        }
    }

    @Test func budgetNeverLetsConcurrentReservationsPassItsTotal() throws {
        let budget = MemoryBudget(total: 100)
        #expect(throws: ImageDecodeError.self) { try budget.withReservation(101) {} }
        let inUse = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let bytes = 10 + (index * 37) % 80
            try? budget.withReservation(bytes) {
                let now = inUse.add(bytes, ordering: .sequentiallyConsistent).newValue
                peak.max(now, ordering: .sequentiallyConsistent)
                for _ in 0 ..< 1000 { _ = inUse.load(ordering: .relaxed) }
                inUse.subtract(bytes, ordering: .sequentiallyConsistent)
            }
        }
        #expect(peak.load(ordering: .relaxed) <= 100)
        #expect(peak.load(ordering: .relaxed) > 0)
    }
}
