/// A port for a server on loopback, when the user names none.
package enum FreePort {
    /// A TCP port that is free on 127.0.0.1 now. Another program may take it before the caller
    /// binds it; the caller's bind then fails and says so.
    package static func find() throws(FileSystemError) -> Int {
        switch Syscalls.freeLoopbackPort() {
        case .success(let port): return port
        case .failure(let code): throw FileSystemError(code, path: "127.0.0.1", operation: "find a free port")
        }
    }
}
