import SystemPackage

extension GalleryFileSystem {
    /// The bytes this user may still write on the file system that holds `path` (statvfs's
    /// available blocks, not counting those kept for root). Errors name the path.
    package static func availableBytes(on path: FilePath) throws(FileSystemError) -> UInt64 {
        try Syscalls.availableBytes(path.string).get(path: path.string, operation: "read the free space of")
    }
}
