import SystemPackage

extension GalleryFile {
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
            let n = try withErrorNaming(path, "read") {
                try descriptor.read(fromAbsoluteOffset: Int64(offset) + Int64(done),
                                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Tells the kernel the file will be read once, in order, so it reads ahead further.
    package func adviseSequential() {
        Syscalls.adviseSequential(descriptor)
    }
}
