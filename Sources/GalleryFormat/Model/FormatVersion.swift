/// The manifest's `formatVersion`, "MAJOR.MINOR".
public struct FormatVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// A reader refuses a manifest whose major version it does not know (IG-MAN-010).
    public var major: Int
    /// Additions a reader of the same major version may ignore.
    public var minor: Int

    /// A version from its two parts.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// Format 1.0: JPEG and PNG.
    public static let one = FormatVersion(major: 1, minor: 0)
    /// Format 2.0: JPEG and PNG, and WebP, GIF, AVIF and HEIC.
    public static let two = FormatVersion(major: 2, minor: 0)
    /// The newest version this implementation reads and writes. It writes the lowest version
    /// that can express a gallery (``Gallery/writtenFormatVersion``), and reads every major
    /// version up to this one.
    public static let newest = two

    /// Whether this implementation reads manifests of this version (IG-MAN-010 otherwise).
    public var isReadable: Bool { (1 ... Self.newest.major).contains(major) }

    /// Parses "MAJOR.MINOR": each part `0` or ASCII digits with no leading zero (section 8),
    /// so every version has one spelling ("1.0", "1.10"; never "01.0" or "1.00").
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2,
              parts.allSatisfy({ part in
                  !part.isEmpty && part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                      && (part.utf8.count == 1 || part.utf8.first != 0x30)
              })
        else { return nil }
        // Digits of any length are a version (section 8); past Int they are simply very large.
        self.init(major: Int(parts[0]) ?? .max, minor: Int(parts[1]) ?? .max)
    }

    /// "MAJOR.MINOR", as the manifest writes it.
    public var description: String { "\(major).\(minor)" }

    /// Orders by major version, then by minor.
    public static func < (a: FormatVersion, b: FormatVersion) -> Bool { (a.major, a.minor) < (b.major, b.minor) }
}
