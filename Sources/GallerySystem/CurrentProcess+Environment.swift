import FoundationEssentials

extension CurrentProcess {
    /// The process's environment variables, as it was started with them (and as `setEnvironment`
    /// changed them): what programs this one looks for, and where, are read from here.
    package static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The variables `names` that are set, and only those: where a command needs two of them,
    /// a copy of the whole environment into a dictionary cost 0.25 ms of opening a document to
    /// edit (Benchmarks/RESULTS.md, ac.3.10).
    package static func variables(_ names: String...) -> [String: String] {
        var found: [String: String] = [:]
        for name in names {
            if let value = Syscalls.environmentVariable(name) { found[name] = value }
        }
        return found
    }
}
