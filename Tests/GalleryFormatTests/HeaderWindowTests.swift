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

/// The local headers of a gallery of photos are read ahead, beside the central directory's
/// parse, and lent to the judging: only ever the file's own bytes, for the offset and length
/// asked, and the findings those of one reading in file order.
@Suite("Local headers read ahead")
struct HeaderPrefetchTests {
    /// `bytes` in a buffer of the kind an archive reads its central directory into.
    private func inBuffer(_ bytes: [UInt8]) throws -> HugePageBuffer {
        let buffer = try #require(HugePageBuffer(count: bytes.count))
        bytes.withUnsafeBytes { buffer.bytes.copyMemory(from: $0) }
        return buffer
    }

    /// An archive of `count` stored entries, some far apart and some close together, and its
    /// central directory's bytes.
    private func archive(_ count: Int, in directory: TemporaryDirectory) throws -> (path: FilePath, directory: [UInt8]) {
        let path = FilePath(directory.path).appending("ahead.zip")
        let zip = ZipWriter(file: try GalleryFile.create(path), modified: Timestamp(seconds: 0))
        for index in 0 ..< count {
            let bytes = [UInt8](repeating: UInt8(index & 0xFF), count: index % 5 == 0 ? 40_000 : 1 + index % 300)
            try zip.add(name: String(format: "images/%05d.bin", index), bytes: bytes, method: .stored)
        }
        try zip.finish()
        let archive = try ZipArchive(path: path.string)
        let central = try archive.file.read(at: archive.centralDirectoryOffset, count: Int(archive.centralDirectorySize))
        return (path, central)
    }

    @Test func everyHeaderHeldIsTheFilesOwnBytes() throws {
        let directory = try TemporaryDirectory()
        // Three runs and part of a fourth, so that both threads take runs and one is short.
        let count = HeaderPrefetch.runLength * 3 + 77
        let (path, central) = try archive(count, in: directory)
        let file = try GalleryFile.openForReading(path)
        let archive = try ZipArchive(file: file)
        let prefetch = try #require(HeaderPrefetch.startReading(try inBuffer(central), size: central.count, count: count, longestName: 1024, file: file))
        let held = try #require(prefetch.finish(helping: true))
        for entry in archive.entries {
            let wanted = ZipArchive.firstHeaderRead(nameLength: entry.nameLength)
            guard let lent = held.bytes(of: entry.index, at: entry.localHeaderOffset, count: wanted) else {
                Issue.record("the header of \(entry.name) was not held")
                continue
            }
            #expect(Array(lent) == (try file.read(at: entry.localHeaderOffset, count: wanted)), "\(entry.name)")
            // Any other offset or length is not lent: the judging reads it from the file.
            #expect(held.bytes(of: entry.index, at: entry.localHeaderOffset + 1, count: wanted) == nil)
            #expect(held.bytes(of: entry.index, at: entry.localHeaderOffset, count: wanted + 1) == nil)
        }
        #expect(held.bytes(of: count, at: 0, count: 1) == nil)
    }

    @Test func damageIsFoundFromHeldHeadersAsFromTheFile() throws {
        let directory = try TemporaryDirectory()
        let count = HeaderPrefetch.runLength * 2 + 30
        let (path, central) = try archive(count, in: directory)
        let intact = try ZipArchive(path: path.string)
        let damaged = [0, 255, 256, 300, count - 1]
        let writer = try GalleryFile.openForWritingInPlace(path).file
        for index in damaged {
            try writer.write([UInt8(ascii: "X")], at: intact.entries[index].localHeaderOffset + 30)
        }
        let file = try GalleryFile.openForReading(path)
        let archive = try ZipArchive(collectingProblemsOf: file)
        let held = try #require(HeaderPrefetch.startReading(try inBuffer(central), size: central.count, count: count, longestName: 1024, file: file)?.finish(helping: true))
        let fromHeld = archive.layoutDiagnostics(held: held).filter { $0.severity >= .error }
        #expect(fromHeld.map(\.location.entry) == damaged.map { String(format: "images/%05d.bin", $0) })
        #expect(fromHeld.map(\.message) == archive.layoutDiagnostics().filter { $0.severity >= .error }.map(\.message))
    }

    @Test func aWalkStoppedByADamagedRecordLeavesTheRestToTheFile() throws {
        let directory = try TemporaryDirectory()
        let count = HeaderPrefetch.runLength + 10
        let made = try archive(count, in: directory)
        var central = made.directory
        // Break the signature of the 100th central record: the walk stops there.
        var offset = 0
        for _ in 0 ..< 100 {
            let variable = Int(central[offset + 28]) | Int(central[offset + 29]) << 8
            let extra = Int(central[offset + 30]) | Int(central[offset + 31]) << 8
            let comment = Int(central[offset + 32]) | Int(central[offset + 33]) << 8
            offset += 46 + variable + extra + comment
        }
        central[offset] = 0
        let plan = central.withUnsafeBytes { HeaderPrefetch.plan(of: $0, count: count, longestName: 1024) }
        #expect(plan.offsets.count == 100)
        let file = try GalleryFile.openForReading(made.path)
        let archive = try ZipArchive(file: file)
        let held = try #require(HeaderPrefetch.startReading(try inBuffer(central), size: central.count, count: count, longestName: 1024, file: file)?.finish(helping: true))
        #expect(archive.entries.filter { held.bytes(of: $0.index, at: $0.localHeaderOffset,
                                                     count: ZipArchive.firstHeaderRead(nameLength: $0.nameLength)) != nil }.count == 100)
        #expect(archive.layoutDiagnostics(held: held).filter { $0.severity >= .error }.isEmpty)
    }

    @Test func theHeldBytesAreBounded() throws {
        let directory = try TemporaryDirectory()
        let count = 300
        let central = try archive(count, in: directory).directory
        let each = ZipArchive.firstHeaderRead(nameLength: "images/00000.bin".utf8.count)
        let plan = central.withUnsafeBytes { HeaderPrefetch.plan(of: $0, count: count, longestName: 1024, holdingAtMost: each * 120 + each / 2) }
        #expect(plan.offsets.count == 120)
        #expect(central.withUnsafeBytes { HeaderPrefetch.plan(of: $0, count: count, longestName: 1024) }.offsets.count == count)
        // A name longer than the parse allows stops the walk at once.
        #expect(central.withUnsafeBytes { HeaderPrefetch.plan(of: $0, count: count, longestName: 15) }.offsets.isEmpty)
    }

    @Test func anOpenThatFailsStopsTheReading() throws {
        let directory = try TemporaryDirectory()
        let count = HeaderPrefetch.runLength * 4
        let (path, central) = try archive(count, in: directory)
        let prefetch = try #require(HeaderPrefetch.startReading(try inBuffer(central), size: central.count, count: count, longestName: 1024, file: GalleryFile.openForReading(path)))
        #expect(prefetch.finish(helping: false) == nil)
    }
}
