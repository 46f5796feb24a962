@testable import GalleryFormat
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// A deflated entry read whole is inflated by one call over the whole buffer; it must give what
/// the streaming read gives, and anything amiss must be left to the streaming read, which says
/// what is wrong as it always has.
@Suite("Entries inflated whole")
struct WholeInflateTests {
    /// Text that deflates about as a manifest does.
    static let text: [UInt8] = {
        var random = SeededGenerator(seed: 34)
        var lines: [UInt8] = []
        while lines.count < 400_000 {
            let number = random.next() % 100_000
            lines += Array("{\"id\":\"\(number)\",\"filename\":\"IMG_\(number).jpg\",\"width\":\(number % 6000)},\n".utf8)
        }
        return lines
    }()

    /// An archive holding `text` deflated, after a stored entry; returns its path and the
    /// offsets of the deflated entry's two headers.
    private func archive(in directory: TemporaryDirectory) throws -> (path: FilePath, local: UInt64, central: UInt64) {
        let path = FilePath(directory.path).appending("whole.zip")
        let zip = ZipWriter(file: try GalleryFile.create(path), modified: Timestamp(seconds: 0))
        try zip.add(name: "first.bin", bytes: [1, 2, 3], method: .stored)
        try zip.add(name: "manifest.json", bytes: Self.text, method: .deflated)
        try zip.finish()
        let archive = try ZipArchive(path: path.string)
        let entry = try #require(archive.entry(named: "manifest.json"))
        let central = try archive.file.read(at: archive.centralDirectoryOffset, count: Int(archive.centralDirectorySize))
        // The deflated entry's record follows the stored entry's: 46 bytes, a name, an extra
        // field and a comment.
        func field(_ at: Int) -> Int { Int(central[at]) | Int(central[at + 1]) << 8 }
        let second = 46 + field(28) + field(30) + field(32)
        #expect(central[second ..< second + 4] == [0x50, 0x4B, 0x01, 0x02])
        return (path, entry.localHeaderOffset, archive.centralDirectoryOffset + UInt64(second))
    }

    private func patch(_ path: FilePath, at offset: UInt64, _ value: UInt32) throws {
        let writer = try GalleryFile.openForWritingInPlace(path).file
        try writer.write(withUnsafeBytes(of: value.littleEndian) { Array($0) }, at: offset)
    }

    private func streamingFailure(_ archive: ZipArchive, _ entry: ZipEntry) -> DiagnosticCode? {
        do {
            try archive.read(entry) { _ in }
            return nil
        } catch let error as GalleryError {
            return error.code
        } catch {
            return nil
        }
    }

    @Test func aSoundEntryInflatesWholeToWhatTheStreamGives() throws {
        let directory = try TemporaryDirectory()
        let archive = try ZipArchive(path: archive(in: directory).path.string)
        let entry = try #require(archive.entry(named: "manifest.json"))
        let whole = try #require(archive.inflatedWhole(entry))
        var streamed: [UInt8] = []
        try archive.read(entry) { streamed += $0 }
        #expect(whole == Self.text)
        #expect(streamed == Self.text)
        #expect(try archive.readAll(entry, limit: 1 << 20) == Self.text)
    }

    @Test(arguments: ["damaged data", "another CRC-32", "declared one byte short", "declared one byte long"])
    func aDamagedEntryIsLeftToTheStreamingRead(_ damage: String) throws {
        let directory = try TemporaryDirectory()
        let (path, local, central) = try archive(in: directory)
        let sound = try ZipArchive(path: path.string)
        let size = UInt32(Self.text.count)
        switch damage {
        case "damaged data":
            let entry = try #require(sound.entry(named: "manifest.json"))
            try patch(path, at: try sound.dataOffset(of: entry) + 1000, 0xDEAD_BEEF)
        case "another CRC-32":
            let crc = try #require(sound.entry(named: "manifest.json")).crc32 ^ 1
            try patch(path, at: local + 14, crc)
            try patch(path, at: central + 16, crc)
        default:
            let declared = damage.hasSuffix("short") ? size - 1 : size + 1
            try patch(path, at: local + 22, declared)
            try patch(path, at: central + 24, declared)
        }
        let archive = try ZipArchive(path: path.string)
        let entry = try #require(archive.entry(named: "manifest.json"))
        #expect(archive.inflatedWhole(entry) == nil)
        let expected = try #require(streamingFailure(archive, entry))
        #expect(throws: GalleryError.self) { try archive.readAll(entry, limit: 1 << 20) }
        do {
            _ = try archive.readAll(entry, limit: 1 << 20)
        } catch let error as GalleryError {
            #expect(error.code == expected, "\(error)")
        }
    }
}
