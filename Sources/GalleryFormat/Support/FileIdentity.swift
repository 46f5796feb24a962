#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What identifies a file's state on disk: if any of this changed, the bytes may have.
/// Times carry nanoseconds, so a rewrite within the same second is still seen.
public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: UInt64
    public var modifiedSeconds: Int64
    public var modifiedNanoseconds: Int64
    public var changedSeconds: Int64
    public var changedNanoseconds: Int64

    /// Follows symbolic links, as opening the file would.
    public static func of(path: String) throws -> FileIdentity {
        var info = stat()
        guard stat(path, &info) == 0 else { throw FileSystemError.current(path: path, operation: "stat") }
        return FileIdentity(info)
    }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = UInt64(info.st_size)
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        changedSeconds = Int64(info.st_ctim.tv_sec)
        changedNanoseconds = Int64(info.st_ctim.tv_nsec)
    }

    public var modified: Timestamp { Timestamp(seconds: modifiedSeconds, nanoseconds: Int32(modifiedNanoseconds)) }
}

/// What kind of thing a path names, following symbolic links.
public enum PathKind: Sendable {
    case regularFile, directory, other, missing

    public static func of(_ path: String) -> PathKind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        default: return .other
        }
    }
}
