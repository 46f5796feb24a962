internal import CGalleryShim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file descriptor that knows its path, so every failure names the file.
///
/// All reads are positional (`pread`), so one handle can serve several readers.
public final class GalleryFile: @unchecked Sendable {
    public let path: String
    let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    convenience init(unnamed descriptor: Int32, path: String) {
        self.init(path: path, descriptor: descriptor)
    }

    deinit { _ = close(descriptor) }

    /// Opens an existing file for reading.
    public static func openForReading(_ path: String) throws -> GalleryFile {
        // O_NONBLOCK: opening a FIFO or a device must not wait for a writer; only regular
        // files are read (it has no effect on them).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw FileSystemError.current(path: path, operation: "open") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = FileSystemError.current(path: path, operation: "stat")
            _ = close(fd)
            throw error
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFDIR:
            _ = close(fd)
            throw FileSystemError(kind: .isDirectory, path: path, operation: "open", errno: EISDIR)
        default:
            _ = close(fd)
            throw FileSystemError(kind: .other, path: path, operation: "read a non-regular file (FIFO, device or socket)",
                                  errno: EINVAL)
        }
        return GalleryFile(path: path, descriptor: fd)
    }

    /// Creates a new file; fails if it exists. The kernel takes the umask off `mode`.
    public static func create(_ path: String, mode: UInt32 = 0o644) throws -> GalleryFile {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode_t(mode))
        guard fd >= 0 else { throw FileSystemError.current(path: path, operation: "create") }
        return GalleryFile(path: path, descriptor: fd)
    }

    /// Opens a file for writing from its start, creating it if needed and cutting it to zero
    /// length. Not a safe save: for outputs that a caller has created and reads back through
    /// its own descriptor (a thumbnailer's `%o`), where a rename would hand it an empty file.
    public static func openForOverwriting(_ path: String, mode: UInt32 = 0o644) throws -> GalleryFile {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { throw FileSystemError.current(path: path, operation: "create") }
        return GalleryFile(path: path, descriptor: fd)
    }

    /// Copies all of standard input into a nameless temporary file (it vanishes when closed),
    /// refusing more than `limit` bytes. For reading a gallery from a pipe by position.
    public static func spoolStandardInput(limit: UInt64, directory: String = "/tmp") throws -> GalleryFile {
        let fd = ig_open_anonymous(directory)
        guard fd >= 0 else { throw FileSystemError.current(path: directory, operation: "create a nameless temporary file in") }
        let file = GalleryFile(path: "-", descriptor: fd)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { buffer.deallocate() }
        var total: UInt64 = 0
        while true {
            let n = Glibc.read(STDIN_FILENO, buffer.baseAddress, buffer.count)
            if n < 0 {
                if currentErrnoValue() == EINTR { continue }
                throw FileSystemError.current(path: "-", operation: "read standard input")
            }
            if n == 0 { break }
            total += UInt64(n)
            guard total <= limit else {
                throw GalleryError(.zipBomb, "standard input holds more than \(limit) bytes", location: Location(file: "-"))
            }
            try file.write(UnsafeRawBufferPointer(rebasing: buffer[0 ..< n]), at: total - UInt64(n))
        }
        return file
    }

    /// Creates a uniquely named temporary file in `directory` (same file system as the target).
    public static func createTemporary(in directory: String, prefix: String) throws -> GalleryFile {
        var template = Array((directory.isEmpty ? "." : directory).utf8CString.dropLast())
        template += Array("/.\(prefix).tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw FileSystemError.current(path: directory, operation: "create a temporary file in") }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // mkstemp uses 0600; a gallery is a document, readable like any other file the user makes.
        _ = fchmod(fd, documentMode())
        return GalleryFile(path: path, descriptor: fd)
    }

    /// The mode `open(path, O_CREAT, 0o666)` would give a new file: 0o666 less the process's
    /// file mode creation mask. For files created some other way (mkstemp, O_TMPFILE) that
    /// must end up as a document the user made.
    static func documentMode() -> mode_t {
        mode_t(0o666 & ~creationMask())
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

    public var size: UInt64 {
        get throws {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw FileSystemError.current(path: path, operation: "stat") }
            return UInt64(info.st_size)
        }
    }

    /// Reads up to `count` bytes at `offset`; fewer only at end of file.
    public func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try bytes.withUnsafeMutableBytes { try read(at: offset, into: $0) }
        if got < count { bytes.removeSubrange(got...) }
        return bytes
    }

    /// Like `read(at:count:)`, without zero-filling the array first: for large reads.
    public func readUninitialized(at offset: UInt64, count: Int) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = try read(at: offset, into: UnsafeMutableRawBufferPointer(buffer))
        }
    }

    /// Fills `buffer` from `offset`; returns how many bytes were read (short only at end of file).
    public func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        // An offset no file can reach (a hostile record's, near 2^64) is simply past the end.
        guard offset <= UInt64(Int64.max) - UInt64(buffer.count) else { return 0 }
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw FileSystemError.current(path: path, operation: "read")
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Writes all of `buffer` at `offset`.
    public func write(_ buffer: UnsafeRawBufferPointer, at offset: UInt64) throws {
        var done = 0
        while done < buffer.count {
            let n = pwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw FileSystemError.current(path: path, operation: "write")
            }
            done += n
        }
    }

    public func write(_ bytes: [UInt8], at offset: UInt64) throws {
        try bytes.withUnsafeBytes { try write($0, at: offset) }
    }

    /// Copies `count` bytes from `source` at `sourceOffset` to this file at `offset`, inside the
    /// kernel where it can (`copy_file_range`), through a buffer where it cannot.
    /// Returns the bytes copied: fewer only when the source ends early.
    public func copy(from source: GalleryFile, at sourceOffset: UInt64, count: UInt64, to offset: UInt64) throws -> UInt64 {
        var done: UInt64 = 0
        while done < count {
            let want = Int(min(count - done, 1 << 30))
            let n = ig_copy_file_range(source.descriptor, Int64(sourceOffset + done), descriptor, Int64(offset + done), want)
            if n > 0 { done += UInt64(n); continue }
            if n == 0 { return done }
            let code = currentErrnoValue()
            if code == EINTR { continue }
            guard code == EXDEV || code == ENOSYS || code == EINVAL || code == EOPNOTSUPP || code == EBADF else {
                throw FileSystemError.current(path: path, operation: "copy \(source.path) into")
            }
            return try done + copyThroughBuffer(from: source, at: sourceOffset + done, count: count - done, to: offset + done)
        }
        return done
    }

    private func copyThroughBuffer(from source: GalleryFile, at sourceOffset: UInt64, count: UInt64, to offset: UInt64) throws -> UInt64 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { buffer.deallocate() }
        var done: UInt64 = 0
        while done < count {
            let want = Int(min(UInt64(buffer.count), count - done))
            let got = try source.read(at: sourceOffset + done, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0 ..< want]))
            if got == 0 { break }
            try write(UnsafeRawBufferPointer(rebasing: buffer[0 ..< got]), at: offset + done)
            done += UInt64(got)
        }
        return done
    }

    /// Asks the kernel to start writing a range to disk now, without waiting: a hint, so
    /// errors are ignored (the final `synchronize()` reports them).
    public func startWriteback(at offset: UInt64, count: UInt64) {
        _ = ig_start_writeback(descriptor, Int64(offset), Int64(count))
    }

    public func synchronize() throws {
        guard fsync(descriptor) == 0 else { throw FileSystemError.current(path: path, operation: "fsync") }
    }

    /// Drops the file's cached pages hint: the data will be read once, in order.
    public func adviseSequential() {
        #if canImport(Glibc)
        _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
    }
}

