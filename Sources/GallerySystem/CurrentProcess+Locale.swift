extension CurrentProcess {
    /// Runs `body` with the calling thread's character set UTF-8 (LC_CTYPE C.UTF-8, through
    /// uselocale, so the process's locale and other threads are left alone), for a C library
    /// that converts names through the current locale: a program that never called setlocale is
    /// in "C", plain ASCII. Where the C library has no C.UTF-8, `body` runs as it is.
    package static func withUTF8CharacterSet<Value>(_ body: () throws -> Value) rethrows -> Value {
        try Syscalls.withUTF8CharacterLocale(body)
    }
}
