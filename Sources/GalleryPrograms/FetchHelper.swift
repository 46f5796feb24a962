import GallerySystem

/// Fetching runs in a separate executable, `imagegallery-fetch`, as git runs
/// `git-remote-https`: the HTTP stack (swift-nio, AsyncHTTPClient, BoringSSL) is then not in
/// the `imagegallery` binary that every open, validation and thumbnail starts, which costs
/// them start-up time (measured in Benchmarks/RESULTS.md) and would put network code in the
/// process that reads hostile downloads.
package enum FetchHelper {
    package static let name = "imagegallery-fetch"
    /// Names the helper to use instead of looking for it (packagers, tests).
    package static let environmentVariable = "IMAGEGALLERY_FETCH_HELPER"

    /// How the helper is found (see ``CompanionProgram/locate(environment:)``).
    package static let program = CompanionProgram(name: name, environmentVariable: environmentVariable, role: "the fetch helper")

    /// Whether a command-line item is meant as a URL: anything with a scheme and `://`, so
    /// that `ftp://…` gets a clear refusal from the fetcher rather than "no such file".
    package static func looksLikeURL(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        return text[colon...].hasPrefix("://") && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}
