internal import CGallerySystem
import Glibc
import SystemPackage

// The one place in the package that makes raw calls into Glibc and the C shim. Everything
// above it sees typed values: `FileDescriptor`, `Errno`, `FilePermissions`, `ProcessID`, and
// `Result`s instead of -1 and a global errno. Interrupted calls (EINTR) are retried here, in
// `retrying`, and nowhere else; swift-system's own calls retry through `retryOnInterrupt`.

/// The raw system calls GallerySystem makes, one thin function each.
enum Syscalls {
    /// Runs `call` until it is not interrupted by a signal: -1 becomes the `Errno` it set.
    /// `errnoAfterFailure` reads errno; the test suite passes its own to see the retry.
    static func retrying<Value: FixedWidthInteger>(
        _ call: () -> Value, errnoAfterFailure: () -> Errno = { lastError }
    ) -> Result<Value, Errno> {
        while true {
            let value = call()
            guard value == -1 else { return .success(value) }
            let error = errnoAfterFailure()
            if error != .interrupted { return .failure(error) }
        }
    }

    /// `retrying`, for calls whose only result is success or failure.
    static func retryingVoid<Value: FixedWidthInteger>(_ call: () -> Value) -> Result<Void, Errno> {
        retrying(call).map { _ in () }
    }

    /// The calling thread's errno, typed.
    static var lastError: Errno { Errno(rawValue: Glibc.errno) }

    // MARK: Descriptors

    /// O_NOCTTY, which swift-system's `OpenOptions` does not name: opening a terminal device
    /// must not make it the process's controlling terminal.
    static let noControllingTerminal = FileDescriptor.OpenOptions(rawValue: O_NOCTTY)

    /// O_NOATIME: reads through the descriptor leave the file's access time as it was. Only
    /// for files the process owns (or with CAP_FOWNER); elsewhere the open fails with EPERM.
    static let noAccessTime = FileDescriptor.OpenOptions(rawValue: ig_open_flag_no_access_time())

    static func fsync(_ fd: FileDescriptor) -> Result<Void, Errno> {
        retryingVoid { Glibc.fsync(fd.rawValue) }
    }

    /// posix_fadvise(POSIX_FADV_SEQUENTIAL) over the whole file; a hint, so it reports nothing.
    static func adviseSequential(_ fd: FileDescriptor) {
        _ = posix_fadvise(fd.rawValue, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
    }

    static func copyFileRange(from source: FileDescriptor, at sourceOffset: Int64, to destination: FileDescriptor,
                              at destinationOffset: Int64, count: Int) -> Result<Int, Errno> {
        retrying { ig_copy_file_range(source.rawValue, sourceOffset, destination.rawValue, destinationOffset, count) }
    }

    static func startWriteback(_ fd: FileDescriptor, at offset: Int64, count: Int64) -> Result<Void, Errno> {
        retryingVoid { ig_start_writeback(fd.rawValue, offset, count) }
    }

    static func syncfs(_ fd: FileDescriptor) -> Result<Void, Errno> {
        retryingVoid { ig_syncfs(fd.rawValue) }
    }

    /// A nameless file in `directory` (O_TMPFILE), mode 0600.
    static func openAnonymous(in directory: String) -> Result<FileDescriptor, Errno> {
        retrying { ig_open_anonymous(directory) }.map(FileDescriptor.init(rawValue:))
    }

    /// Gives a nameless file a name, through its /proc/self/fd link (linkat with
    /// AT_SYMLINK_FOLLOW; AT_EMPTY_PATH would need CAP_DAC_READ_SEARCH).
    static func link(_ fd: FileDescriptor, as path: String) -> Result<Void, Errno> {
        retryingVoid { linkat(AT_FDCWD, "/proc/self/fd/\(fd.rawValue)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) }
    }

    /// flock(LOCK_EX | LOCK_NB): EWOULDBLOCK when another open file description holds it.
    static func lockExclusivelyWithoutWaiting(_ fd: FileDescriptor) -> Result<Void, Errno> {
        retryingVoid { flock(fd.rawValue, LOCK_EX | LOCK_NB) }
    }

    static func isTerminal(_ fd: FileDescriptor) -> Bool { isatty(fd.rawValue) == 1 }
}
