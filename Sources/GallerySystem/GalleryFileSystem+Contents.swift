import SystemPackage

extension GalleryFileSystem {
    /// The whole of the regular file at `path`, read to its end: a file whose size the kernel
    /// does not know beforehand (those in /proc, which say 0) is read all the same. Errors name
    /// the path; a folder, a FIFO or a device is refused, as `GalleryFile.openForReading` does.
    package static func contents(of path: FilePath) throws(FileSystemError) -> [UInt8] {
        try withErrorNaming(path.string, "read") {
            let file = try GalleryFile.openForReading(path)
            // One read past the size says the end was reached; /proc files then go in chunks.
            var chunk = Int(try file.size) + 1
            var bytes: [UInt8] = []
            while true {
                let more = try file.readUninitialized(at: UInt64(bytes.count), count: chunk)
                bytes += more
                if more.count < chunk { return bytes }
                chunk = 1 << 16
            }
        }
    }

    /// Writes `bytes` as the whole of `path` through a temporary file in its folder, renamed over
    /// it: a reader sees the old file or the new one, never a part (what Foundation's atomic
    /// write and `createFile` do, without their flush to disk). The file gets `permissions`, or
    /// without them the mode a new document gets (0666 less the umask). Errors name the path.
    package static func writeWhole(_ bytes: [UInt8], to path: FilePath, permissions: FilePermissions? = nil) throws(FileSystemError) {
        try withErrorNaming(path.string, "write") {
            try saveSafely(to: path, replacing: true, durable: false) { file in
                if let permissions {
                    try Syscalls.setPermissions(file.descriptor, permissions).get(path: file.path, operation: "set the permissions of")
                }
                try file.write(bytes, at: 0)
            }
        }
    }
}
