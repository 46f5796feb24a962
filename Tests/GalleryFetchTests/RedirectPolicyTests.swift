@testable import GalleryFetch
import Testing

/// What a redirect may lead to (Specs/fetching.md): a server cannot turn a protected transfer
/// into one anyone on the path can alter.
@Suite("Redirect policy")
struct RedirectPolicyTests {
    @Test func httpsToHTTPIsRefused() {
        #expect(throws: FetchFailure.self) {
            try ImageFetcher.checkedRedirect(from: "https://example.org/a.jpg", to: "http://example.org/a.jpg",
                                             reportedAs: "https://example.org/a.jpg")
        }
    }

    @Test(arguments: [("https://example.org/a.jpg", "https://cdn.example.org/a.jpg"),
                      ("http://example.org/a.jpg", "https://example.org/a.jpg"),
                      ("http://example.org/a.jpg", "http://example.org/b.jpg")])
    func otherRedirectsAreFollowed(from: String, to: String) throws {
        #expect(try ImageFetcher.checkedRedirect(from: from, to: to, reportedAs: from) == to)
    }

    @Test func aRedirectToAnotherSchemeIsRefused() {
        #expect(throws: FetchFailure.self) {
            try ImageFetcher.checkedRedirect(from: "https://example.org/a.jpg", to: "file:///etc/passwd",
                                             reportedAs: "https://example.org/a.jpg")
        }
    }
}
