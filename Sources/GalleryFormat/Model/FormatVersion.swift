/// The manifest's `formatVersion`, "MAJOR.MINOR".
public struct FormatVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// The version this implementation writes.
    public static let current = FormatVersion(major: 1, minor: 0)

    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
              let major = Int(parts[0]), let minor = Int(parts[1])
        else { return nil }
        self.init(major: major, minor: minor)
    }

    public var description: String { "\(major).\(minor)" }

    public static func < (a: FormatVersion, b: FormatVersion) -> Bool { (a.major, a.minor) < (b.major, b.minor) }
}
