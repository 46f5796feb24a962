internal import CGallerySystem
import Glibc
import SystemPackage

// Raw calls about the process itself. See Syscalls.swift.

extension Syscalls {
    static var processID: Int32 { getpid() }

    static var userID: UInt32 { getuid() }

    /// The user's home folder from the password database, for when `HOME` is not set.
    static var homeFolder: String? { passwordEntry(of: getuid()) { $0.pw_dir } }

    /// The login name of the effective user from the password database.
    static var userName: String? { passwordEntry(of: geteuid()) { $0.pw_name } }

    /// One field of `user`'s entry in the password database.
    private static func passwordEntry(of user: uid_t, _ field: (passwd) -> UnsafeMutablePointer<CChar>?) -> String? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(user, &entry, &buffer, buffer.count, &found) == 0, found != nil,
              let text = field(entry) else { return nil }
        return String(cString: text)
    }

    /// getenv(3): one variable, without the copy of the whole environment that Foundation's
    /// `ProcessInfo.environment` makes.
    static func environmentVariable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    static func setEnvironment(_ name: String, _ value: String, replacing: Bool) {
        _ = setenv(name, value, replacing ? 1 : 0)
    }

    /// nanosleep(2) for `nanoseconds`, resumed with what is left when a signal interrupts it.
    static func sleep(nanoseconds: Int64) {
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }

    /// `seconds` since the epoch in the local time zone (`TZ`, else /etc/localtime), as
    /// year, month, day, hour, minute, second.
    static func localTime(_ seconds: Int64) -> (Int, Int, Int, Int, Int, Int) {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// CLOCK_REALTIME, to the nanosecond.
    static var realTime: (seconds: Int64, nanoseconds: Int32) {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return (Int64(spec.tv_sec), Int32(spec.tv_nsec))
    }

    /// The soft address-space limit (RLIMIT_AS) in bytes; nil when there is none.
    static var addressSpaceLimit: UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return UInt64(limit.rlim_cur)
    }

    static var pageSize: Int { Int(sysconf(Int32(_SC_PAGESIZE))) }

    static func fitMallocToAddressLimit() -> Bool { ig_fit_malloc_to_address_limit() == 1 }

    static func returnFreedMemoryPromptly() { ig_return_freed_memory_promptly() }

    static func growHeapInHugePages(by pad: Int) -> Bool { ig_grow_heap_in_huge_pages(pad) == 1 }
}

extension Syscalls {
    /// kill(pid, 0): whether a process with this pid exists (EPERM: it does, as another user's).
    static func processExists(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || lastError == .notPermitted
    }

    /// execv: returns only on failure, with the reason.
    static func replaceProcess(executable: String, arguments: [String]) -> Errno {
        withArgumentVector(arguments) { _ = execv(executable, $0) }
        return lastError
    }

    /// `arguments` as the NULL-terminated array of C strings that exec and spawn take, for
    /// the length of `body`.
    static func withArgumentVector<Value>(_ arguments: [String],
                                          _ body: ([UnsafeMutablePointer<CChar>?]) -> Value) -> Value {
        var pointers = arguments.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }
}

extension Syscalls {
    /// fork(2): the child's id in the parent, 0 in the child.
    static func fork() -> Result<Int32, Errno> {
        let child = Glibc.fork()
        return child < 0 ? .failure(Errno(rawValue: errno)) : .success(child)
    }

    /// waitpid(2) for `child`: its exit status, or the signal that ended it.
    static func wait(for child: Int32) -> Result<(status: Int32?, signal: Int32?), Errno> {
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { return .failure(Errno(rawValue: errno)) }
        }
        // WIFEXITED and friends are macros Swift does not import.
        let signal = status & 0x7F
        return .success(signal == 0 ? ((status >> 8) & 0xFF, nil) : (nil, signal))
    }
}

extension Syscalls {
    /// Ends the process (exit(3): atexit handlers run, stdio is flushed).
    static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// C.UTF-8 for LC_CTYPE, made once; nil where the C library lacks it.
    nonisolated(unsafe) private static let utf8CharacterLocale: locale_t? = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

    /// Runs `body` with the calling thread's LC_CTYPE set to C.UTF-8 (uselocale, which leaves
    /// the process's locale and other threads alone); as it is where C.UTF-8 is missing.
    static func withUTF8CharacterLocale<Value>(_ body: () throws -> Value) rethrows -> Value {
        guard let utf8CharacterLocale else { return try body() }
        let previous = uselocale(utf8CharacterLocale)
        defer { uselocale(previous) }
        return try body()
    }
}
