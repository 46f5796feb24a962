import GalleryImaging

/// Where a fetch may take its answer from, after URLRequest's cache policies.
public enum CachePolicy: String, Sendable, CaseIterable, Codable {
    /// Fresh cached data is used as is; stale data is revalidated with the server.
    case `default`
    /// The server is always asked, without validators; the answer is still stored.
    case reload
    /// Only the cache is used, fresh or stale; a miss fails.
    case offline
}

/// The bounds and behaviour of fetching. Every URL is hostile until its bytes have passed.
public struct FetchOptions: Sendable {
    /// Redirects followed per URL; a loop fails at once.
    public var maxRedirects = 5
    /// Time to establish a connection (TCP, and TLS for https).
    public var connectTimeout: Duration = .seconds(10)
    /// Time for one whole attempt: connecting, the response head and every byte of the body.
    /// A server dripping a byte a second cannot hold a fetch past it.
    public var transferTimeout: Duration = .seconds(60)
    /// The largest image accepted, counted while the body streams in.
    public var maxImageBytes = 50_000_000
    /// Further attempts after a 429 or 5xx answer (or a connection the server dropped).
    public var maxRetries = 3
    /// The first backoff; it doubles with each retry, with jitter, unless the server sends
    /// `Retry-After`.
    public var retryDelay: Duration = .milliseconds(500)
    /// The longest wait accepted from a `Retry-After`; a server asking for more fails the URL.
    public var longestRetryWait: Duration = .seconds(60)
    /// Fetches in flight at once.
    public var concurrency = 4
    /// Whether a fetch may answer from the cache, must ask the server, or must not ask it.
    public var cachePolicy: CachePolicy = .default
    /// Bounds on the image the header describes, as for any image the toolkit reads.
    public var imageLimits = DecodeLimits()
    /// The `User-Agent` sent with every request: the toolkit and its version, so that a server's
    /// owner can tell what is fetching their images.
    public var userAgent = "imagegallery/\(GalleryFetchVersion.string)"

    /// The default bounds: 5 redirects, 10 s to connect, 60 s a transfer, 50 MB an image, 3
    /// retries, 4 fetches at once; change a field to adjust one.
    public init() {}
}

enum GalleryFetchVersion {
    static let string = "0.2.0"
}
