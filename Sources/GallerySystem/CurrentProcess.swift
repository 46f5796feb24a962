import FoundationEssentials
import SystemPackage

/// What a program asks about itself.
package enum CurrentProcess {
    /// The path of the running executable (/proc/self/exe), or nil where /proc does not say.
    package static func executablePath() -> String? {
        guard case .success(let path) = Syscalls.readLink("/proc/self/exe"), !path.isEmpty else { return nil }
        return path
    }

    /// Replaces this process with `executable`, run with `arguments` (the first is its name) and
    /// this environment: the way a command hands over to a companion program that must own the
    /// terminal and the signals. Returns only if the program could not be started.
    package static func replace(withExecutable executable: String, arguments: [String]) -> FileSystemError {
        let code = Syscalls.replaceProcess(executable: executable, arguments: arguments)
        return FileSystemError(code, path: executable, operation: "run")
    }

    /// The user's login name (what Foundation's `NSUserName` gives), else `USER`, else the
    /// numeric user id: for telling people who holds a document.
    package static var userName: String {
        Syscalls.userName ?? Syscalls.environmentVariable("USER") ?? String(Syscalls.userID)
    }

    /// Sets an environment variable of this process (setenv), for a library that reads its
    /// settings from the environment; an existing value is kept unless `replacing`.
    package static func setEnvironment(_ name: String, _ value: String, replacing: Bool) {
        Syscalls.setEnvironment(name, value, replacing: replacing)
    }

    /// Blocks the calling thread for `duration` (for a synchronous wait with back-off).
    package static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        Syscalls.sleep(nanoseconds: max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }

    /// Whether standard error is a terminal, so that progress can be drawn on it.
    package static var standardErrorIsTerminal: Bool { Syscalls.isTerminal(.standardError) }
}
