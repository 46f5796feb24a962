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
                #expect(Array(windowed) == (try file.read(at: offset, count: count)), "round \(round) at \(offset) for \(count)")
                offset = next == offset ? offset + 1 : next
            }
        }
    }
}

/// The local headers of a large archive are read in parts on every core; what is found must
/// be what one reading in file order finds, part boundaries and windows notwithstanding.
@Suite("Local headers read in parts")
struct EntryExtentsTests {
    @Test func damageInEveryPartIsFoundInFileOrder() throws {
        let directory = try TemporaryDirectory()
        let path = FilePath(directory.path).appending("many.zip")
        let count = ZipArchive.headersReadInParts + 1000
        do {
            let zip = ZipWriter(file: try GalleryFile.create(path), modified: Timestamp(seconds: 0))
            for index in 0 ..< count {
                // Sizes that vary, so that some neighbours share a window and some do not.
                let bytes = [UInt8](repeating: UInt8(index & 0xFF), count: index % 7 == 0 ? 40_000 : 1 + index % 300)
                try zip.add(name: String(format: "images/%05d.bin", index), bytes: bytes, method: .stored)
            }
            try zip.finish()
        }
        let intact = try ZipArchive(collectingProblemsOf: GalleryFile.openForReading(path))
        #expect(intact.layoutDiagnostics().filter { $0.severity >= .error }.isEmpty)
        let damaged = [3, 257, 1024, count / 2, 1777, count - 1].sorted()
        let writer = try GalleryFile.openForWritingInPlace(path).file
        for index in damaged {
            // The first byte of the name in the local header: the central directory keeps its own.
            try writer.write([UInt8(ascii: "X")], at: intact.entries[index].localHeaderOffset + 30)
        }
        let archive = try ZipArchive(collectingProblemsOf: GalleryFile.openForReading(path))
        let found = archive.layoutDiagnostics().filter { $0.severity >= .error }
        #expect(found.map(\.code) == damaged.map { _ in .headerMismatch })
        #expect(found.map(\.location.entry) == damaged.map { String(format: "images/%05d.bin", $0) })
    }
}
