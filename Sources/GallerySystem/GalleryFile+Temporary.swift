import SystemPackage

// Files made to become something else: a save's temporary file, a nameless file that only gets
// a name once it is whole, a spool that vanishes when closed.

extension GalleryFile {
    /// Creates a uniquely named temporary file in `directory` (same file system as the target),
    /// `.PREFIX.tmp-XXXXXX`, with the mode a new document gets.
    package static func createTemporary(in directory: FilePath, prefix: String) throws -> GalleryFile {
        let template = (directory.isEmpty ? "." : directory).appending(".\(prefix).tmp-XXXXXX")
        let (descriptor, path) = try Syscalls.makeTemporaryFile(template.string)
            .get(path: directory.string, operation: "create a temporary file in")
        // mkstemp uses 0600; a gallery is a document, readable like any other file the user makes.
        _ = Syscalls.setPermissions(descriptor, documentPermissions())
        return GalleryFile(path: FilePath(path), descriptor: descriptor)
    }

    /// A nameless file in `directory` (O_TMPFILE) that vanishes when closed; `path` names it in
    /// errors. Fails where the file system has no O_TMPFILE.
    package static func createAnonymous(in directory: FilePath, naming path: FilePath) throws(FileSystemError) -> GalleryFile {
        let folder = directory.isEmpty ? "." : directory
        let descriptor = try Syscalls.openAnonymous(in: folder.string).get(path: folder.string, operation: "create a nameless temporary file in")
        return GalleryFile(path: path, descriptor: descriptor)
    }

    /// A nameless file in `directory` that vanishes if the process dies before `link(as:)`;
    /// a named temporary file (removed on failure by the caller) where the file system has no
    /// O_TMPFILE. `path` names the file in errors.
    package static func createUnnamed(in directory: FilePath, for path: FilePath) throws -> (file: GalleryFile, isNamed: Bool) {
        try createUnnamed(in: directory, for: path, openAnonymous: Syscalls.openAnonymous(in:))
    }

    /// `createUnnamed`, with the O_TMPFILE open given: tests hand it one that fails as a file
    /// system without O_TMPFILE would.
    static func createUnnamed(in directory: FilePath, for path: FilePath,
                              openAnonymous: (String) -> Result<FileDescriptor, Errno>) throws -> (file: GalleryFile, isNamed: Bool) {
        let folder: FilePath = directory.isEmpty ? "." : directory
        switch openAnonymous(folder.string) {
        case .success(let descriptor):
            // O_TMPFILE gives 0600: a document is readable like any other file the user makes.
            _ = Syscalls.setPermissions(descriptor, documentPermissions())
            return (GalleryFile(path: path, descriptor: descriptor), false)
        case .failure(let code):
            // The file system or the kernel has no O_TMPFILE: a named temporary file instead.
            let unsupported: [Errno] = [.notSupportedOnSocket, .isDirectory, .noFunction, .invalidArgument]
            guard unsupported.contains(code) else {
                throw FileSystemError(code, path: folder.string, operation: "create a temporary file in")
            }
            return (try createTemporary(in: directory, prefix: path.lastComponentName), true)
        }
    }

    /// Gives an unnamed file the name `path` (which must not exist).
    package func link(as path: FilePath) throws {
        try Syscalls.link(descriptor, as: path.string).get(path: path.string, operation: "name the saved file")
    }

    /// The mode `open(path, O_CREAT, 0o666)` would give a new file: 0o666 less the process's
    /// file mode creation mask. For files created some other way (mkstemp, O_TMPFILE) that
    /// must end up as a document the user made.
    static func documentPermissions() -> FilePermissions {
        FilePermissions(rawValue: 0o666 & ~creationMask())
    }

    /// The process's file mode creation mask, read without changing it, from the `Umask:` line
    /// of /proc/self/status (Linux 4.7 and later). umask(2) can only read the mask by setting
    /// it: setting it to 0 for an instant, then back, gives every file another thread creates
    /// in that instant mode 0666 or 0777. Where /proc does not say, 0o022, the usual mask.
    static func creationMask() -> UInt32 {
        guard let status = try? openForReading("/proc/self/status").read(at: 0, count: 1 << 16) else { return 0o022 }
        return parseCreationMask(status: status) ?? 0o022
    }

    /// The octal value of the `Umask:` line of a /proc/PID/status text.
    static func parseCreationMask(status: [UInt8]) -> UInt32? {
        let key = Array("Umask:".utf8)
        for line in status.split(separator: UInt8(ascii: "\n")) where line.starts(with: key) {
            let digits = line.dropFirst(key.count).drop { $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: " ") }
            guard !digits.isEmpty, digits.count <= 4,
                  digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "7") })
            else { return nil }
            return digits.reduce(0) { $0 << 3 | UInt32($1 - UInt8(ascii: "0")) }
        }
        return nil
    }
}