/// File-system operations around saves, each failure naming its path.
public enum GalleryFileSystem {
    /// Moves `source` over `destination` atomically, replacing it.
    public static func replace(_ destination: String, with source: String) throws {
        guard rename(source, destination) == 0 else {
            throw FileSystemError.current(path: destination, operation: "rename \(source) to")
        }
    }

    /// Moves `source` to `destination` atomically, failing if `destination` exists.
    public static func moveNoReplace(_ source: String, to destination: String) throws {
        // link() refuses an existing name; then the temporary name is dropped.
        guard link(source, destination) == 0 else {
            throw FileSystemError.current(path: destination, operation: "create")
        }
        _ = unlink(source)
    }

    public static func remove(_ path: String) {
        _ = unlink(path)
    }

    /// Flushes a directory's entries, so a rename into it survives a crash.
    public static func synchronizeDirectory(_ path: String) throws {
        let fd = open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError.current(path: path, operation: "open directory") }
        defer { _ = close(fd) }
        guard fsync(fd) == 0 else { throw FileSystemError.current(path: path, operation: "fsync directory") }
    }

    /// Flushes everything written to the file system that holds `path` (a folder): one journal
    /// commit for a batch of new files, where an fsync of each would make one per file.
    public static func synchronizeFileSystem(of path: String) throws {
        let fd = open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError.current(path: path, operation: "open directory") }
        defer { _ = close(fd) }
        guard ig_syncfs(fd) == 0 else { throw FileSystemError.current(path: path, operation: "flush the file system of") }
    }

    /// The folder part of a path ("" for a bare name).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
