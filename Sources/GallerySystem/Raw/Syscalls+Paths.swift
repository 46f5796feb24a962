import Glibc
internal import CGallerySystem
import SystemPackage

// Raw calls on names in the file system. See Syscalls.swift for why they are all here.

extension Syscalls {
    static func mkdir(_ path: String, _ permissions: FilePermissions) -> Result<Void, Errno> {
        retryingVoid { Glibc.mkdir(path, permissions.rawValue) }
    }

    static func rename(_ source: String, to destination: String) -> Result<Void, Errno> {
        retryingVoid { Glibc.rename(source, destination) }
    }

    static func renameExchange(_ a: String, _ b: String) -> Result<Void, Errno> {
        retryingVoid { ig_rename_exchange(a, b) }
    }

    static func renameNoReplace(_ source: String, to destination: String) -> Result<Void, Errno> {
        retryingVoid { ig_rename_no_replace(source, destination) }
    }

    static func link(_ source: String, to destination: String) -> Result<Void, Errno> {
        retryingVoid { Glibc.link(source, destination) }
    }

    static func unlink(_ path: String) -> Result<Void, Errno> {
        retryingVoid { Glibc.unlink(path) }
    }

    static func setTimesToNow(_ path: String) -> Result<Void, Errno> {
        retryingVoid { Glibc.utimensat(AT_FDCWD, path, nil, 0) }
    }

    static func realpath(_ path: String) -> Result<String, Errno> {
        guard let resolved = Glibc.realpath(path, nil) else { return .failure(lastError) }
        defer { free(resolved) }
        return .success(String(cString: resolved))
    }

    /// access(2) for reading (R_OK), writing (W_OK), running (X_OK) or existence (F_OK).
    enum Access { case exists, readable, writable, executable }

    static func access(_ path: String, _ access: Access) -> Result<Void, Errno> {
        let mode: Int32 = switch access {
        case .exists: F_OK
        case .readable: R_OK
        case .writable: W_OK
        case .executable: X_OK
        }
        return retryingVoid { Glibc.access(path, mode) }
    }

    /// mkstemp(3) on `template` (ending in XXXXXX), which it fills in: mode 0600.
    static func makeTemporaryFile(_ template: String) -> Result<(FileDescriptor, String), Errno> {
        var bytes = Array(template.utf8CString)
        return retrying { bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) } }
            .map { (FileDescriptor(rawValue: $0), filledName(bytes)) }
    }

    /// mkdtemp(3) on `template` (ending in XXXXXX): a new folder of mode 0700, and its name.
    static func makeTemporaryFolder(_ template: String) -> Result<String, Errno> {
        var bytes = Array(template.utf8CString)
        guard bytes.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { return .failure(lastError) }
        return .success(filledName(bytes))
    }

    /// The name mkstemp or mkdtemp wrote into `template`'s bytes, up to its terminating NUL.
    private static func filledName(_ template: [CChar]) -> String {
        String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func readLink(_ path: String) -> Result<String, Errno> {
        var buffer = [CChar](repeating: 0, count: 4096)
        return retrying { readlink(path, &buffer, buffer.count - 1) }
            .map { String(decoding: buffer[..<$0].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }

    /// The names in a folder (opendir and readdir), without "." and "..", in the folder's order.
    static func folderEntries(_ path: String) -> Result<[String], Errno> {
        guard let folder = opendir(path) else { return .failure(lastError) }
        defer { closedir(folder) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(folder) else { break }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return errno == 0 ? .success(names) : .failure(lastError)
    }
}

extension Syscalls {
    static func rmdir(_ path: String) -> Result<Void, Errno> {
        retryingVoid { Glibc.rmdir(path) }
    }

    /// The bytes an unprivileged user may still write on the file system that holds `path`
    /// (statvfs: available blocks times the fragment size).
    static func availableBytes(_ path: String) -> Result<UInt64, Errno> {
        var info = statvfs()
        return retryingVoid { statvfs(path, &info) }.map { UInt64(info.f_bavail) * UInt64(info.f_frsize) }
    }
}
