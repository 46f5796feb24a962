/// Why one URL gave no image. The description names the URL and the reason in one line.
public struct FetchFailure: Error, Sendable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        case invalidURL
        case unsupportedScheme(String)
        /// Offline policy, and nothing stored for the URL.
        case notInCache
        case connectionFailed(String)
        case connectTimedOut(Duration)
        case transferTimedOut(Duration)
        case tooManyRedirects(Int)
        case redirectLoop([String])
        case badRedirect(String)
        case httpStatus(Int, String, attempts: Int)
        case retryWaitTooLong(Int, seconds: Int64)
        case notAnImageType(String?)
        /// The bytes are not what the Content-Type says (an HTML error page served as JPEG).
        case typeMismatch(declared: String, found: String)
        case tooLarge(limit: Int)
        case badImage(String)
        /// The image was fetched but could not be kept (the disk is full, say).
        case notKept(String)
    }

    public var url: String
    public var reason: Reason

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

    public var description: String { "\(url): \(message)" }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? "\(seconds) s" : String(format: "%.1f s", Double(seconds) + Double(attoseconds) / 1e18)
    }
}

import GalleryFormat
import Foundation
