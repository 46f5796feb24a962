import GalleryTestSupport
import Testing

/// How the editor looks (issue 30): every view (the document browser, a gallery of portrait and
/// landscape photos, the detail view, a drop in progress, a refused drop's message) in the light
/// and the dark theme, at 1280 × 900 and at a phone's 390 × 844, with the justified rows checked
/// at both sizes, the theme checked from the page's own colours, the message checked to be in view,
/// and a move checked to animate (and not to with prefers-reduced-motion); then Firefox ESR over
/// WebDriver BiDi, headless, with the document browser, the gallery and the detail view in both
/// themes at both sizes and the same layout checks (Tests/Browser/check-editor-looks.py). The 1280-pixel screenshots are the ones in docs/screenshots.
@Suite("Editor looks")
struct EditorLooksTests {
    static let views = ["browser", "gallery", "detail", "drop", "message"]

    @Test func everyViewInBothThemesAtADesktopsAndAPhonesSize() async throws {
        let artifacts = TestPaths.repository + "/.build/test-artifacts/editor-looks"
        try await EditorBrowserCheck.run(
            "check-editor-looks.py", artifacts: artifacts,
            scenarios: ["light at 1280×900", "light at 390×844", "dark at 1280×900", "dark at 390×844",
                        "Firefox: light", "Firefox: dark"],
            screenshots: Self.views.flatMap { ["\($0)-light-1280.png", "\($0)-dark-1280.png"] })
        for view in Self.views {
            for theme in ["light", "dark"] {
                let path = artifacts + "/\(view)-\(theme)-390.png"
                #expect(try PNGBytes.size(ofFile: path).map { [$0.width, $0.height] } == [390, 844], "\(path)")
            }
        }
    }
}
