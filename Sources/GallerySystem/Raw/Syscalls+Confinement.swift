internal import CGallerySystem
import Glibc
import SystemPackage

// Raw calls that confine the process. See Syscalls.swift and Confinement.swift.

extension Syscalls {
    static var landlockABI: Int { Int(ig_landlock_abi()) }

    static func landlockConfine(input: String, output: String, folders: [String]) -> Result<Int, Errno> {
        let pointers = folders.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        let abi = pointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { folders in
            ig_landlock_confine(input, output, folders.baseAddress, Int32(folders.count))
        }
        return abi < 0 ? .failure(Errno(rawValue: errno)) : .success(Int(abi))
    }

    static func seccompConfine(allowingOpen: Bool) -> Result<Void, Errno> {
        ig_seccomp_confine(allowingOpen ? 1 : 0) == 0 ? .success(()) : .failure(Errno(rawValue: errno))
    }

    /// Lowers one resource limit (soft and hard) to `value`, never raising it.
    static func lowerLimit(_ resource: Int32, to value: UInt64) -> Result<Void, Errno> {
        var limit = rlimit()
        let which = __rlimit_resource_t(UInt32(resource))
        guard getrlimit(which, &limit) == 0 else { return .failure(Errno(rawValue: errno)) }
        limit.rlim_cur = min(limit.rlim_cur, rlim_t(value))
        limit.rlim_max = min(limit.rlim_max, rlim_t(value))
        return setrlimit(which, &limit) == 0 ? .success(()) : .failure(Errno(rawValue: errno))
    }
}

extension Syscalls {
    static func probeOpen(_ path: String) -> Int32 { ig_probe_open_for_reading(path) }
    static func probeCreate(_ path: String) -> Int32 { ig_probe_create(path) }
    static func probeConnect(port: UInt16) -> Int32 { ig_probe_connect(port) }
    static func probeExec(_ path: String) -> Int32 { ig_probe_exec(path) }
    static func probeFork() -> Int32 { ig_probe_fork() }
}
