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

    /// Whether standard error is a terminal, so that progress can be drawn on it.
    package static var standardErrorIsTerminal: Bool { Syscalls.isTerminal(.standardError) }
}
