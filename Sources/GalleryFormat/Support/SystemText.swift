#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum SystemText {
    static func strerror(_ code: Int32) -> String {
        #if canImport(Glibc)
        let text = Glibc.strerror(code)
        #else
        let text = Darwin.strerror(code)
        #endif
        guard let text else { return "error \(code)" }
        return String(cString: text)
    }
}
extension FileSystemError {
    /// Builds the error for the current `errno`.
    public static func current(path: String, operation: String) -> FileSystemError {
        let code = currentErrnoValue()
        let kind: Kind
        switch code {
        case ENOENT: kind = .notFound
        case EACCES, EPERM: kind = .permissionDenied
        case EEXIST: kind = .alreadyExists
        case EISDIR: kind = .isDirectory
        case ENOTDIR: kind = .notDirectory
        case ENOSPC, EDQUOT: kind = .noSpace
        default: kind = .other
        }
        return FileSystemError(kind: kind, path: path, operation: operation, errno: code)
    }
}

func currentErrnoValue() -> Int32 {
    #if canImport(Glibc)
    return Glibc.errno
    #else
    return Darwin.errno
    #endif
}
