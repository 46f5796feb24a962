internal import CGallerySystem
import Glibc
import SystemPackage

// Raw calls about the process itself. See Syscalls.swift.

extension Syscalls {
    static var processID: Int32 { getpid() }

    /// The soft address-space limit (RLIMIT_AS) in bytes; nil when there is none.
    static var addressSpaceLimit: UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return UInt64(limit.rlim_cur)
    }

    static var pageSize: Int { Int(sysconf(Int32(_SC_PAGESIZE))) }

    static func fitMallocToAddressLimit() -> Bool { ig_fit_malloc_to_address_limit() == 1 }
}
