import SystemPackage

/// The process's standard input.
package enum StandardInput {
    /// Reads standard input to its end, handing each chunk read (up to 1 MiB) to `take`.
    /// Errors name "-" and "read standard input".
    package static func readChunks(_ take: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { buffer.deallocate() }
        while true {
            let count = try withErrorNaming("-", "read standard input") { try FileDescriptor.standardInput.read(into: buffer) }
            if count == 0 { return }
            try take(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
