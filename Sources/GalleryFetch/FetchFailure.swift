/// Why one URL gave no image. The description names the URL and the reason in one line.
public struct FetchFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, with what the message needs; ``code`` names each for `--json`, and a
    /// batch fetch reports one per URL without stopping the others.
    public enum Reason: Sendable, Hashable {
        /// The text is not a URL a gallery may record as an image's source (ASCII, with anything
        /// else percent-encoded), or it has no scheme or no host.
        case invalidURL
        /// A scheme other than http and https (named): `file:` and the rest are never fetched, so a
        /// seed JSON or a batch cannot make the fetcher read local files.
        case unsupportedScheme(String)
        /// Offline policy, and nothing stored for the URL.
        case notInCache
        /// No answer could be had from the server: name resolution, a refused or dropped connection, a
        /// TLS failure, or a cancelled fetch (the detail says which).
        case connectionFailed(String)
        /// No connection within ``FetchOptions/connectTimeout`` (the limit given).
        case connectTimedOut(Duration)
        /// The whole attempt took longer than ``FetchOptions/transferTimeout`` (the limit given): a
        /// server that drips its bytes is cut off.
        case transferTimedOut(Duration)
        /// More redirects than ``FetchOptions/maxRedirects`` (the limit given).
        case tooManyRedirects(Int)
        /// A redirect back to a URL already visited; the chain of URLs, ending with the repeated one.
        case redirectLoop([String])
        /// A redirect that cannot be followed: no `Location`, one that is not a URL, or one from https
        /// down to http.
        case badRedirect(String)
        /// An answer other than success: the status code, its reason phrase, and how many attempts
        /// were made (retries included) before giving up.
        case httpStatus(Int, String, attempts: Int)
        /// A 429 or 5xx whose `Retry-After` asks for a longer wait (in seconds) than
        /// ``FetchOptions/longestRetryWait``: the status, and the wait asked for.
        case retryWaitTooLong(Int, seconds: Int64)
        /// Served with a `Content-Type` (given, or nil when there was none) that is not an image type
        /// the gallery format takes.
        case notAnImageType(String?)
        /// The bytes are not what the Content-Type says (an HTML error page served as JPEG).
        case typeMismatch(declared: String, found: String)
        /// The body passed ``FetchOptions/maxImageBytes`` (the limit given) and the transfer was cut
        /// off there, so a huge answer costs no more than the limit.
        case tooLarge(limit: Int)
        /// The bytes start like an image but are not a usable one: the header does not parse, or
        /// declares a size past ``FetchOptions/imageLimits``.
        case badImage(String)
        /// The image was fetched but could not be kept (the disk is full, say).
        case notKept(String)
    }

    /// The URL as the caller gave it (not where redirects led), so that the failure can be matched
    /// with the input.
    public var url: String
    /// Why it gave no image.
    public var reason: Reason

    /// The failure of `url` for `reason`.
    public init(url: String, reason: Reason) {
        self.url = url
        self.reason = reason
    }

    /// A short machine-readable name for `--json`.
    public var code: String {
        switch reason {
        case .invalidURL: "invalid-url"
        case .unsupportedScheme: "unsupported-scheme"
        case .notInCache: "not-in-cache"
        case .connectionFailed: "connection-failed"
        case .connectTimedOut: "connect-timeout"
        case .transferTimedOut: "timeout"
        case .tooManyRedirects: "too-many-redirects"
        case .redirectLoop: "redirect-loop"
        case .badRedirect: "bad-redirect"
        case .httpStatus: "http-status"
        case .retryWaitTooLong: "retry-after-too-long"
        case .notAnImageType: "not-an-image-type"
        case .typeMismatch: "type-mismatch"
        case .tooLarge: "too-large"
        case .badImage: "bad-image"
        case .notKept: "not-kept"
        }
    }

    /// The reason in words, without the URL: what a report prints beside the URL.
    public var message: String {
        switch reason {
        case .invalidURL: "not a valid URL"
        case .unsupportedScheme(let scheme): "the \(scheme): scheme is not fetched (only http and https)"
        case .notInCache: "not in the cache, and the cache policy is offline"
        case .connectionFailed(let detail): "cannot connect: \(detail)"
        case .connectTimedOut(let limit): "no connection within \(Self.seconds(limit))"
        case .transferTimedOut(let limit): "the transfer did not finish within \(Self.seconds(limit))"
        case .tooManyRedirects(let limit): "more than \(limit) redirects"
        case .redirectLoop(let chain): "redirect loop: \(chain.joined(separator: " -> "))"
        case .badRedirect(let detail): "bad redirect: \(detail)"
        case .httpStatus(let code, let phrase, let attempts):
            "HTTP \(code) \(phrase)" + (attempts > 1 ? " (after \(attempts) attempts)" : "")
        case .retryWaitTooLong(let code, let seconds): "HTTP \(code), and the server asks to retry after \(seconds) s"
        case .notAnImageType(let type): "served as \(type ?? "no Content-Type"), not an image type the format takes "
            + "(\(MediaType.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .typeMismatch(let declared, let found): "served as \(declared) but the bytes are \(found)"
        case .tooLarge(let limit): "larger than the \(limit)-byte limit (the transfer was cut off)"
        case .badImage(let detail): "not a usable image: \(detail)"
        case .notKept(let detail): "fetched, but it could not be kept: \(detail)"
        }
    }

    /// `url: message`, one line.
    public var description: String { "\(url): \(message)" }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? "\(seconds) s" : String(format: "%.1f s", Double(seconds) + Double(attoseconds) / 1e18)
    }
}

import GalleryFormat
import GalleryImageHeaders
import Foundation
