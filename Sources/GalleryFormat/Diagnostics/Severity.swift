/// How bad a diagnostic is, for a CI verdict.
///
/// `fatal` stops the check of the file; `error` makes the file invalid;
/// `warning` and `info` do not.
public enum Severity: String, Sendable, Comparable, CaseIterable, Codable {
    /// From least to most severe; see the type's description for what each means for a file.
    case info, warning, error, fatal

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        case .fatal: 3
        }
    }

    /// Orders by severity: `info` < `warning` < `error` < `fatal`.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
