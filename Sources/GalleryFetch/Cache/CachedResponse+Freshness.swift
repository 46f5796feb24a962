/// Freshness (RFC 9111 section 4.2), for a private cache.
extension CachedResponse {
    /// The most a heuristic lifetime may be: RFC 9111 leaves the bound to the cache, and a day
    /// is what browsers use.
    static let heuristicCap: Int64 = 86_400

    /// How long the response stays fresh after it was generated, in seconds.
    public var freshnessLifetime: Int64 {
        let control = cacheControl
        if let maxAge = control.maxAge { return maxAge }
        let date = field("date").flatMap(HTTPDate.parse) ?? responseTime / 1000
        if let expiresText = field("expires") {
            // An invalid Expires, "0" included, means already expired (section 5.3).
            guard let expires = HTTPDate.parse(expiresText) else { return 0 }
            return max(0, expires - date)
        }
        // Heuristic freshness, only for statuses cacheable by default (section 4.2.2): 10% of
        // the time since the last modification.
        if [200, 203, 204, 301, 308].contains(status), let modified = lastModified.flatMap(HTTPDate.parse), modified < date {
            return min((date - modified) / 10, Self.heuristicCap)
        }
        return 0
    }

    /// The response's age at `now` (section 4.2.3), in seconds.
    public func currentAge(now: Int64) -> Int64 {
        let date = field("date").flatMap(HTTPDate.parse) ?? responseTime / 1000
        let apparentAge = max(0, responseTime / 1000 - date)
        let ageValue = field("age").flatMap(CacheControl.deltaSeconds) ?? 0
        let responseDelay = max(0, (responseTime - requestTime) / 1000)
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        let residentTime = max(0, now / 1000 - responseTime / 1000)
        return correctedInitialAge + residentTime
    }

    /// Whether the cache may answer with this response without asking the server (`now` in
    /// ms since 1970). `no-cache` responses are never fresh: they are stored only to be
    /// revalidated.
    public func isFresh(now: Int64) -> Bool {
        !cacheControl.noCache && freshnessLifetime > currentAge(now: now)
    }

    /// Whether a conditional request can revalidate it.
    public var hasValidator: Bool { etag != nil || lastModified != nil }

    /// Whether a response may be stored at all (section 3): a status the cache understands,
    /// no `no-store`, no `Vary: *`; and for statuses not cacheable by default, explicit
    /// freshness.
    public var isStorable: Bool {
        let control = cacheControl
        guard !control.noStore, !(fields["vary"] ?? []).contains(where: { $0.contains("*") }) else { return false }
        switch status {
        case 200, 301, 308: return true
        case 302, 307: return control.maxAge != nil || field("expires") != nil
        default: return false
        }
    }
}
