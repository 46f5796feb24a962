import SystemPackage

extension GalleryFileSystem {
    /// Removes a file, or a folder and everything in it (what `rm -r` does, and Foundation's
    /// `removeItem`); a symbolic link is removed, never followed. A name already gone is not an
    /// error; the first entry that cannot be removed stops it, its error naming that entry.
    package static func removeTree(_ path: FilePath) throws(FileSystemError) {
        let status: FileStatus
        do throws(FileSystemError) {
            status = try FileStatus.of(path, followingLinks: false)
        } catch where error.kind == .notFound {
            return
        }
        guard status.kind == .directory else { return try removeIfPresent(path) }
        for name in try entries(ofFolder: path) { try removeTree(path.appending(name)) }
        switch Syscalls.rmdir(path.string) {
        case .success: return
        case .failure(let code) where code == .noSuchFileOrDirectory: return
        case .failure(let code): throw FileSystemError(code, path: path.string, operation: "remove the folder")
        }
    }
}
