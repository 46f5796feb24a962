import GalleryFormat

/// A response as the cache keeps it: the status, the header fields freshness and validation
/// need, the times it was requested and received, and the body.
public struct CachedResponse: Sendable, Hashable, Codable {
    /// The request URL this answers (the cache key), without a fragment.
    public var url: String
    /// The HTTP status: 200 for an image, or a redirect's (301, 308 …), which are cached too.
    public var status: Int
    /// Header fields by lowercased name; only those in ``keptFields``.
    public var fields: [String: [String]]
    /// When the request was sent and the response received, in ms since 1970 (RFC 9111
    /// section 4.2.3's request_time and response_time).
    public var requestTime: Int64
    /// When the response was received, in ms since 1970 (RFC 9111's response_time).
    public var responseTime: Int64
    /// The body as received: an image's bytes, checked against their SHA-256 whenever the entry is
    /// read back from disk.
    public var body: [UInt8]

    /// The fields kept: those RFC 9111 needs to compute freshness and to revalidate, plus the
    /// type and the redirect target. Cookies and the rest are never written to disk.
    public static let keptFields: Set<String> = [
        "cache-control", "expires", "date", "age", "etag", "last-modified", "content-type", "location", "vary",
    ]

    /// A response to keep; fields other than ``keptFields`` are dropped here, so they never reach
    /// the disk.
    public init(url: String, status: Int, fields: [String: [String]], requestTime: Int64, responseTime: Int64,
                body: [UInt8]) {
        self.url = url
        self.status = status
        self.fields = fields.filter { Self.keptFields.contains($0.key) }
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.body = body
    }

    /// The first value of the field `name` (lowercased), or nil.
    public func field(_ name: String) -> String? { fields[name]?.first }

    /// The response's `Cache-Control` directives, parsed.
    public var cacheControl: CacheControl { CacheControl(fields["cache-control"] ?? []) }
    /// The `ETag` to revalidate with (`If-None-Match`).
    public var etag: String? { field("etag") }
    /// The `Last-Modified` date as sent: the validator when there is no ETag, and the image's date.
    public var lastModified: String? { field("last-modified") }

    /// Updates the stored fields from a 304's (RFC 9111 section 4.3.4): the new values replace
    /// the old, and the times become the revalidation's.
    public mutating func refresh(with fields: [String: [String]], requestTime: Int64, responseTime: Int64) {
        for (name, values) in fields where Self.keptFields.contains(name) && name != "content-type" {
            self.fields[name] = values
        }
        // A 304 without Age must not keep the old one: the response is new.
        if fields["age"] == nil { self.fields["age"] = nil }
        self.requestTime = requestTime
        self.responseTime = responseTime
    }
}
