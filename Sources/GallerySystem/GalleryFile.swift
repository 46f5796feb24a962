public import SystemPackage

/// An open file descriptor that knows its path, so every failure names the file.
///
/// All reads and writes are positional (`pread`, `pwrite`), so one handle can serve several
/// readers. The descriptor is closed when the `GalleryFile` goes.
public final class GalleryFile: @unchecked Sendable {
    /// The file's name, as given when it was opened; what errors name.
    public let filePath: FilePath
    package let descriptor: FileDescriptor

    init(path: FilePath, descriptor: FileDescriptor) {
        self.filePath = path
        self.descriptor = descriptor
    }

    /// The file's name as text, for messages.
    public var path: String { filePath.string }

    deinit { try? descriptor.close() }

    /// Opens an existing regular file for reading. A folder, a FIFO, a device or a socket is
    /// refused, so that no read can block or run forever; so is a final symbolic link, without
    /// `followingLinks`.
    public static func openForReading(_ path: FilePath, followingLinks: Bool = true) throws -> GalleryFile {
        // O_NONBLOCK: opening a FIFO or a device must not wait for a writer; only regular
        // files are read (it has no effect on them).
        var options: FileDescriptor.OpenOptions = [.closeOnExec, .nonBlocking, Syscalls.noControllingTerminal]
        if !followingLinks { options.insert(.noFollow) }
        let descriptor = try openKeepingAccessTime(path, options)
        let file = GalleryFile(path: path, descriptor: descriptor)
        switch try file.status().type {
        case .regular:
            return file
        case .directory:
            throw FileSystemError(kind: .isDirectory, path: path.string, operation: "open", code: .isDirectory)
        default:
            throw FileSystemError(kind: .other, path: path.string, operation: "read a non-regular file (FIFO, device or socket)",
                                  code: .invalidArgument)
        }
    }

    /// Creates a new file; fails if anything has the name, a symbolic link included. The kernel
    /// takes the umask off `permissions`.
    public static func create(_ path: FilePath, permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]) throws -> GalleryFile {
        GalleryFile(path: path, descriptor: try open(path, .writeOnly, [.create, .exclusiveCreate, .closeOnExec, .noFollow],
                                                     permissions: permissions, operation: "create"))
    }

    /// Opens a file for writing from its start, creating it if needed and cutting it to zero
    /// length. Not a safe save: for outputs that a caller has created and reads back through
    /// its own descriptor (a thumbnailer's `%o`), where a rename would hand it an empty file.
    package static func openForOverwriting(_ path: FilePath, permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]) throws -> GalleryFile {
        GalleryFile(path: path, descriptor: try open(path, .writeOnly, [.create, .truncate, .closeOnExec],
                                                     permissions: permissions, operation: "create"))
    }

    /// Opens a file for writing in place, creating it (mode 0644) if it is not there, without
    /// cutting it: the caller writes from offset 0 and then ``truncate(to:)``, so a failure
    /// before the write leaves an existing file as it was. `created` says whether it was made.
    package static func openForWritingInPlace(_ path: FilePath) throws -> (file: GalleryFile, created: Bool) {
        do {
            let descriptor = try open(path, .writeOnly, [.create, .exclusiveCreate, .closeOnExec],
                                      permissions: [.ownerReadWrite, .groupRead, .otherRead], operation: "create")
            return (GalleryFile(path: path, descriptor: descriptor), true)
        } catch where error.kind == .alreadyExists {
            return (GalleryFile(path: path, descriptor: try open(path, .writeOnly, [.closeOnExec], operation: "open for writing")), false)
        }
    }

    /// The file's size now.
    public var size: UInt64 {
        get throws { UInt64(try status().size) }
    }

    /// The file's state on disk now.
    public func identity() throws -> FileIdentity {
        FileIdentity(try status())
    }

    /// fstat(2), naming this file on failure.
    func status() throws(FileSystemError) -> Stat {
        try withErrorNaming(path, "stat") { try descriptor.stat() }
    }

    /// Opens `path` to read, leaving its access time alone, as desktop indexers and backup tools
    /// read (O_NOATIME): deciding whether to record it cost every read a clock read and a check,
    /// 2.2 ms of processor time and 1.5 ms of the wall time of opening 10,000 photos, one header
    /// read each (Benchmarks/RESULTS.md, ac.3.9). Allowed only on one's own files: anyone
    /// else's is opened as before.
    private static func openKeepingAccessTime(_ path: FilePath, _ options: FileDescriptor.OpenOptions) throws(FileSystemError)
        -> FileDescriptor {
        do {
            return try open(path, .readOnly, options.union(Syscalls.noAccessTime), operation: "open")
        } catch {
            guard error.code == .notPermitted else { throw error }
            return try open(path, .readOnly, options, operation: "open")
        }
    }

    /// open(2), its failure naming the path and `operation`.
    static func open(_ path: FilePath, _ mode: FileDescriptor.AccessMode, _ options: FileDescriptor.OpenOptions,
                     permissions: FilePermissions? = nil, operation: String) throws(FileSystemError) -> FileDescriptor {
        try withErrorNaming(path.string, operation) {
            try FileDescriptor.open(path, mode, options: options, permissions: permissions)
        }
    }
}
