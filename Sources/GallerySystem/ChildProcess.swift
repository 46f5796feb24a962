import SystemPackage

/// A program this one starts and waits for: the fetch helper, xdg-open, the desktop's cache
/// tools. Foundation's `Process` would do, but brings all of Foundation (and ICU's data) into
/// every start of imagegallery: 0.6 ms and 2.6 MiB for commands that never start anything
/// (Benchmarks/RESULTS.md, section v).
package final class ChildProcess {
    /// What the child gets as its standard input or output.
    package enum Stream: Sendable {
        /// This process's own.
        case inherited
        /// /dev/null.
        case nothing
        /// A pipe whose other end this process holds (`input` or `output`).
        case pipe
        /// This process's standard error (for a child's output that must not mix with ours).
        case standardError
    }

    /// How the child ended.
    package enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)

        /// The exit status a shell would report: the child's own, or 128 + the signal.
        package var status: Int32 {
            switch self {
            case .exited(let status): status
            case .signalled(let signal): 128 + signal
            }
        }
    }

    /// The program, as started.
    package let executable: String
    /// The child's process id.
    package let processID: Int32
    /// Our end of the child's standard input, when it is a pipe; nil once closed.
    private var input: FileDescriptor?
    /// Our end of the child's standard output, when it is a pipe.
    private var output: FileDescriptor?

    /// Our ends of the child's pipes that are still open (for a test to look at).
    package var pipeEnds: [FileDescriptor] { [input, output].compactMap { $0 } }

    /// Starts `executable` (a path) with `arguments` (not counting its name) and this
    /// process's environment. The error names the program. `error` is the child's standard
    /// error: ours, or /dev/null (`.nothing`); a pipe is not offered for it.
    package init(_ executable: String, arguments: [String], input: Stream = .inherited,
                 output: Stream = .inherited, error: Stream = .inherited) throws(FileSystemError) {
        precondition(error != .pipe, "a child's standard error is ours or /dev/null")
        self.executable = executable
        // The child's ends are closed once it has its copies; ours only if it cannot start.
        var childEnds: [FileDescriptor] = []
        var ourEnds: [FileDescriptor] = []
        defer { for descriptor in childEnds { try? descriptor.close() } }
        func ends(_ stream: Stream, childReads: Bool) throws(FileSystemError) -> (child: FileDescriptor?, ours: FileDescriptor?) {
            switch stream {
            case .inherited: return (nil, nil)
            case .standardError: return (.standardError, nil)
            case .nothing:
                let null = try withErrorNaming("/dev/null", "open") {
                    try FileDescriptor.open("/dev/null", childReads ? .readOnly : .writeOnly, options: .closeOnExec)
                }
                childEnds.append(null)
                return (null, nil)
            case .pipe:
                let (readEnd, writeEnd) = try Syscalls.pipe().get(path: executable, operation: "make a pipe for")
                let (child, ours) = childReads ? (readEnd, writeEnd) : (writeEnd, readEnd)
                childEnds.append(child)
                ourEnds.append(ours)
                return (child, ours)
            }
        }
        do throws(FileSystemError) {
            let inputEnds = try ends(input, childReads: true)
            let outputEnds = try ends(output, childReads: false)
            // Our standard error is the child's already: only /dev/null needs a descriptor.
            let errorEnds = error == .nothing ? try ends(.nothing, childReads: false) : (child: nil, ours: nil)
            processID = try Syscalls.spawn(executable, arguments: [executable] + arguments, input: inputEnds.child,
                                           output: outputEnds.child, error: errorEnds.child).get(path: executable, operation: "run")
            self.input = inputEnds.ours
            self.output = outputEnds.ours
        } catch {
            for descriptor in ourEnds { try? descriptor.close() }
            throw error
        }
    }

    deinit {
        try? input?.close()
        try? output?.close()
    }

    /// Writes all of `bytes` to the child's standard input (a pipe). A child that has stopped
    /// reading makes this fail with EPIPE (never a SIGPIPE that would end this process), which
    /// the caller may ignore: the child's exit says why.
    package func write(_ bytes: [UInt8]) throws(FileSystemError) {
        guard let input else { return }
        let failure = bytes.withUnsafeBytes { all -> Errno? in
            var rest = all
            while !rest.isEmpty {
                switch Syscalls.writeToPipe(input, rest) {
                case .success(let written): rest = UnsafeRawBufferPointer(rebasing: rest[written...])
                case .failure(let code): return code
                }
            }
            return nil
        }
        if let failure { throw FileSystemError(failure, path: executable, operation: "write to") }
    }

    /// Closes the child's standard input, so that it sees the end of it.
    package func closeInput() {
        try? input?.close()
        input = nil
    }

    /// The next bytes of the child's standard output (a pipe), as many as are there up to
    /// `limit`, waiting until some are; empty at its end.
    package func read(upTo limit: Int = 1 << 16) throws(FileSystemError) -> [UInt8] {
        guard let output else { return [] }
        return try withErrorNaming(executable, "read the output of") {
            try [UInt8](unsafeUninitializedCapacity: limit) { buffer, count in
                count = try output.read(into: UnsafeMutableRawBufferPointer(buffer))
            }
        }
    }

    /// Waits for the child to end. Our ends of its pipes are closed first, so that a child
    /// still writing sees a closed pipe rather than waiting for us forever.
    package func wait() throws(FileSystemError) -> Termination {
        closeInput()
        try? output?.close()
        output = nil
        let (status, signal) = try Syscalls.wait(for: processID).get(path: executable, operation: "wait for")
        if let signal { return .signalled(signal) }
        return .exited(status ?? 0)
    }
}
