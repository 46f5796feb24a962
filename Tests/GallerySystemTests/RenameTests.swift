@testable import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// renameat2: an exchange of two names, and a move that never replaces.
@Suite("Renames")
struct RenameTests {
    static func write(_ path: String, _ text: String) throws {
        try GalleryFile.create(FilePath(path)).write(Array(text.utf8), at: 0)
    }

    static func read(_ path: String) throws -> String {
        String(decoding: try GalleryFile.openForReading(FilePath(path)).read(at: 0, count: 100), as: UTF8.self)
    }

    @Test func exchangeSwapsTwoNamesWhereTheFileSystemCan() throws {
        let directory = try TemporaryDirectory()
        let (a, b) = (directory.file("a"), directory.file("b"))
        try Self.write(a, "first")
        try Self.write(b, "second")
        if try GalleryFileSystem.exchange(FilePath(a), FilePath(b)) {
            #expect(try Self.read(a) == "second" && Self.read(b) == "first")
        } else {
            // No RENAME_EXCHANGE here: nothing may have moved.
            #expect(try Self.read(a) == "first" && Self.read(b) == "second")
        }
    }

    @Test func exchangeWithAMissingNameNamesItAndTheOperation() throws {
        let directory = try TemporaryDirectory()
        let (a, b) = (directory.file("a"), directory.file("gone"))
        try Self.write(a, "first")
        let error = try #require(throws: FileSystemError.self) { _ = try GalleryFileSystem.exchange(FilePath(a), FilePath(b)) }
        #expect(error.path == b && error.operation == "swap \(a) with" && error.code == .noSuchFileOrDirectory)
        #expect(try Self.read(a) == "first")
    }

    @Test func moveNoReplaceRefusesAnExistingNameAndKeepsBoth() throws {
        let directory = try TemporaryDirectory()
        let (source, destination) = (directory.file("new"), directory.file("old"))
        try Self.write(source, "new")
        try Self.write(destination, "old")
        let error = try #require(throws: FileSystemError.self) { try GalleryFileSystem.moveNoReplace(FilePath(source), to: FilePath(destination)) }
        #expect(error.kind == .alreadyExists && error.path == destination && error.operation == "create")
        #expect(try Self.read(source) == "new" && Self.read(destination) == "old")
    }

    @Test func moveNoReplaceMovesToAFreeName() throws {
        let directory = try TemporaryDirectory()
        let (source, destination) = (directory.file("new"), directory.file("free"))
        try Self.write(source, "new")
        try GalleryFileSystem.moveNoReplace(FilePath(source), to: FilePath(destination))
        #expect(try Self.read(destination) == "new")
        #expect(PathKind.of(FilePath(source)) == .missing)
    }
}
