import GalleryTestSupport
import Testing

/// The editor's slideshow plays the gallery's images in its order (read from the screen: flat
/// colours sampled in the middle of each slide), from the image selected, as renditions at the
/// screen's size; pauses, pages by keys and clicks, fades only without prefers-reduced-motion,
/// passes axe-core, loads the original on Z, leaves on the image shown, follows a reorder; and
/// "Use as cover" reaches the file's manifest, undoably: in headless Chromium, and the show by
/// keyboard in Firefox ESR (issue 33; Tests/Browser/check-editor-slideshow.py).
@Suite("Editor slideshow in browsers")
struct EditorSlideshowBrowserTests {
    @Test func theSlideshowAndTheCoverInBothBrowsers() async throws {
        let chromium = ["play from the third image", "autoplay and pause", "arrows in the gallery's order", "click pages",
                        "reduced motion", "axe-core", "zoom to the original", "escape back on the image", "order after a reorder",
                        "use as cover", "no console error"]
        try await EditorBrowserCheck.run(
            "check-editor-slideshow.py", artifacts: TestPaths.repository + "/.build/test-artifacts/editor-slideshow",
            scenarios: chromium.map { "Chromium: \($0)" }
                + ["Firefox: start", "Firefox: the slideshow in order by keyboard", "Firefox: the editor's exit"],
            screenshots: ["slideshow-chromium.png", "slideshow-firefox.png"])
    }
}
