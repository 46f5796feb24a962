import GalleryTestSupport
import Testing

/// The gallery editor in a real headless Chromium, used as a person would: the document browser,
/// reorder and trash by real drags, the keyboard (a focus a person sees on the file buttons, Enter
/// in the title field keeping the focus), captions and title in place, multi-select, undo and
/// redo (also after the page reloads), hostile text, a new gallery, and the server stopping once
/// the page is closed.
/// Every step is checked on disk with `imagegallery list --json` and `info --json`
/// (Tests/Browser/check-editor.py, with its scenarios in Tests/Browser/editor_scenarios.py).
@Suite("Editor in the browser")
struct EditorBrowserTests {
    @Test func aPersonEditsAGalleryInChromiumAndEveryEditReachesTheDisk() async throws {
        try await EditorBrowserCheck.run(
            "check-editor.py", artifacts: TestPaths.repository + "/.build/test-artifacts/editor",
            scenarios: ["browser lists galleries", "import button focus", "open gallery", "add button focus", "reorder by drag",
                        "keyboard move", "touch reorder", "justified layout", "caption", "title edit",
                        "trash by drag", "multi select delete", "undo redo", "undo after reload", "hostile text", "back to browser",
                        "new gallery", "closing", "no console errors"],
            screenshots: ["editor-browser.png", "editor-gallery.png"])
    }
}
