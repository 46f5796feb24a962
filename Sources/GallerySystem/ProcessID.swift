/// A process's id (a pid), typed so that it is not mistaken for any other number.
/// Encodes as the bare number, as lock records have always been written.
public struct ProcessID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// This process.
    public static var current: ProcessID { ProcessID(rawValue: Syscalls.processID) }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int32.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { String(rawValue) }
}
