import FoundationEssentials

/// A manifest member this implementation does not know, kept as it was read so that a save
/// writes it again (section 8): a later minor version's addition survives an older writer.
public struct ManifestMember: Sendable, Hashable {
    /// The member's key.
    public var name: String
    /// Its value, as JSON.
    public var value: ManifestValue

    /// A member from its key and value.
    public init(name: String, value: ManifestValue) {
        self.name = name
        self.value = value
    }
}

/// Any JSON value, as an unknown member holds it. A number keeps its text, since a later
/// version may use numbers this one would round.
public indirect enum ManifestValue: Sendable, Hashable {
    /// A string, unescaped.
    case string(String)
    /// A number, as its text was written ("2.50" stays "2.50").
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An array, in order.
    case array([ManifestValue])
    /// An object, its members in the order read (written in key order).
    case object([ManifestMember])

    /// The value for the canonical writer, its object members in key order (section 6.2).
    var canonical: CanonicalJSONWriter.Value {
        switch self {
        case .string(let text): .string(text)
        case .number(let text): .number(text)
        case .bool(let flag): .bool(flag)
        case .null: .null
        case .array(let elements): .array(elements.map(\.canonical))
        case .object(let members): .object(ManifestMember.canonicalOrder(members))
        }
    }
}

extension ManifestMember {
    /// Members as the canonical writer lists them: in the byte order of their keys.
    static func canonicalOrder(_ members: [ManifestMember]) -> [(String, CanonicalJSONWriter.Value)] {
        members.map { ($0.name, $0.value.canonical) }.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
    }

    /// Known members and kept ones in one canonical list; known members come already in order.
    static func merged(_ known: [(String, CanonicalJSONWriter.Value)], _ kept: [ManifestMember])
        -> [(String, CanonicalJSONWriter.Value)] {
        guard !kept.isEmpty else { return known }
        return (known + canonicalOrder(kept)).sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
    }
}
