import GalleryTestSupport
import Testing

/// The editor marks the photos that carry a location or identity fields with a named badge and
/// says how many do; "Remove location…" is one edit that Undo takes back, and "Share a copy…"
/// writes a gallery file or a web gallery beside the gallery without them; exiftool is the
/// judge on disk, in headless Chromium (with axe-core) and in Firefox ESR (issue 32;
/// Tests/Browser/check-editor-privacy.py).
@Suite("Editor privacy in browsers")
struct EditorPrivacyBrowserTests {
    @Test func badgesRemovalAndSharedCopiesInBothBrowsers() async throws {
        let artifacts = TestPaths.repository + "/.build/test-artifacts/editor-privacy"
        let scenarios = ["badges", "dialog by keyboard", "remove location and undo", "share a gallery file", "share a web gallery"]
        try await EditorBrowserCheck.run(
            "check-editor-privacy.py", artifacts: artifacts,
            scenarios: ["Chromium", "Firefox"].flatMap { browser in scenarios.map { "\(browser): \($0)" } }
                + ["Chromium: axe-core", "Chromium: no console error", "Firefox: the editor's exit"],
            screenshots: ["chromium", "firefox"].flatMap { ["privacy-badges-\($0).png", "privacy-dialog-\($0).png"] })
    }
}
