import Glibc
import SystemPackage

/// How a program that reads hostile files shuts itself in before reading them (the
/// thumbnailer: Specs/security.md, "The confined thumbnailer"). Each step can only take
/// rights away, for the rest of the process's life, and each sets no_new_privs, so no program
/// it could run would get them back.
package enum Confinement {
    /// The Landlock ABI this kernel offers, 0 when it has none or has it turned off.
    package static var landlockABI: Int { Syscalls.landlockABI }

    /// The folders a decoder library loaded after confinement may be read and mapped from.
    package static let libraryFolders = ["/usr/lib", "/lib", "/lib64", "/usr/lib64", "/etc/ld.so.cache"]

    /// From now on, files can be opened only to read `input`, to write `output` (both must exist),
    /// and to read and map `libraryFolders`. Returns the Landlock ABI used, 0 when the kernel
    /// has none (then nothing is restricted: the caller says so).
    package static func restrictFiles(input: String, output: String) throws(FileSystemError) -> Int {
        try Syscalls.landlockConfine(input: input, output: output, folders: libraryFolders)
            .get(path: input, operation: "confine (Landlock)")
    }

    /// From now on only the calls of a thumbnail can be made: no socket, no exec, no new
    /// process; `openat` only while `allowingOpen` (a later call without it closes that too).
    package static func restrictCalls(allowingOpen: Bool, naming path: String) throws(FileSystemError) {
        try Syscalls.seccompConfine(allowingOpen: allowingOpen).get(path: path, operation: "confine (seccomp)")
    }

    /// Lowers resource limits: `cpuSeconds` of processor time (then SIGXCPU ends the process),
    /// `fileBytes` for any file written, no core dump, and the address space to
    /// `addressSpaceBytes` unless a lower limit is set already.
    package static func limitResources(cpuSeconds: UInt64, fileBytes: UInt64, addressSpaceBytes: UInt64,
                                       naming path: String) throws(FileSystemError) {
        for (resource, value) in [(RLIMIT_CPU.rawValue, cpuSeconds), (RLIMIT_FSIZE.rawValue, fileBytes),
                                  (RLIMIT_CORE.rawValue, 0), (RLIMIT_AS.rawValue, addressSpaceBytes)] {
            try Syscalls.lowerLimit(Int32(resource), to: value).get(path: path, operation: "limit resources")
        }
    }
}

extension Confinement {
    /// Tries what a confined process must not do, and says for each what happened: "allowed",
    /// or the error name the system answered with. Only for the tests, which run it through the
    /// thumbnailer's hidden `--probe-confinement` and so see the confinement from outside.
    package static func probe(readable: String, creatable: String, port: UInt16, program: String) -> [(String, String)] {
        func outcome(_ code: Int32) -> String { code == 0 ? "allowed" : Errno(rawValue: code).debugDescription }
        return [
            ("open \(readable)", outcome(Syscalls.probeOpen(readable))),
            ("create \(creatable)", outcome(Syscalls.probeCreate(creatable))),
            ("connect 127.0.0.1:\(port)", outcome(Syscalls.probeConnect(port: port))),
            ("exec \(program)", outcome(Syscalls.probeExec(program))),
            ("fork", outcome(Syscalls.probeFork())),
        ]
    }
}

extension Confinement {
    /// How a supervised child ended: its exit status, or the signal that stopped it.
    package enum ChildEnd: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Splits the process in two before it confines itself: returns nil in the child, which goes
    /// on to do the work; in the parent, which never reads the input, waits for the child and
    /// returns how it ended, so that the parent can clean up what the confined child no longer
    /// may (a file it created, when it failed). Nil too, with no child, when the system refuses.
    package static func superviseChild() -> ChildEnd? {
        guard case .success(let child) = Syscalls.fork(), child > 0 else { return nil }
        switch Syscalls.wait(for: child) {
        case .success((let status?, _)): return .exited(status)
        case .success((_, let signal?)): return .signalled(signal)
        default: return .signalled(0)
        }
    }
}
