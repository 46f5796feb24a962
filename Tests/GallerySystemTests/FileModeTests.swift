import Foundation
@testable import GallerySystem
import GalleryTestSupport
import SystemPackage
import Glibc
import Testing

/// The modes of the files the toolkit creates, and how it learns the umask: never by setting
/// it, which every other thread creating a file would see (CommandLineTests' FileModeCommandTests
/// checks that no command calls umask(2)).
@Suite("File modes")
struct FileModeTests {
    /// The mode the kernel gives a file created with mode 0o666: what a new document gets.
    static func kernelMode(in directory: TemporaryDirectory, name: String) throws -> mode_t {
        let path = directory.file(name)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        try #require(fd >= 0, "open \(path): errno \(errno)")
        defer { _ = close(fd) }
        var info = stat()
        try #require(fstat(fd, &info) == 0)
        return info.st_mode & 0o7777
    }

    static func mode(of file: GalleryFile) throws -> mode_t {
        var info = stat()
        try #require(fstat(file.descriptor.rawValue, &info) == 0)
        return info.st_mode & 0o7777
    }

    @Test func theUmaskLineIsRead() {
        let status = Array("Name:\timagegallery\nUmask:\t0027\nState:\tR (running)\n".utf8)
        #expect(GalleryFile.parseCreationMask(status: status) == 0o027)
        #expect(GalleryFile.parseCreationMask(status: Array("Umask:\t0000\n".utf8)) == 0)
        #expect(GalleryFile.parseCreationMask(status: Array("Umask:\t0777".utf8)) == 0o777)
        #expect(GalleryFile.parseCreationMask(status: Array("Name:\tx\n".utf8)) == nil, "no Umask line (Linux before 4.7)")
        #expect(GalleryFile.parseCreationMask(status: Array("Umask:\t0089\n".utf8)) == nil)
        #expect(GalleryFile.parseCreationMask(status: Array("Umask:\t\n".utf8)) == nil)
    }

    /// Temporary and nameless files end up with the mode a file created by `open` gets.
    @Test func savedFilesGetTheModeOfAnyNewFile() throws {
        let directory = try TemporaryDirectory()
        let expected = try Self.kernelMode(in: directory, name: "plain")
        #expect(GalleryFile.documentPermissions().rawValue == expected)
        let temporary = try GalleryFile.createTemporary(in: FilePath(directory.path), prefix: "t")
        #expect(try Self.mode(of: temporary) == expected)
        let (unnamed, _) = try GalleryFile.createUnnamed(in: FilePath(directory.path), for: FilePath(directory.file("u.imagegallery")))
        #expect(try Self.mode(of: unnamed) == expected)
    }
}
