import SystemPackage

/// File-system operations on names, each failure naming its path.
package enum GalleryFileSystem {
    /// Moves `source` over `destination` atomically, replacing it.
    package static func replace(_ destination: FilePath, with source: FilePath) throws {
        try rename(source, to: destination)
    }

    /// Renames `source` to `destination` (rename(2): replacing a file, or an empty folder).
    /// Errors name `destination`; callers read `kind` or `code` for what was in the way.
    package static func rename(_ source: FilePath, to destination: FilePath) throws(FileSystemError) {
        try Syscalls.rename(source.string, to: destination.string).get(path: destination.string, operation: "rename \(source) to")
    }

    /// Moves `source` to `destination` atomically, failing if `destination` exists:
    /// renameat2(RENAME_NOREPLACE), or where the file system cannot, link(2) (which refuses an
    /// existing name) and then the source name dropped.
    package static func moveNoReplace(_ source: FilePath, to destination: FilePath) throws {
        switch Syscalls.renameNoReplace(source.string, to: destination.string) {
        case .success:
            return
        case .failure(let code) where code == .invalidArgument || code == .noFunction:
            try Syscalls.link(source.string, to: destination.string).get(path: destination.string, operation: "create")
            _ = Syscalls.unlink(source.string)
        case .failure(let code):
            throw FileSystemError(code, path: destination.string, operation: "create")
        }
    }

    /// Swaps two names atomically (renameat2 RENAME_EXCHANGE). False when the file system
    /// cannot (the caller then renames).
    package static func exchange(_ a: FilePath, _ b: FilePath) throws -> Bool {
        switch Syscalls.renameExchange(a.string, b.string) {
        case .success: return true
        case .failure(let code) where code == .invalidArgument || code == .noFunction || code == .notSupportedOnSocket: return false
        case .failure(let code): throw FileSystemError(code, path: b.string, operation: "swap \(a) with")
        }
    }

    /// Removes a name, quietly: for temporary files and stale entries, whose removal failing
    /// changes nothing for the caller.
    package static func remove(_ path: FilePath) {
        _ = Syscalls.unlink(path.string)
    }

    /// Sets the file's access and modification times to now (touch(1) on an existing file),
    /// quietly: for a cache's least-recently-used clock, which a failure only makes less exact.
    package static func markUsed(_ path: FilePath) {
        _ = Syscalls.setTimesToNow(path.string)
    }

    /// Removes a name; a name that is already gone is not an error.
    package static func removeIfPresent(_ path: FilePath) throws(FileSystemError) {
        switch Syscalls.unlink(path.string) {
        case .success: return
        case .failure(let code) where code == .noSuchFileOrDirectory: return
        case .failure(let code): throw FileSystemError(code, path: path.string, operation: "remove")
        }
    }

    /// The path with every symbolic link resolved: where a save must write so that a linked
    /// document stays a link.
    package static func resolvedPath(_ path: FilePath) throws -> FilePath {
        FilePath(try Syscalls.realpath(path.string).get(path: path.string, operation: "resolve"))
    }

    /// How many names the file has.
    package static func linkCount(_ path: FilePath) throws -> Int {
        try FileStatus.of(path, followingLinks: true).linkCount
    }

    /// Whether this process may read the file at `path` (access(2) R_OK); errors name the path.
    package static func checkReadable(_ path: FilePath) throws(FileSystemError) {
        try Syscalls.access(path.string, .readable).get(path: path.string, operation: "read")
    }

    /// Whether this process may write in the folder or file at `path` (access(2) W_OK).
    package static func isWritable(_ path: FilePath) -> Bool {
        if case .success = Syscalls.access(path.string, .writable) { return true }
        return false
    }

    /// Whether this process may run the file at `path` (access(2) X_OK).
    package static func isExecutable(_ path: FilePath) -> Bool {
        if case .success = Syscalls.access(path.string, .executable) { return true }
        return false
    }
}
