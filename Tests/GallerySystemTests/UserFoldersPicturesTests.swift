import Foundation
import GalleryTestSupport
@testable import GallerySystem
import SystemPackage
import Testing

/// Where the "Image Galleries" launcher opens the browser: `$XDG_PICTURES_DIR`, then the folder
/// xdg-user-dirs recorded, then `~/Pictures`, then home. Each test makes a home and a
/// configuration folder of its own and reads them through the real file system.
@Suite("User folders: Pictures")
struct UserFoldersPicturesTests {
    let root: TemporaryDirectory
    let home: FilePath
    let config: FilePath

    init() throws {
        root = try TemporaryDirectory()
        home = FilePath(root.path).appending("home")
        config = FilePath(root.path).appending("config")
        try GalleryFileSystem.makeFolder(home)
    }

    /// HOME and XDG_CONFIG_HOME in the test's folder; nothing of the process's own environment.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        ["HOME": home.string, "XDG_CONFIG_HOME": config.string].merging(extra) { $1 }
    }

    @discardableResult
    func folder(_ path: FilePath) throws -> FilePath {
        try GalleryFileSystem.makeFolders(path)
        return path
    }

    func userDirs(_ bytes: [UInt8], in folder: FilePath? = nil) throws {
        let place = try self.folder(folder ?? config)
        try GalleryFileSystem.writeWhole(bytes, to: place.appending("user-dirs.dirs"))
    }

    func userDirs(_ text: String, in folder: FilePath? = nil) throws { try userDirs(Array(text.utf8), in: folder) }

    @Test func theEnvironmentVariableComesFirst() throws {
        let named = try folder(FilePath(root.path).appending("named"))
        try userDirs("XDG_PICTURES_DIR=\"$HOME/Photos\"\n")
        try folder(home.appending("Photos"))
        try folder(home.appending("Pictures"))
        #expect(UserFolders.pictures(environment(["XDG_PICTURES_DIR": named.string])) == named)
    }

    /// A relative value is no setting (as for the other XDG variables), and a missing folder is
    /// passed over: both fall to the next place.
    @Test func aRelativeOrMissingEnvironmentFolderIsPassedOver() throws {
        try userDirs("XDG_PICTURES_DIR=\"$HOME/Photos\"\n")
        let photos = try folder(home.appending("Photos"))
        #expect(UserFolders.pictures(environment(["XDG_PICTURES_DIR": "named"])) == photos)
        #expect(UserFolders.pictures(environment(["XDG_PICTURES_DIR": FilePath(root.path).appending("gone").string])) == photos)
    }

    @Test func theUserDirsFileComesBeforeThePicturesFolder() throws {
        try userDirs("""
            # This file is written by xdg-user-dirs-update
            XDG_DESKTOP_DIR="$HOME/Desktop"
            XDG_PICTURES_DIR="$HOME/Bilder"
            XDG_VIDEOS_DIR="$HOME/Videos"

            """)
        let bilder = try folder(home.appending("Bilder"))
        try folder(home.appending("Pictures"))
        #expect(UserFolders.pictures(environment()) == bilder)
    }

    /// Without XDG_CONFIG_HOME the file is ~/.config/user-dirs.dirs.
    @Test func theFileIsUnderDotConfigWithoutXdgConfigHome() throws {
        try userDirs("XDG_PICTURES_DIR=\"$HOME/Fotos\"\n", in: home.appending(".config"))
        let fotos = try folder(home.appending("Fotos"))
        #expect(UserFolders.pictures(["HOME": home.string]) == fotos)
        #expect(UserFolders.pictures(environment()) == home, "XDG_CONFIG_HOME names another file, which is missing")
    }

    @Test func aRecordedFolderThatIsGoneFallsToPicturesThenHome() throws {
        try userDirs("XDG_PICTURES_DIR=\"$HOME/Gone\"\n")
        let pictures = try folder(home.appending("Pictures"))
        #expect(UserFolders.pictures(environment()) == pictures)
        try GalleryFileSystem.removeTree(pictures)
        #expect(UserFolders.pictures(environment()) == home)
    }

    /// A Pictures that is a file is no folder to browse.
    @Test func withNothingSetPicturesMustBeAFolder() throws {
        #expect(UserFolders.pictures(environment()) == home)
        try GalleryFileSystem.writeWhole(Array("not a folder".utf8), to: home.appending("Pictures"))
        #expect(UserFolders.pictures(environment()) == home)
    }

    /// xdg-user-dirs' own reading: absolute paths, `\` escapes, the last assignment winning,
    /// `$HOME/` alone meaning home (the folder switched off), and no other variable than $HOME.
    @Test func linesAreReadAsXdgUserDirsWritesThem() {
        let home = FilePath("/home/ann")
        func read(_ text: String) -> FilePath? { UserFolders.userDirectory("PICTURES", in: Array(text.utf8), home: home) }
        #expect(read("XDG_PICTURES_DIR=\"/srv/photos\"\n") == "/srv/photos")
        #expect(read("  XDG_PICTURES_DIR = \"$HOME/My \\\"Best\\\" \\\\ Shots\"") == "/home/ann/My \"Best\" \\ Shots")
        #expect(read("XDG_PICTURES_DIR=\"$HOME/One\"\nXDG_PICTURES_DIR=\"$HOME/Two\"\n") == "/home/ann/Two")
        #expect(read("XDG_PICTURES_DIR=\"$HOME/\"\n") == home)
        #expect(read("XDG_PICTURES_DIR=\"$HOME\"\n") == home)
        #expect(read("XDG_PICTURES_DIR=\"$HOMEWORK/x\"\n") == nil)
        #expect(read("XDG_PICTURES_DIR=\"relative/x\"\n") == nil)
        #expect(read("XDG_PICTURES_DIR=\"$HOME/cut short\n") == nil)
        #expect(read("# XDG_PICTURES_DIR=\"/commented\"\n") == nil)
        #expect(read("XDG_PICTURES_DIRS=\"/other\"\nXDG_MUSIC_DIR=\"/music\"\n") == nil)
        #expect(read("XDG_PICTURES_DIR=\"/good\"\nXDG_PICTURES_DIR=broken\n") == "/good")
    }

    /// A folder's name need not be UTF-8: its bytes reach the path unchanged.
    @Test func aNameThatIsNotUtf8KeepsItsBytes() throws {
        let latin1: [UInt8] = [0x42, 0x69, 0x6C, 0x64, 0xE9, 0x72]  // "Bildér" in ISO 8859-1
        try userDirs(Array("XDG_PICTURES_DIR=\"$HOME/".utf8) + latin1 + Array("\"\n".utf8))
        let name = (latin1.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { FilePath(platformString: $0.baseAddress!) }
        let expected = home.pushing(name)
        // By its bytes: GalleryFileSystem.makeFolder passes the path as a String, which would
        // make a folder of another name.
        #expect(expected.withPlatformString { mkdir($0, 0o755) } == 0)
        let found = UserFolders.pictures(environment())
        #expect(found == expected)
        let bytes = found.withPlatformString { Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) } }
        #expect(bytes.suffix(latin1.count + 1) == [UInt8(ascii: "/")] + latin1)
    }

    /// A file far larger than any xdg-user-dirs writes is not read, and the next place is used.
    @Test func anOversizedFileIsIgnored() throws {
        try userDirs(String(repeating: "# padding\n", count: 7_000) + "XDG_PICTURES_DIR=\"$HOME/Photos\"\n")
        let photos = try folder(home.appending("Photos"))
        let pictures = try folder(home.appending("Pictures"))
        #expect(UserFolders.pictures(environment()) == pictures)
        try userDirs("XDG_PICTURES_DIR=\"$HOME/Photos\"\n")
        #expect(UserFolders.pictures(environment()) == photos)
    }
}
