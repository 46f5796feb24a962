import SystemPackage

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

    /// The identity of the file at `path`, following symbolic links, as opening it would.
    public static func of(path: String) throws -> FileIdentity {
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
