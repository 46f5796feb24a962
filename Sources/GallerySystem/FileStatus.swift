import SystemPackage

/// What stat(2) or lstat(2) says of a name, for callers that must tell links, files and
/// folders apart or read a size and a time without opening anything.
package struct FileStatus: Sendable {
    package enum Kind: Sendable { case regularFile, directory, symbolicLink, other }

    package var kind: Kind
    package var size: Int64
    /// The last modification, in nanoseconds since 1970.
    package var modifiedNanoseconds: Int64
    /// How many names the file has.
    package var linkCount: Int
    package var device: UInt64
    package var inode: UInt64

    /// The status of `path`; with `followingLinks` false, a final symbolic link is described
    /// itself. Errors name the path and "stat".
    package static func of(_ path: FilePath, followingLinks: Bool) throws(FileSystemError) -> FileStatus {
        let info = try stat(path, followingLinks: followingLinks)
        let kind: Kind = switch info.type {
        case .regular: .regularFile
        case .directory: .directory
        case .symbolicLink: .symbolicLink
        default: .other
        }
        return FileStatus(kind: kind, size: info.size,
                          modifiedNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                          linkCount: info.linkCount, device: UInt64(info.deviceID.rawValue), inode: UInt64(info.inode.rawValue))
    }

    /// Whether anything, a dangling link included, has the name `path`. Errors other than
    /// "no such file" (a folder on the way that cannot be searched, say) are thrown.
    package static func exists(_ path: FilePath) throws(FileSystemError) -> Bool {
        do throws(FileSystemError) {
            _ = try stat(path, followingLinks: false)
            return true
        } catch where error.kind == .notFound {
            return false
        }
    }

    /// stat(2) or lstat(2) through swift-system, its failure naming the path.
    static func stat(_ path: FilePath, followingLinks: Bool) throws(FileSystemError) -> Stat {
        try withErrorNaming(path.string, "stat") { try Stat(path, followTargetSymlink: followingLinks) }
    }
}
