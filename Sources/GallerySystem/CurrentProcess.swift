import SystemPackage

/// What a program asks about itself.
package enum CurrentProcess {
    /// The path of the running executable (/proc/self/exe), or nil where /proc does not say.
    package static func executablePath() -> String? {
        guard case .success(let path) = Syscalls.readLink("/proc/self/exe"), !path.isEmpty else { return nil }
        return path
    }

    /// Whether standard error is a terminal, so that progress can be drawn on it.
    package static var standardErrorIsTerminal: Bool { Syscalls.isTerminal(.standardError) }
}
