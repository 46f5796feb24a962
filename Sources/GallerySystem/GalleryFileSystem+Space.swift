extension GalleryFileSystem {
    /// The bytes this user may still write on the file system that holds `path` (statvfs's
    /// available blocks, not counting those kept for root). Errors name the path.
    package static func availableBytes(on path: String) throws(FileSystemError) -> UInt64 {
        try Syscalls.availableBytes(path).get(path: path, operation: "read the free space of")
    }
}
