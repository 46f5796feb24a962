import GallerySystem

/// Fetching runs in a separate executable, `imagegallery-fetch`, as git runs
/// `git-remote-https`: the HTTP stack (swift-nio, AsyncHTTPClient, BoringSSL) is then not in
/// the `imagegallery` binary that every open, validation and thumbnail starts, which costs
/// them start-up time (measured in Benchmarks/RESULTS.md) and would put network code in the
/// process that reads hostile downloads.
public enum FetchHelper {
    public static let name = "imagegallery-fetch"
    /// Names the helper to use instead of looking for it (packagers, tests).
    public static let environmentVariable = "IMAGEGALLERY_FETCH_HELPER"

    /// Where the helper is: `$IMAGEGALLERY_FETCH_HELPER`, else beside this executable (a
    /// build folder), else in `../libexec/imagegallery/` from it (an installation).
    public static func locate(environment: [String: String]) -> Result<String, LocateFailure> {
        if let given = environment[environmentVariable], !given.isEmpty {
            return GalleryFileSystem.isExecutable(given) ? .success(given) : .failure(LocateFailure(tried: [given]))
        }
        guard let executable = currentExecutable() else { return .failure(LocateFailure(tried: [])) }
        let folder = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let candidates = [folder + "/" + name, folder + "/../libexec/imagegallery/" + name]
        for candidate in candidates where GalleryFileSystem.isExecutable(candidate) { return .success(candidate) }
        return .failure(LocateFailure(tried: candidates))
    }

    public struct LocateFailure: Error, Sendable, CustomStringConvertible {
        public var tried: [String]
        public var description: String {
            "the fetch helper \(FetchHelper.name) was not found" + (tried.isEmpty ? "" : " (looked for \(tried.joined(separator: " and ")))")
        }
    }

    static func currentExecutable() -> String? { CurrentProcess.executablePath() }

    /// Whether a command-line item is meant as a URL: anything with a scheme and `://`, so
    /// that `ftp://…` gets a clear refusal from the fetcher rather than "no such file".
    public static func looksLikeURL(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        return text[colon...].hasPrefix("://") && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}
