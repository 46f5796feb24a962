import FoundationEssentials
public import SystemPackage

/// A file-system operation that failed: which file, what was being done to it, and the
/// system's reason. Every failure of GallerySystem is one of these, so every message names its
/// place, as "PATH: cannot OPERATION: REASON".
public struct FileSystemError: Error, Sendable, CustomStringConvertible {
    /// What the failure means for the caller, across the error codes that mean the same.
    public enum Kind: Sendable, CaseIterable {
        /// `notFound`: the file, or a folder on its path, does not exist (ENOENT).
        /// `permissionDenied`: not allowed (EACCES, EPERM). `alreadyExists`: the file is there
        /// already (EEXIST). `isDirectory`: a folder where a file was meant (EISDIR).
        /// `notDirectory`: a file where a folder was meant (ENOTDIR). `noSpace`: the disk or the
        /// quota is full (ENOSPC, EDQUOT). `other`: any other code; see `code`.
        case notFound, permissionDenied, alreadyExists, isDirectory, notDirectory, noSpace, other
    }

    /// What the failure means; normally read from `code` (see `init(_:path:operation:)`).
    public var kind: Kind
    /// The file the operation was about.
    public var path: String
    /// What was being done, as words that follow "cannot" ("open", "rename a.tmp to").
    public var operation: String
    /// The system's error code.
    public var code: Errno

    /// The error with each part as given; `kind` is not checked against `code`.
    public init(kind: Kind, path: String, operation: String, code: Errno) {
        self.kind = kind
        self.path = path
        self.operation = operation
        self.code = code
    }

    /// The error for `code`, its kind read from the code.
    public init(_ code: Errno, path: String, operation: String) {
        self.init(kind: Self.kind(of: code), path: path, operation: operation, code: code)
    }

    /// The system's text for the code (strerror), such as "No such file or directory".
    public var reason: String { code.description }

    /// The message, as "PATH: cannot OPERATION: REASON".
    public var description: String { "\(path): cannot \(operation): \(reason)" }

    /// The system's words for what any file operation threw: ours, or Foundation's (a
    /// `CocoaError` over a POSIX error, whose own description is a dump of its fields), as
    /// `reason` would give them; any other error as it describes itself.
    package static func reason(of error: any Error) -> String {
        switch error {
        case let error as FileSystemError: error.reason
        case let error as CocoaError: error.underlying.map(reason(of:)) ?? "\(error.code)"
        case let error as POSIXError: Errno(rawValue: error.code.rawValue).description
        default: "\(error)"
        }
    }

    static func kind(of code: Errno) -> Kind {
        switch code {
        case .noSuchFileOrDirectory: .notFound
        case .permissionDenied, .notPermitted: .permissionDenied
        case .fileExists: .alreadyExists
        case .isDirectory: .isDirectory
        case .notDirectory: .notDirectory
        case .noSpace, .diskQuotaExceeded: .noSpace
        default: .other
        }
    }
}

extension Result where Failure == Errno {
    /// The value, or a `FileSystemError` naming `path` and `operation`.
    func get(path: String, operation: String) throws(FileSystemError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let code): throw FileSystemError(code, path: path, operation: operation)
        }
    }
}

/// Runs a swift-system call, turning the `Errno` it throws into a `FileSystemError` that
/// names `path` and `operation`. `path` is made only for an error: a read of a 30-byte local
/// header should not pay for making a String of the file's path.
func withErrorNaming<Value>(_ path: @autoclosure () -> String, _ operation: String, _ body: () throws -> Value)
    throws(FileSystemError) -> Value {
    do {
        return try body()
    } catch let code as Errno {
        throw FileSystemError(code, path: path(), operation: operation)
    } catch let error as FileSystemError {
        throw error
    } catch {
        // swift-system throws nothing but Errno; anything else is a programming error here.
        preconditionFailure("\(path()): \(operation): \(error)")
    }
}
