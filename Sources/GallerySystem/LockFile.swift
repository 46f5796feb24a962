import SystemPackage

/// A lock file held with flock(2): the kernel settles races between the processes of a host,
/// and releases the lock of a holder that dies. The file holds a record saying who the holder
/// is, which `DocumentLock` writes and reads.
package final class LockFile: @unchecked Sendable {
    package let path: FilePath
    private var descriptor: FileDescriptor?

    private init(path: FilePath, descriptor: FileDescriptor) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Opens the lock file for reading and writing, creating it (0644 less the umask); a final
    /// symbolic link is refused, so that nobody can point the lock at another file.
    package static func open(_ path: FilePath) throws(FileSystemError) -> LockFile {
        LockFile(path: path, descriptor: try GalleryFile.open(path, .readWrite, [.create, .closeOnExec, .noFollow],
                                                              permissions: [.ownerReadWrite, .groupRead, .otherRead],
                                                              operation: "open the lock file"))
    }

    /// Creates `path` holding `record`, unless something of that name exists (`O_EXCL`, no
    /// link followed): a waiting writer's wish beside a lock. False when it was there already
    /// or cannot be made; the wish is then someone else's, or not made at all.
    package static func createNew(_ path: FilePath, record: [UInt8]) -> Bool {
        guard let descriptor = try? GalleryFile.open(path, .writeOnly, [.create, .exclusiveCreate, .closeOnExec, .noFollow],
                                                     permissions: [.ownerReadWrite, .groupRead, .otherRead],
                                                     operation: "create the lock's wish file")
        else { return false }
        defer { try? descriptor.close() }
        return (try? descriptor.writeAll(toAbsoluteOffset: 0, record)) == record.count
    }

    /// Opens an existing lock file to read its record; nil when there is none to open.
    package static func openExisting(_ path: FilePath) -> LockFile? {
        guard let descriptor = try? GalleryFile.open(path, .readOnly, [.closeOnExec, .noFollow], operation: "open the lock file")
        else { return nil }
        return LockFile(path: path, descriptor: descriptor)
    }

    /// Takes the exclusive lock without waiting; false when another holder has it (or it
    /// cannot be taken at all).
    package func tryLock() -> Bool {
        guard let descriptor else { return false }
        if case .success = Syscalls.lockExclusivelyWithoutWaiting(descriptor) { return true }
        return false
    }

    /// Whether the open file is still the one named `path`: it may have been removed and
    /// made anew between the open and the lock, and a lock on a removed file locks nothing.
    package func isStillNamed() -> Bool {
        guard let descriptor, let opened = try? descriptor.stat(),
              let current = try? FileStatus.stat(path, followingLinks: true) else { return false }
        return opened.deviceID == current.deviceID && opened.inode == current.inode
    }

    /// The record: the file's first bytes, at most `limit` (read in one call, as it was written).
    package func record(limit: Int = 4096) -> [UInt8] {
        guard let descriptor else { return [] }
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = (try? buffer.withUnsafeMutableBytes { try descriptor.read(fromAbsoluteOffset: 0, into: $0) }) ?? 0
        return Array(buffer[..<count])
    }

    /// Replaces the record. Not flushed: after a crash a record is stale anyway (another
    /// boot), so a flush would buy nothing. Written, then cut to its length: ext4 flushes a
    /// file that was cut to nothing when it is closed (its `auto_da_alloc`), which cost every
    /// edit 0.14 ms of write-back for a file it removes (Benchmarks/RESULTS.md, ac.3.10).
    package func writeRecord(_ bytes: [UInt8]) throws(FileSystemError) {
        guard let descriptor else { throw FileSystemError(.badFileDescriptor, path: path.string, operation: "write the lock file") }
        try withErrorNaming(path.string, "write the lock file") {
            _ = try descriptor.writeAll(toAbsoluteOffset: 0, bytes)
            try descriptor.resize(to: Int64(bytes.count))
        }
    }

    /// Removes the file's name; the lock itself lasts until `close`.
    package func removeName() {
        GalleryFileSystem.remove(path)
    }

    /// Lets go of the lock and the file.
    package func close() {
        try? descriptor?.close()
        descriptor = nil
    }
}
