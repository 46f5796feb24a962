@testable import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// Nameless files (O_TMPFILE) that get a name once whole, and the named temporary file used
/// where the file system has none.
@Suite("Temporary files")
struct TemporaryFileTests {
    /// In the temporary folder if its file system has O_TMPFILE, else in tmpfs (/dev/shm), which
    /// has had it since Linux 3.11: the test never passes without making a nameless file.
    @Test func aNamelessFileAppearsOnlyWhenLinked() throws {
        var directory = try TemporaryDirectory()
        var target = directory.file("doc.imagegallery")
        var (file, isNamed) = try GalleryFile.createUnnamed(in: FilePath(directory.path), for: FilePath(target))
        if isNamed {
            GalleryFileSystem.remove(file.filePath)
            directory = try TemporaryDirectory(in: "/dev/shm")
            target = directory.file("doc.imagegallery")
            (file, isNamed) = try GalleryFile.createUnnamed(in: FilePath(directory.path), for: FilePath(target))
        }
        try #require(!isNamed, "neither the temporary folder's file system nor tmpfs made a nameless file")
        try file.write(Array("saved".utf8), at: 0)
        #expect(PathKind.of(FilePath(target)) == .missing)
        try file.link(as: FilePath(target))
        #expect(try GalleryFile.openForReading(FilePath(target)).read(at: 0, count: 10) == Array("saved".utf8))
    }

    @Test(arguments: [Errno.notSupportedOnSocket, .isDirectory, .noFunction, .invalidArgument])
    func withoutOTmpfileANamedTemporaryFileIsMade(_ code: Errno) throws {
        let directory = try TemporaryDirectory()
        let target = directory.file("doc.imagegallery")
        let (file, isNamed) = try GalleryFile.createUnnamed(in: FilePath(directory.path), for: FilePath(target)) { _ in .failure(code) }
        #expect(isNamed)
        #expect(GalleryFileSystem.directory(of: file.path) == directory.path)
        #expect(GalleryFileSystem.fileName(of: file.path).hasPrefix(".doc.imagegallery.tmp-"))
        #expect(PathKind.of(file.filePath) == .regularFile)
    }

    @Test func anyOtherFailureOfOTmpfileIsAnErrorNamingTheFolder() throws {
        let directory = try TemporaryDirectory()
        let error = try #require(throws: FileSystemError.self) {
            _ = try GalleryFile.createUnnamed(in: FilePath(directory.path), for: FilePath(directory.file("doc"))) { _ in .failure(.permissionDenied) }
        }
        #expect(error.path == directory.path && error.operation == "create a temporary file in" && error.kind == .permissionDenied)
    }

    @Test func aSavedCopyTakesTheOriginalsPermissions() throws {
        let directory = try TemporaryDirectory()
        let original = directory.file("original")
        let copy = try GalleryFile.create(FilePath(original), permissions: [.ownerReadWrite, .groupRead])
        try copy.write([1], at: 0)
        let (file, isNamed) = try GalleryFile.createUnnamed(in: FilePath(directory.path), for: FilePath(original))
        defer { if isNamed { GalleryFileSystem.remove(file.filePath) } }
        try file.copyAttributes(of: FilePath(original))
        #expect(try file.descriptor.stat().permissions == [.ownerReadWrite, .groupRead])
    }
}
