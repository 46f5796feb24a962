import Glibc
import SystemPackage

// The one socket call the package makes itself (servers use SwiftNIO). See Syscalls.swift.

extension Syscalls {
    /// A TCP port on 127.0.0.1 that is free now: bound to port 0, read back, closed.
    static func freeLoopbackPort() -> Result<Int, Errno> {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(lastError) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { return .failure(lastError) }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return .failure(lastError) }
        return .success(Int(UInt16(bigEndian: address.sin_port)))
    }
}
