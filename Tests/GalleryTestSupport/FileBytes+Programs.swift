import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension FileBytes {
    /// Copies a program to `destination`, executable, through a descriptor that is closed on exec.
    ///
    /// `FileManager.copyItem` writes through a descriptor without `O_CLOEXEC`. Tests run side by
    /// side, so another test's child can be spawned while the copy is open, inherit that write
    /// descriptor and keep it for its whole life; running the copy then fails with ETXTBSY
    /// ("Text file busy"), as CI saw once in the desktop integration tests.
    public static func copyProgram(_ source: String, to destination: String) throws {
        try writeProgram(try read(source), to: destination)
    }

    /// Writes a script a test hands to a command as a program, executable, through a descriptor
    /// that is closed on exec, for the reason ``copyProgram(_:to:)`` gives. `Data.write` has the
    /// same flaw; CI saw `edit --pictures` refused its test editor with ETXTBSY.
    public static func writeScript(_ text: String, to destination: String) throws {
        try writeProgram(Array(text.utf8), to: destination)
    }

    private static func writeProgram(_ bytes: [UInt8], to destination: String) throws {
        let descriptor = Glibc.open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO, path: destination) }
        defer { Glibc.close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO, path: destination) }
            written += count
        }
    }
}

extension POSIXError {
    init(_ code: POSIXErrorCode, path: String) {
        self.init(code, userInfo: [NSFilePathErrorKey: path])
    }
}
