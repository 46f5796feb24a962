import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// Every failure names its place: the path, the operation, and the system's reason, with the
/// error code typed.
@Suite("File-system errors")
struct FileSystemErrorTests {
    @Test func aMissingFileNamesItsPathOperationAndCode() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("absent.imagegallery")
        let error = try #require(throws: FileSystemError.self) { try GalleryFile.openForReading(FilePath(path)) }
        #expect(error.kind == .notFound)
        #expect(error.code == .noSuchFileOrDirectory)
        #expect(error.path == path && error.operation == "open")
        #expect(error.description == "\(path): cannot open: No such file or directory")
    }

    @Test func aFolderIsRefusedAsAFileToRead() throws {
        let directory = try TemporaryDirectory()
        let error = try #require(throws: FileSystemError.self) { try GalleryFile.openForReading(FilePath(directory.path)) }
        #expect(error.kind == .isDirectory && error.code == .isDirectory)
    }

    @Test func creatingOverAnExistingFileIsAlreadyExists() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("taken")
        _ = try GalleryFile.create(FilePath(path))
        let error = try #require(throws: FileSystemError.self) { try GalleryFile.create(FilePath(path)) }
        #expect(error.kind == .alreadyExists && error.code == .fileExists && error.operation == "create")
    }

    @Test func aMissingFolderIsNamedWhenMakingOneInside() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("missing/inner")
        let error = try #require(throws: FileSystemError.self) { try GalleryFileSystem.makeFolder(FilePath(path)) }
        #expect(error.path == path && error.operation == "create the folder" && error.kind == .notFound)
    }

    @Test func makeFoldersLeavesExistingOnesAndMakesTheRest() throws {
        let directory = try TemporaryDirectory()
        try GalleryFileSystem.makeFolders(FilePath(directory.file("a/b/c")), permissions: .ownerReadWriteExecute)
        try GalleryFileSystem.makeFolders(FilePath(directory.file("a/b/c/d")), permissions: .ownerReadWriteExecute)
        #expect(PathKind.of(FilePath(directory.file("a/b/c/d"))) == .directory)
        let status = try FileStatus.of(FilePath(directory.file("a/b")), followingLinks: false)
        #expect(status.kind == .directory)
    }
}
