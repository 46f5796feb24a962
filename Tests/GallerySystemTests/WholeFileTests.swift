import Foundation
@testable import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// What the modules outside GallerySystem used Foundation's `FileManager`, `Data(contentsOf:)`
/// and atomic writes for, now GallerySystem's: the same results, errors that name the path.
@Suite("Whole files, trees and the process")
struct WholeFileTests {
    @Test func contentsAreTheWholeFileProcFilesIncluded() throws {
        let directory = try TemporaryDirectory()
        let bytes = (0 ..< 200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: directory.file("big")))
        #expect(try GalleryFileSystem.contents(of: FilePath(directory.file("big"))) == bytes)
        FileManager.default.createFile(atPath: directory.file("empty"), contents: nil)
        #expect(try GalleryFileSystem.contents(of: FilePath(directory.file("empty"))) == [])
        // /proc says its files are empty; they are read to their end all the same.
        let status = String(decoding: try GalleryFileSystem.contents(of: "/proc/self/status"), as: UTF8.self)
        #expect(status.contains("Pid:\t\(ProcessID.current)"))
    }

    @Test func aMissingFileOrAFolderIsAnErrorNamingIt() {
        #expect { try GalleryFileSystem.contents(of: "/nonexistent/file") } throws: { error in
            (error as? FileSystemError).map { $0.kind == .notFound && $0.path == "/nonexistent/file" } ?? false
        }
        #expect { try GalleryFileSystem.contents(of: "/tmp") } throws: { error in
            (error as? FileSystemError)?.kind == .isDirectory
        }
    }

    @Test func writeWholeReplacesTheFileWithTheModeAsked() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("record.json")
        try GalleryFileSystem.writeWhole(Array("old".utf8), to: FilePath(path))
        try GalleryFileSystem.writeWhole(Array("new".utf8), to: FilePath(path), permissions: .ownerReadWrite)
        #expect(try GalleryFileSystem.contents(of: FilePath(path)) == Array("new".utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // Nothing left beside it: the temporary file became the record.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["record.json"])
    }

    @Test func writeWholeWithoutPermissionsGivesADocumentsMode() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("report.txt")
        try GalleryFileSystem.writeWhole(Array("text".utf8), to: FilePath(path))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode.map(UInt32.init) == 0o666 & ~GalleryFile.creationMask())
    }

    @Test func removeTreeRemovesEverythingAndLeavesWhatALinkPointsAt() throws {
        let directory = try TemporaryDirectory()
        let outside = directory.file("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
        FileManager.default.createFile(atPath: outside + "/kept", contents: Data("x".utf8))
        let tree = directory.file("tree")
        try FileManager.default.createDirectory(atPath: tree + "/a/b/.hidden", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: tree + "/a/b/file", contents: Data("y".utf8))
        try FileManager.default.createSymbolicLink(atPath: tree + "/a/link", withDestinationPath: outside)
        try GalleryFileSystem.removeTree(FilePath(tree))
        #expect(!FileManager.default.fileExists(atPath: tree))
        #expect(FileManager.default.fileExists(atPath: outside + "/kept"))
        // Gone already: not an error; a single file goes too.
        try GalleryFileSystem.removeTree(FilePath(tree))
        try GalleryFileSystem.removeTree(FilePath(outside + "/kept"))
        #expect(!FileManager.default.fileExists(atPath: outside + "/kept"))
    }

    @Test func availableBytesAreStatvfss() throws {
        let directory = try TemporaryDirectory()
        let free = try GalleryFileSystem.availableBytes(on: FilePath(directory.path))
        let foundation = try FileManager.default.attributesOfFileSystem(forPath: directory.path)[.systemFreeSize] as? NSNumber
        // Other processes write meanwhile: the two readings are near, not equal.
        let difference = Int64(free) - (foundation?.int64Value ?? 0)
        #expect(abs(difference) < 256 << 20)
        #expect { try GalleryFileSystem.availableBytes(on: "/nonexistent") } throws: { error in
            (error as? FileSystemError)?.path == "/nonexistent"
        }
    }

    @Test func theTemporaryFolderIsTMPDIRsOrTmp() {
        #expect(UserFolders.temporary(["TMPDIR": "/var/tmp/"]) == "/var/tmp")
        #expect(UserFolders.temporary(["TMPDIR": "relative"]) == "/tmp")
        #expect(UserFolders.temporary([:]) == "/tmp")
        #expect(CurrentProcess.environment == ProcessInfo.processInfo.environment)
    }

    /// The user's folders read only the variables they need, as the process has them now.
    @Test func theUserFoldersReadTheVariablesTheyName() {
        CurrentProcess.setEnvironment("IMAGEGALLERY_TEST_VARIABLE", "/somewhere/state", replacing: true)
        let found = CurrentProcess.variables("IMAGEGALLERY_TEST_VARIABLE", "IMAGEGALLERY_TEST_UNSET")
        #expect(found == ["IMAGEGALLERY_TEST_VARIABLE": "/somewhere/state"])
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        #expect(CurrentProcess.variables("HOME") == (home.isEmpty ? [:] : ["HOME": home]))
        #expect(UserFolders.state() == UserFolders.state(ProcessInfo.processInfo.environment))
        #expect(UserFolders.cache() == UserFolders.cache(ProcessInfo.processInfo.environment))
        #expect(UserFolders.runtime() == UserFolders.runtime(ProcessInfo.processInfo.environment))
        #expect(UserFolders.temporary() == UserFolders.temporary(ProcessInfo.processInfo.environment))
    }

    @Test func theUTF8CharacterSetIsTheThreadsForTheCallOnly() {
        // MB_CUR_MAX is the current locale's longest character: 1 in "C", 6 in C.UTF-8.
        let before = __ctype_get_mb_cur_max()
        let inside = CurrentProcess.withUTF8CharacterSet { __ctype_get_mb_cur_max() }
        #expect(inside == 6)
        #expect(__ctype_get_mb_cur_max() == before)
    }

    @Test func aChildsStandardErrorGoesToDevNullWhenAsked() throws {
        let child = try ChildProcess("/bin/sh", arguments: ["-c", "echo noise >&2; echo out"], output: .pipe, error: .nothing)
        var output: [UInt8] = []
        while true {
            let chunk = try child.read()
            if chunk.isEmpty { break }
            output += chunk
        }
        #expect(String(decoding: output, as: UTF8.self) == "out\n")
        #expect(try child.wait() == .exited(0))
    }

    @Test func aChildLeftToRunIsReapedInTheBackground() throws {
        let child = try ChildProcess("/bin/true", arguments: [])
        let pid = child.processID
        child.waitInBackground()
        // Once reaped, the pid names no process (not even a zombie).
        for _ in 0 ..< 500 where ProcessID(rawValue: pid).isRunning { usleep(10_000) }
        #expect(!ProcessID(rawValue: pid).isRunning)
    }
}
