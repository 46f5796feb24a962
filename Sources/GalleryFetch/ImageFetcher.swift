import AsyncHTTPClient
import Foundation
import GalleryFormat
import NIOCore

/// Fetches images from http and https URLs through an ``HTTPCache``: redirects followed by
/// hand (so that each hop is checked, cached and counted), retries with backoff, and every
/// response checked before it is accepted or stored.
///
/// Call ``shutdown()`` when done; the client's connections are closed there.
public final class ImageFetcher: Sendable {
    /// The bounds every fetch of this fetcher is held to.
    public let options: FetchOptions
    /// The HTTP cache answers are taken from and stored in; nil to fetch every time and keep
    /// nothing.
    public let cache: HTTPCache?
    let client: HTTPClient

    /// A fetcher with these options, reading and filling `cache`. It opens an HTTP client, which
    /// ``shutdown()`` must close.
    public init(options: FetchOptions = FetchOptions(), cache: HTTPCache?) {
        self.options = options
        self.cache = cache
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .nanoseconds(Int64(options.connectTimeout.nanoseconds)),
                           read: .nanoseconds(Int64(options.transferTimeout.nanoseconds))),
            // Images are compressed already; and decompression would turn the size cap into
            // a cap on compressed bytes.
            decompression: .disabled)
        configuration.connectionPool = .init(idleTimeout: .seconds(30),
                                             concurrentHTTP1ConnectionsPerHostSoftLimit: max(options.concurrency, 1))
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Closes the client and its connections; call it once, when no fetch is in flight any more.
    public func shutdown() async {
        try? await client.shutdown()
    }

    /// Fetches and checks one image.
    public func fetch(_ url: String) async throws -> FetchedImage {
        let requested = HTTPCache.key(for: url)
        var current = try Self.checkedURL(requested, reportedAs: url)
        var chain = [current]
        var bypassingCache = false
        while true {
            let (response, origin, storable) = try await respond(current, reportedAs: url, bypassingCache: bypassingCache)
            if [301, 302, 303, 307, 308].contains(response.status) {
                if storable { cache?.store(response) }
                guard let location = response.field("location") else {
                    throw FetchFailure(url: url, reason: .badRedirect("HTTP \(response.status) without a Location"))
                }
                guard let next = URL(string: location, relativeTo: URL(string: current))?.absoluteString else {
                    throw FetchFailure(url: url, reason: .badRedirect("Location \"\(location)\" is not a URL"))
                }
                let target = try Self.checkedRedirect(from: current, to: HTTPCache.key(for: next), reportedAs: url)
                if chain.contains(target) { throw FetchFailure(url: url, reason: .redirectLoop(chain + [target])) }
                guard chain.count <= options.maxRedirects else {
                    throw FetchFailure(url: url, reason: .tooManyRedirects(options.maxRedirects))
                }
                chain.append(target)
                current = target
                continue
            }
            guard (200 ..< 300).contains(response.status) else {
                throw FetchFailure(url: url, reason: .httpStatus(response.status, "", attempts: 1))
            }
            let image: FetchedImage
            do {
                image = try accept(url: url, finalURL: current, response: response, origin: origin)
            } catch where origin != .network {
                // A stored entry that checks out on disk but is not an acceptable image (written
                // by an older version, or by hand) is dropped, and the server asked again.
                cache?.remove(current)
                guard options.cachePolicy != .offline, !bypassingCache else { throw error }
                bypassingCache = true
                continue
            }
            if storable { cache?.store(response) }
            return image
        }
    }

    static func checkedURL(_ text: String, reportedAs url: String) throws -> String {
        // The URL is recorded as the image's source, so it must be what the format allows:
        // ASCII, with non-ASCII characters percent-encoded.
        guard GalleryImage.isValidSource(text), let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased() else {
            throw FetchFailure(url: url, reason: .invalidURL)
        }
        guard scheme == "http" || scheme == "https" else { throw FetchFailure(url: url, reason: .unsupportedScheme(scheme)) }
        guard let host = components.host, !host.isEmpty else { throw FetchFailure(url: url, reason: .invalidURL) }
        return text
    }

    /// A redirect's target, checked as a URL is, and refused when it leaves https for http: the
    /// user asked for a protected transfer, and a server (or whoever sits in front of it) must
    /// not be able to downgrade it to one anyone on the path can alter.
    static func checkedRedirect(from current: String, to target: String, reportedAs url: String) throws -> String {
        let checked = try checkedURL(target, reportedAs: url)
        if URLComponents(string: current)?.scheme?.lowercased() == "https",
           URLComponents(string: checked)?.scheme?.lowercased() == "http" {
            throw FetchFailure(url: url, reason: .badRedirect("from https to http (\(checked)) is refused"))
        }
        return checked
    }

    /// The answer for one hop: from the cache when the policy and freshness allow, else from
    /// the server (conditionally when a stale copy has a validator). Returns whether the
    /// answer should be stored once accepted.
    func respond(_ url: String, reportedAs original: String, bypassingCache: Bool = false) async throws
        -> (CachedResponse, FetchedImage.Origin, storable: Bool) {
        var conditional: CachedResponse?
        if options.cachePolicy != .reload, !bypassingCache, let cached = cache?.lookup(url) {
            if options.cachePolicy == .offline || cached.isFresh(now: Clock.nowMilliseconds()) {
                return (cached, .cache, false)
            }
            conditional = cached.hasValidator ? cached : nil
        } else if options.cachePolicy == .offline {
            throw FetchFailure(url: original, reason: .notInCache)
        }
        var headers: [(String, String)] = []
        if let conditional {
            if let etag = conditional.etag { headers.append(("If-None-Match", etag)) }
            if let modified = conditional.lastModified { headers.append(("If-Modified-Since", modified)) }
        }
        let exchange = try await exchangeRetrying(url, headers: headers, reportedAs: original)
        if exchange.status == 304, var cached = conditional {
            cached.refresh(with: exchange.fields, requestTime: exchange.requestTime, responseTime: exchange.responseTime)
            return (cached, .revalidated, true)
        }
        if !(200 ..< 400).contains(exchange.status) || exchange.status == 304 {
            throw FetchFailure(url: original, reason: .httpStatus(exchange.status, exchange.reasonPhrase, attempts: 1))
        }
        let response = CachedResponse(url: url, status: exchange.status, fields: exchange.fields,
                                      requestTime: exchange.requestTime, responseTime: exchange.responseTime,
                                      body: exchange.body)
        return (response, .network, true)
    }
}
