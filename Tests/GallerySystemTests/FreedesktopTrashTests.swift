import Foundation
@testable import GallerySystem
import GalleryTestSupport
import Testing

/// Deleting to the desktop's Trash (freedesktop.org Trash specification 1.0): the file is moved,
/// never unlinked, with a `.trashinfo` a file manager can restore it from.
@Suite("Freedesktop Trash")
struct FreedesktopTrashTests {
    let directory: TemporaryDirectory
    var environment: [String: String] { ["XDG_DATA_HOME": directory.file("data"), "HOME": directory.file("home")] }

    init() throws {
        directory = try TemporaryDirectory()
    }

    func makeFile(_ name: String, contents: String) throws -> String {
        let path = directory.file(name)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aFileMovesWithItsInfoAndCanBeRestoredFromIt() throws {
        let path = try makeFile("Trip 100% fun.imagegallery", contents: "the bytes")
        let when = Date(timeIntervalSince1970: 1_795_600_000)
        let trashed = try FreedesktopTrash.trash(path, environment: environment, now: when)
        #expect(trashed.path == directory.file("data/Trash/files/Trip 100% fun.imagegallery"))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(String(decoding: try FileBytes.read(trashed.path), as: UTF8.self) == "the bytes")

        let info = String(decoding: try FileBytes.read(trashed.infoPath), as: UTF8.self)
        let lines = info.split(separator: "\n").map(String.init)
        #expect(lines.first == "[Trash Info]")
        let recorded = try #require(lines.first { $0.hasPrefix("Path=") }).dropFirst(5)
        #expect(recorded.contains("%20") && recorded.contains("%25") && !recorded.contains(" "))
        // What a file manager does to restore: decode Path= and move the file back.
        let original = try #require(String(recorded).removingPercentEncoding)
        #expect(original == path)
        let date = try #require(lines.first { $0.hasPrefix("DeletionDate=") }).dropFirst(13)
        // Local time to the second, as the specification asks: what Foundation's formatter writes.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        #expect(date == formatter.string(from: when))
        try FileManager.default.moveItem(atPath: trashed.path, toPath: original)
        #expect(String(decoding: try FileBytes.read(path), as: UTF8.self) == "the bytes")
    }

    @Test func aSecondFileOfTheSameNameGetsAnotherNameAndNeitherIsLost() throws {
        let first = try FreedesktopTrash.trash(try makeFile("a.imagegallery", contents: "one"), environment: environment)
        let second = try FreedesktopTrash.trash(try makeFile("a.imagegallery", contents: "two"), environment: environment)
        #expect(first.path != second.path)
        #expect(second.infoPath.hasSuffix("/a.imagegallery.2.trashinfo"))
        #expect(String(decoding: try FileBytes.read(first.path), as: UTF8.self) == "one")
        #expect(String(decoding: try FileBytes.read(second.path), as: UTF8.self) == "two")
    }

    @Test func aNameClaimedByAnotherInfoFileIsSkipped() throws {
        try FileManager.default.createDirectory(atPath: directory.file("data/Trash/info"), withIntermediateDirectories: true)
        // Another program claimed the name (its info first, as the specification says) but has
        // not moved its file yet: the name is theirs.
        FileManager.default.createFile(atPath: directory.file("data/Trash/info/b.imagegallery.trashinfo"), contents: Data())
        let trashed = try FreedesktopTrash.trash(try makeFile("b.imagegallery", contents: "mine"), environment: environment)
        #expect(trashed.path.hasSuffix("/files/b.imagegallery.2"))
        #expect(try FileBytes.read(directory.file("data/Trash/info/b.imagegallery.trashinfo")).isEmpty)
    }

    @Test func aMissingFileIsAnErrorNamingIt() throws {
        #expect {
            try FreedesktopTrash.trash(directory.file("missing.imagegallery"), environment: environment)
        } throws: { error in
            (error as? FileSystemError)?.kind == .notFound && "\(error)".contains("missing.imagegallery")
        }
    }
}
