import FoundationEssentials

extension CurrentProcess {
    /// The process's environment variables, as it was started with them (and as `setEnvironment`
    /// changed them): what programs this one looks for, and where, are read from here.
    package static var environment: [String: String] { ProcessInfo.processInfo.environment }
}
