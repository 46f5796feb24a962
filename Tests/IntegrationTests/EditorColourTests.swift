import GalleryTestSupport
import Testing

/// A profiled photo (ProPhoto RGB in a JPEG, Display P3 in a PNG) shows in the same colour in the
/// editor's grid, whose rendition the editor converted to sRGB, and in its detail view, whose
/// original the browser colour-manages, in headless Chromium and in Firefox ESR: pixels of both
/// sampled from screenshots, within CIEDE2000 2.0 of each other and of Little CMS's colour
/// (issue 31, item 5; Tests/Browser/check-editor-colour.py).
@Suite("Editor colour")
struct EditorColourTests {
    @Test func theGridAndTheDetailViewShowAProfiledPhotoAlike() async throws {
        let artifacts = TestPaths.repository + "/.build/test-artifacts/editor-colour"
        try await EditorBrowserCheck.run(
            "check-editor-colour.py", artifacts: artifacts,
            scenarios: ["Chromium: prophoto.jpg", "Chromium: displayp3.png", "Firefox"],
            screenshots: ["prophoto", "displayp3"].flatMap { photo in
                ["chromium", "firefox"].flatMap { ["colour-grid-\(photo)-\($0).png", "colour-detail-\(photo)-\($0).png"] }
            })
    }
}
