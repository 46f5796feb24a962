import GalleryFetch
import GalleryFormat
import Testing

/// The category of each reason a URL gave no image, and so what it would be as a command's only
/// failure (its exit status) or a request's (its HTTP status): 500 only for an image that
/// could not be kept (I/O, the server's own failure).
@Suite("Error categories: fetch failures")
struct FetchFailureCategoryTests {
    static let reasons: [(FetchFailure.Reason, exit: Int32, http: Int)] = [
        (.invalidURL, 64, 422), (.unsupportedScheme("ftp"), 64, 422), (.notInCache, 66, 404),
        (.connectionFailed("refused"), 69, 503), (.connectTimedOut(.seconds(10)), 69, 503),
        (.transferTimedOut(.seconds(60)), 69, 503), (.tooManyRedirects(10), 69, 503), (.redirectLoop(["a", "b"]), 69, 503),
        (.badRedirect("no Location"), 69, 503), (.httpStatus(404, "Not Found", attempts: 1), 66, 404),
        (.httpStatus(410, "Gone", attempts: 1), 66, 404), (.httpStatus(503, "Service Unavailable", attempts: 3), 69, 503),
        (.retryWaitTooLong(429, seconds: 3600), 69, 503), (.notAnImageType("text/html"), 65, 422),
        (.typeMismatch(declared: "image/jpeg", found: "HTML"), 65, 422), (.tooLarge(limit: 100), 65, 422),
        (.badImage("truncated"), 65, 422), (.notKept("no space"), 74, 500),
    ]

    @Test func everyReasonHasItsCategory() {
        for (reason, exit, http) in Self.reasons {
            let failure = FetchFailure(url: "https://example.org/a.jpg", reason: reason)
            #expect(ErrorCategory(of: failure).exitStatus == exit, "\(reason)")
            #expect(ErrorCategory(of: failure).httpStatus == http, "\(reason)")
        }
    }
}
