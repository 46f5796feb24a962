/// A process's id (a pid), typed so that it is not mistaken for any other number.
/// Encodes as the bare number, as lock records have always been written.
public struct ProcessID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The pid as the system gives it (`pid_t`).
    public var rawValue: Int32

    /// The process whose pid is `rawValue`; it need not be running.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// This process.
    public static var current: ProcessID { ProcessID(rawValue: Syscalls.processID) }

    /// Decodes the bare number; throws `DecodingError` for anything that is not an `Int32`.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int32.self)
    }

    /// Encodes the bare number; throws what `encoder` throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Whether a process with this pid exists now (on this host; pids are reused, so a caller that
    /// must be sure checks something the process itself published as well).
    public var isRunning: Bool { Syscalls.processExists(rawValue) }

    /// The pid in decimal, such as "4127".
    public var description: String { String(rawValue) }
}
