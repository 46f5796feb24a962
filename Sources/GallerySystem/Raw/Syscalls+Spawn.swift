internal import CGallerySystem
import Glibc
import SystemPackage

// Starting other programs. See Syscalls.swift.

extension Syscalls {
    /// posix_spawn with `input`, `output` and `error` as the child's descriptors 0, 1 and 2
    /// (nil: ours).
    static func spawn(_ executable: String, arguments: [String], input: FileDescriptor?,
                      output: FileDescriptor?, error errorOutput: FileDescriptor? = nil) -> Result<Int32, Errno> {
        var child: pid_t = 0
        let error = withArgumentVector(arguments) {
            ig_spawn(executable, $0, input?.rawValue ?? -1, output?.rawValue ?? -1, errorOutput?.rawValue ?? -1, &child)
        }
        return error == 0 ? .success(child) : .failure(Errno(rawValue: error))
    }

    /// A pipe, both ends close-on-exec: (read end, write end).
    static func pipe() -> Result<(FileDescriptor, FileDescriptor), Errno> {
        var descriptors: [Int32] = [-1, -1]
        return retryingVoid { ig_pipe(&descriptors) }
            .map { (FileDescriptor(rawValue: descriptors[0]), FileDescriptor(rawValue: descriptors[1])) }
    }

    /// write(2) to a child's pipe: a reader that has gone is EPIPE, never a SIGPIPE.
    static func writeToPipe(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        retrying { ig_write_without_sigpipe(fd.rawValue, bytes.baseAddress, bytes.count) }
    }
}
