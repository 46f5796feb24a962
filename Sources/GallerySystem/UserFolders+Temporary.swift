import SystemPackage

extension UserFolders {
    /// `$TMPDIR` where it is an absolute path, else `/tmp` (what Foundation's
    /// `NSTemporaryDirectory` gives, without the trailing slash): for private folders made with
    /// `GalleryFileSystem.makeTemporaryFolder`, never for a fixed name another user could take.
    package static func temporary(_ environment: [String: String] = CurrentProcess.variables("TMPDIR")) -> FilePath {
        guard let folder = environment["TMPDIR"], GalleryFileSystem.isAbsolute(folder) else { return "/tmp" }
        return FilePath(folder)
    }
}
