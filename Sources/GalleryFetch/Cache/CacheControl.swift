/// The `Cache-Control` directives a private cache acts on (RFC 9111 section 5.2), parsed
/// leniently: unknown directives are ignored, and a directive given twice keeps its first
/// value, as section 4.2.1 asks of conflicting freshness information.
public struct CacheControl: Sendable, Hashable {
    /// `max-age`: how many seconds the response stays fresh after it was made; nil when absent (the
    /// `Expires` field, or a heuristic, may then apply).
    public var maxAge: Int64?
    /// `no-store`: the response must not be kept at all.
    public var noStore = false
    /// `no-cache`: the response may be kept, but is revalidated with the server before every use.
    public var noCache = false
    /// `must-revalidate` (or `proxy-revalidate`): once stale, the response must be revalidated
    /// before it is used. Parsed for completeness: under the default policy this cache
    /// revalidates every stale response anyway.
    public var mustRevalidate = false

    /// Directives given one by one (the parsing initializer reads them from a response).
    public init(maxAge: Int64? = nil, noStore: Bool = false, noCache: Bool = false, mustRevalidate: Bool = false) {
        self.maxAge = maxAge
        self.noStore = noStore
        self.noCache = noCache
        self.mustRevalidate = mustRevalidate
    }

    /// Parses every `Cache-Control` field value of a response, joined or separate.
    public init(_ values: [String]) {
        for value in values {
            for directive in Self.split(value) {
                let (name, argument) = directive
                switch name {
                case "max-age":
                    // A malformed max-age makes the response stale (section 4.2.1), not fresh forever.
                    if maxAge == nil { maxAge = argument.flatMap(Self.deltaSeconds) ?? 0 }
                case "no-store": noStore = true
                // `no-cache="field"` only restricts some fields; treating it as plain no-cache
                // is the safe reading (revalidate every time).
                case "no-cache": noCache = true
                case "must-revalidate", "proxy-revalidate": mustRevalidate = true
                default: continue
                }
            }
        }
    }

    /// delta-seconds (section 1.2.2): digits only, with values past 2^31 taken as 2^31.
    static func deltaSeconds(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30 ... 0x39).contains($0) }) else { return nil }
        return text.count > 10 ? 2_147_483_648 : min(Int64(text)!, 2_147_483_648)
    }

    /// Directives as lowercased names with optional (unquoted) arguments; commas inside a
    /// quoted argument do not split.
    static func split(_ value: String) -> [(String, String?)] {
        var result: [(String, String?)] = []
        var current = ""
        var quoted = false
        for character in value + "," {
            if character == "\"" { quoted.toggle(); continue }
            if character == ",", !quoted {
                let trimmed = current.trimmingCharacters(in: .whitespaces)
                current = ""
                guard !trimmed.isEmpty else { continue }
                if let equals = trimmed.firstIndex(of: "=") {
                    result.append((trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased(),
                                   trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)))
                } else {
                    result.append((trimmed.lowercased(), nil))
                }
                continue
            }
            current.append(character)
        }
        return result
    }
}

import Foundation
