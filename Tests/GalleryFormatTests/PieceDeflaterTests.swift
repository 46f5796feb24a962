@testable import GalleryFormat
import GalleryTestSupport
import Testing

/// A long manifest is deflated in pieces of a megabyte on several threads. The bytes must
/// depend on the input alone (a writer makes the same file for the same gallery), inflate
/// back to the input, and, for an input of one piece, be a single zlib stream's as before.
@Suite("Deflate in pieces")
struct PieceDeflaterTests {
    /// Text like a manifest's: repetitive, with varying digits, so that the dictionary matters.
    static func manifestLike(bytes count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        var text: [UInt8] = []
        text.reserveCapacity(count + 200)
        while text.count < count {
            let digest = (0 ..< 32).map { _ in String(UInt8.random(in: 0 ... 255, using: &random), radix: 16) }.joined()
            text += Array("    {\n      \"byteSize\": \(Int.random(in: 1000 ..< 20000, using: &random)),\n      \"sha256\": \"\(digest)\"\n    },\n".utf8)
        }
        return Array(text.prefix(count))
    }

    static func deflate(_ input: [UInt8], helpers: Int, feed: Int) throws -> [UInt8] {
        let deflater = PieceDeflater(level: 6, context: "manifest.json", helpers: helpers)
        var output: [UInt8] = []
        try input.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + feed)
                try deflater.compress(UnsafeRawBufferPointer(rebasing: bytes[offset ..< end])) { output += $0 }
                offset = end
            }
        }
        try deflater.finish { output += $0 }
        return output
    }

    static func inflate(_ deflated: [UInt8]) throws -> [UInt8] {
        let inflater = try Inflater(entry: "manifest.json")
        var inflated: [UInt8] = []
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { output.deallocate() }
        try deflated.withUnsafeBytes { input in try inflater.inflate(input, output: output) { inflated += $0 } }
        #expect(inflater.finished)
        return inflated
    }

    @Test(arguments: [0, PieceDeflater.manifestPieceSize * 3 + 12_345, PieceDeflater.manifestPieceSize * 2])
    func theBytesDependOnTheInputAloneAndInflateBack(size: Int) throws {
        let input = Self.manifestLike(bytes: size, seed: UInt64(size))
        let reference = try Self.deflate(input, helpers: 0, feed: max(size, 1))
        for (helpers, feed) in [(1, 1 << 20), (3, 77_777), (1, 4_096)] {
            #expect(try Self.deflate(input, helpers: helpers, feed: feed) == reference, "\(helpers) helpers, fed \(feed) at a time")
        }
        #expect(try Deflate.compress(input, level: 6, context: "manifest.json") == reference, "in memory as streamed")
        #expect(try Self.inflate(reference) == input)
    }

    @Test func onePieceIsOneZlibStream() throws {
        let input = Self.manifestLike(bytes: PieceDeflater.manifestPieceSize, seed: 3)
        let single = try Deflater(level: 6, context: "manifest.json")
        var expected: [UInt8] = []
        try input.withUnsafeBytes { try single.compress($0, finishing: true) { expected += $0 } }
        #expect(try Self.deflate(input, helpers: 1, feed: 100_000) == expected)
    }

    @Test func piecesReachBackIntoThePieceBefore() throws {
        // The second piece opens with the 16 KiB that end the first, random bytes: only the
        // first piece's text, given as the second's dictionary, lets them compress.
        var random = SeededGenerator(seed: 5)
        let first = (0 ..< PieceDeflater.manifestPieceSize).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
        let input = first + first.suffix(16 << 10)
        let deflated = try Self.deflate(input, helpers: 1, feed: 1 << 20)
        #expect(deflated.count - first.count < 4_000, "\(deflated.count - first.count) bytes past the first piece's")
        #expect(try Self.inflate(deflated) == input)
    }
}
