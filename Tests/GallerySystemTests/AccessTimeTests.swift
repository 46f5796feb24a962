import Foundation
@testable import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// A gallery read to show, list or check it keeps its access time (`openForReading`'s
/// O_NOATIME), as desktop indexers and backup tools read.
@Suite("Access times")
struct AccessTimeTests {
    /// A file whose access time is set well before its modification, so that any read the
    /// system records (strictatime, or relatime's rule) moves it.
    static func fileWithStaleAccessTime(in directory: TemporaryDirectory, named name: String) throws -> String {
        let path = directory.file(name)
        try Data(repeating: 7, count: 10_000).write(to: URL(fileURLWithPath: path))
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: time(nil), tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        return path
    }

    static func accessTime(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_atim.tv_sec : -1
    }

    /// Whether this system records reads in the temporary folder at all (a `noatime` mount
    /// does not, and then the test below could not fail).
    static let readsAreRecordedHere: Bool = {
        guard let directory = try? TemporaryDirectory(), let path = try? fileWithStaleAccessTime(in: directory, named: "probe"),
              let handle = FileHandle(forReadingAtPath: path) else { return false }
        _ = handle.readDataToEndOfFile()
        try? handle.close()
        return accessTime(path) != 1_000_000_000
    }()

    @Test(.enabled(if: readsAreRecordedHere, "this file system records no access times"))
    func aFileReadThroughOpenForReadingKeepsItsAccessTime() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.fileWithStaleAccessTime(in: directory, named: "gallery")
        do {
            let file = try GalleryFile.openForReading(FilePath(path))
            #expect(try file.read(at: 0, count: 10_000).count == 10_000)
            #expect(try file.read(at: 5_000, count: 100).count == 100)
        }
        #expect(Self.accessTime(path) == 1_000_000_000)
    }
}
