@testable import GalleryFormat
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// The scan of every local header reads neighbouring headers through one buffer. Whatever the
/// spacing, each read must give exactly what a read of its own would: the same bytes, and the
/// same short read at the end of the file.
@Suite("Local headers read many to a call")
struct HeaderWindowTests {
    @Test func everyReadGivesWhatAReadOfItsOwnGives() throws {
        let directory = try TemporaryDirectory()
        let path = FilePath(directory.path).appending("bytes")
        var random = SeededGenerator(seed: 12)
        let content = (0 ..< 300_000).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
        let writer = try GalleryFile.create(path)
        try writer.write(content, at: 0)
        let file = try GalleryFile.openForReading(path)
        for round in 0 ..< 40 {
            var window = HeaderWindow(file: file)
            // Offsets in order, as the scan has them: close together, far apart, and at the end.
            var offset = UInt64.random(in: 0 ..< 2_000, using: &random)
            while offset < UInt64(content.count) + 100 {
                let gap = [UInt64.random(in: 0 ..< 300, using: &random), .random(in: 0 ..< 40_000, using: &random),
                           .random(in: 0 ..< 200_000, using: &random)][Int(random.next() % 3)]
                let next = offset + gap
                let count = Int.random(in: 1 ..< 400, using: &random)
                let windowed = try window.read(at: offset, count: count, nextHeader: round % 5 == 0 ? nil : next)
                #expect(windowed == (try file.read(at: offset, count: count)), "round \(round) at \(offset) for \(count)")
                offset = next == offset ? offset + 1 : next
            }
        }
    }
}
