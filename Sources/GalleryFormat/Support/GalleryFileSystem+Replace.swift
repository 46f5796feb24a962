internal import CGalleryShim
#if canImport(Glibc)
import Glibc
#endif

// The pieces of a document save that keep what the user had: the replaced file's attributes,
// its name when it is a symbolic link, and a swap that lets the saver look at what it replaced.

extension GalleryFile {
    /// A nameless file in `directory` that vanishes if the process dies before `link(as:)`;
    /// a named temporary file (removed on failure by the caller) where the file system has no
    /// O_TMPFILE. `path` names the file in errors.
    public static func createUnnamed(in directory: String, for path: String) throws -> (file: GalleryFile, isNamed: Bool) {
        let fd = ig_open_anonymous(directory.isEmpty ? "." : directory)
        if fd >= 0 {
            // O_TMPFILE gives 0600: a document is readable like any other file the user makes.
            _ = fchmod(fd, documentMode())
            return (GalleryFile(unnamed: fd, path: path), false)
        }
        let code = currentErrnoValue()
        guard code == EOPNOTSUPP || code == EISDIR || code == ENOSYS || code == EINVAL else {
            throw FileSystemError.current(path: directory.isEmpty ? "." : directory, operation: "create a temporary file in")
        }
        return (try createTemporary(in: directory, prefix: GalleryFileSystem.fileName(of: path)), true)
    }

    /// Gives an unnamed file the name `path` (which must not exist).
    public func link(as path: String) throws {
        guard ig_link_descriptor(descriptor, path) == 0 else {
            throw FileSystemError.current(path: path, operation: "name the saved file")
        }
    }

    /// Makes this file's permissions, owner (where allowed) and extended attributes those of
    /// the file at `source`, so a save does not quietly change who may read the document.
    public func copyAttributes(of source: String) throws {
        var info = stat()
        guard stat(source, &info) == 0 else { throw FileSystemError.current(path: source, operation: "stat") }
        // Owner first: chown may clear set-id bits, which fchmod then restores.
        if fchown(descriptor, info.st_uid, info.st_gid) != 0 {
            // Only root may give a file away; a group the user is in is still allowed.
            _ = fchown(descriptor, getuid(), info.st_gid)
        }
        guard fchmod(descriptor, info.st_mode & 0o7777) == 0 else {
            throw FileSystemError.current(path: path, operation: "set the permissions of")
        }
        guard ig_copy_xattrs(source, descriptor) == 0 else {
            throw FileSystemError.current(path: source, operation: "copy the extended attributes of")
        }
    }

    /// The file's state on disk now.
    public func identity() throws -> FileIdentity {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileSystemError.current(path: path, operation: "stat") }
        return FileIdentity(info)
    }
}

extension GalleryFileSystem {
    /// Swaps two names atomically. False when the file system cannot (the caller then renames).
    public static func exchange(_ a: String, _ b: String) throws -> Bool {
        if ig_rename_exchange(a, b) == 0 { return true }
        let code = currentErrnoValue()
        if code == EINVAL || code == ENOSYS || code == EOPNOTSUPP { return false }
        throw FileSystemError.current(path: b, operation: "swap \(a) with")
    }

    /// The path with every symbolic link resolved: where a save must write so that a linked
    /// document stays a link.
    public static func resolvedPath(_ path: String) throws -> String {
        guard let resolved = realpath(path, nil) else { throw FileSystemError.current(path: path, operation: "resolve") }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// How many names the file has.
    public static func linkCount(_ path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { throw FileSystemError.current(path: path, operation: "stat") }
        return Int(info.st_nlink)
    }
}
