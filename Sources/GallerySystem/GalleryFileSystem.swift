import SystemPackage

/// File-system operations on names, each failure naming its path.
package enum GalleryFileSystem {
    /// Moves `source` over `destination` atomically, replacing it.
    package static func replace(_ destination: String, with source: String) throws {
        try Syscalls.rename(source, to: destination).get(path: destination, operation: "rename \(source) to")
    }

    /// Renames `source` to `destination` (rename(2): replacing a file, or an empty folder).
    /// Errors name `destination`; callers read `kind` or `code` for what was in the way.
    package static func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try Syscalls.rename(source, to: destination).get(path: destination, operation: "rename \(source) to")
    }

    /// Moves `source` to `destination` atomically, failing if `destination` exists:
    /// renameat2(RENAME_NOREPLACE), or where the file system cannot, link(2) (which refuses an
    /// existing name) and then the source name dropped.
    package static func moveNoReplace(_ source: String, to destination: String) throws {
        switch Syscalls.renameNoReplace(source, to: destination) {
        case .success:
            return
        case .failure(let code) where code == .invalidArgument || code == .noFunction:
            try Syscalls.link(source, to: destination).get(path: destination, operation: "create")
            _ = Syscalls.unlink(source)
        case .failure(let code):
            throw FileSystemError(code, path: destination, operation: "create")
        }
    }

    /// Swaps two names atomically (renameat2 RENAME_EXCHANGE). False when the file system
    /// cannot (the caller then renames).
    package static func exchange(_ a: String, _ b: String) throws -> Bool {
        switch Syscalls.renameExchange(a, b) {
        case .success: return true
        case .failure(let code) where code == .invalidArgument || code == .noFunction || code == .notSupportedOnSocket: return false
        case .failure(let code): throw FileSystemError(code, path: b, operation: "swap \(a) with")
        }
    }

    /// Removes a name, quietly: for temporary files and stale entries, whose removal failing
    /// changes nothing for the caller.
    package static func remove(_ path: String) {
        _ = Syscalls.unlink(path)
    }

    /// Removes a name; a name that is already gone is not an error.
    package static func removeIfPresent(_ path: String) throws(FileSystemError) {
        switch Syscalls.unlink(path) {
        case .success: return
        case .failure(let code) where code == .noSuchFileOrDirectory: return
        case .failure(let code): throw FileSystemError(code, path: path, operation: "remove")
        }
    }

    /// The path with every symbolic link resolved: where a save must write so that a linked
    /// document stays a link.
    package static func resolvedPath(_ path: String) throws -> String {
        try Syscalls.realpath(path).get(path: path, operation: "resolve")
    }

    /// How many names the file has.
    package static func linkCount(_ path: String) throws -> Int {
        try FileStatus.of(path, followingLinks: true).linkCount
    }

    /// Whether this process may read the file at `path` (access(2) R_OK); errors name the path.
    package static func checkReadable(_ path: String) throws(FileSystemError) {
        try Syscalls.access(path, .readable).get(path: path, operation: "read")
    }

    /// Whether this process may write in the folder or file at `path` (access(2) W_OK).
    package static func isWritable(_ path: String) -> Bool {
        if case .success = Syscalls.access(path, .writable) { return true }
        return false
    }

    /// Whether this process may run the file at `path` (access(2) X_OK).
    package static func isExecutable(_ path: String) -> Bool {
        if case .success = Syscalls.access(path, .executable) { return true }
        return false
    }
}
