import SystemPackage

extension GalleryFile {
    /// Writes all of `buffer` at `offset`.
    public func write(_ buffer: UnsafeRawBufferPointer, at offset: UInt64) throws {
        var done = 0
        while done < buffer.count {
            done += try withErrorNaming(path, "write") {
                try descriptor.write(toAbsoluteOffset: Int64(offset) + Int64(done), UnsafeRawBufferPointer(rebasing: buffer[done...]))
            }
        }
    }

    /// Writes all of `bytes` at `offset`.
    public func write(_ bytes: [UInt8], at offset: UInt64) throws {
        try bytes.withUnsafeBytes { try write($0, at: offset) }
    }

    /// Cuts (or extends) the file to `length` bytes.
    package func truncate(to length: UInt64) throws {
        try withErrorNaming(path, "truncate") { try descriptor.resize(to: Int64(length)) }
    }

    /// Flushes the file's bytes and size to disk (fsync).
    public func synchronize() throws {
        try Syscalls.fsync(descriptor).get(path: path, operation: "fsync")
    }

    /// Asks the kernel to start writing a range to disk now, without waiting: a hint, so
    /// errors are ignored (the final `synchronize()` reports them).
    package func startWriteback(at offset: UInt64, count: UInt64) {
        _ = Syscalls.startWriteback(descriptor, at: Int64(offset), count: Int64(count))
    }

    /// Copies `count` bytes from `source` at `sourceOffset` to this file at `offset`, inside the
    /// kernel where it can (`copy_file_range`), through a buffer where it cannot.
    /// Returns the bytes copied: fewer only when the source ends early.
    package func copy(from source: GalleryFile, at sourceOffset: UInt64, count: UInt64, to offset: UInt64) throws -> UInt64 {
        var done: UInt64 = 0
        while done < count {
            let want = Int(min(count - done, 1 << 30))
            switch Syscalls.copyFileRange(from: source.descriptor, at: Int64(sourceOffset + done), to: descriptor,
                                          at: Int64(offset + done), count: want) {
            case .success(0):
                return done
            case .success(let n):
                done += UInt64(n)
            case .failure(let code):
                // Across file systems, on kernels without it, or on files it cannot take.
                let unsupported: [Errno] = [.improperLink, .noFunction, .invalidArgument, .notSupportedOnSocket, .badFileDescriptor]
                guard unsupported.contains(code) else {
                    throw FileSystemError(code, path: path, operation: "copy \(source.path) into")
                }
                return try done + copyThroughBuffer(from: source, at: sourceOffset + done, count: count - done, to: offset + done)
            }
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
}
