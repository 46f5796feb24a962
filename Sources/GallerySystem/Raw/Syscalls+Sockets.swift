import Glibc
import SystemPackage

// The socket calls the package makes itself (servers use SwiftNIO). See Syscalls.swift.

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

extension Syscalls {
    /// Whether something accepts a TCP connection on 127.0.0.1:`port` within `milliseconds`:
    /// a non-blocking connect, waited for with poll (a listener whose backlog is full would
    /// otherwise keep a blocking connect for minutes), then closed at once.
    static func loopbackAccepts(port: Int, milliseconds: Int32) -> Result<Bool, Errno> {
        guard (1 ... 65535).contains(port) else { return .success(false) }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return .failure(lastError) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if connected == 0 { return .success(true) }
        let error = lastError
        // Refused (nothing listens) is the answer asked for, not a failure of the question.
        guard error == .nowInProgress || error == .interrupted else { return error == .connectionRefused ? .success(false) : .failure(error) }
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        switch retrying({ poll(&entry, 1, milliseconds) }) {
        case .failure(let error): return .failure(error)
        case .success(0): return .success(false)
        case .success: break
        }
        var pending: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &length) == 0 else { return .failure(lastError) }
        return .success(pending == 0)
    }
}
