internal import CGallerySystem
import Glibc
import SystemPackage

// Raw calls on a file's owner, mode and extended attributes. See Syscalls.swift.

extension Syscalls {
    static func setPermissions(_ fd: FileDescriptor, _ permissions: FilePermissions) -> Result<Void, Errno> {
        retryingVoid { fchmod(fd.rawValue, permissions.rawValue) }
    }

    static func setOwner(_ fd: FileDescriptor, user: UserID, group: GroupID) -> Result<Void, Errno> {
        retryingVoid { fchown(fd.rawValue, user.rawValue, group.rawValue) }
    }

    static var currentUser: UserID { UserID(rawValue: getuid()) }

    /// The names of `path`'s extended attributes, each ending in a NUL byte.
    static func attributeNames(_ path: String) -> Result<[CChar], Errno> {
        sizedRead { buffer, size in ig_listxattr(path, buffer, size) }
    }

    static func attribute(_ name: UnsafePointer<CChar>, of path: String) -> Result<[UInt8], Errno> {
        sizedRead { buffer, size in ig_getxattr(path, name, buffer, size) }.map { $0.map { UInt8(bitPattern: $0) } }
    }

    static func setAttribute(_ name: UnsafePointer<CChar>, _ value: [UInt8], on fd: FileDescriptor) -> Result<Void, Errno> {
        retryingVoid { value.withUnsafeBytes { ig_fsetxattr(fd.rawValue, name, $0.baseAddress, $0.count) } }
    }

    /// The size-then-read pattern of listxattr and getxattr: asked again with a larger buffer
    /// when the value grew between the two calls (ERANGE).
    private static func sizedRead(_ call: (UnsafeMutablePointer<CChar>?, Int) -> Int) -> Result<[CChar], Errno> {
        while true {
            let size: Int
            switch retrying({ call(nil, 0) }) {
            case .failure(let error): return .failure(error)
            case .success(let got): size = got
            }
            if size == 0 { return .success([]) }
            var buffer = [CChar](repeating: 0, count: size)
            switch retrying({ buffer.withUnsafeMutableBufferPointer { call($0.baseAddress, size) } }) {
            case .success(let got): return .success(Array(buffer[..<got]))
            case .failure(let error) where error == .outOfRange: continue
            case .failure(let error): return .failure(error)
            }
        }
    }
}
