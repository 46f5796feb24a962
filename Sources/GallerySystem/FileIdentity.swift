public import SystemPackage

/// What identifies a file's state on disk: if any of this changed, the bytes may have.
/// Times carry nanoseconds, so a rewrite within the same second is still seen.
public struct FileIdentity: Sendable, Hashable {
    /// The file system's device number.
    public var device: UInt64
    /// The file's number on its device.
    public var inode: UInt64
    /// The size in bytes.
    public var size: UInt64
    /// The last change of the content (mtime), seconds since 1970 and nanoseconds into it.
    public var modifiedSeconds: Int64
    /// The nanoseconds into `modifiedSeconds` (0 to 999,999,999).
    public var modifiedNanoseconds: Int64
    /// The last change of the file's status (ctime): a rename or a mode change moves it too.
    public var changedSeconds: Int64
    /// The nanoseconds into `changedSeconds` (0 to 999,999,999).
    public var changedNanoseconds: Int64

    /// The identity of the file at `path`, following symbolic links, as opening it would.
    public static func of(path: FilePath) throws -> FileIdentity {
        FileIdentity(try FileStatus.stat(path, followingLinks: true))
    }

    init(_ info: Stat) {
        device = UInt64(info.deviceID.rawValue)
        inode = UInt64(info.inode.rawValue)
        size = UInt64(info.size)
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        changedSeconds = Int64(info.st_ctim.tv_sec)
        changedNanoseconds = Int64(info.st_ctim.tv_nsec)
    }
}
