import GalleryTestSupport
import Testing

/// More of the gallery editor in a real headless Chromium, used as a person would: image files
/// and links dropped from outside the page (two files landing in the order dropped, a loopback
/// server's images, one that fails, a TIFF refused by name, a WebP, GIF, AVIF and HEIC each
/// kept as what it is, the HEIC shown through a JPEG rendition), a move and a copy between two
/// galleries side by side, the detail view's paging and a download, the same without a mouse (M and
/// C, the file chooser, Shift+arrows), a save that fails and then succeeds, a virtualised grid of
/// 10,000 images scrolled to its end, gallery and image files named with markup, duplicate and sort, an
/// external `imagegallery add` (its Read only notice gone once it is done) and an external change
/// during unsaved edits (a conflict, merged, its notice gone), rename, delete to the Trash
/// and restore, a CBZ import, and axe-core on the browser, gallery and detail pages. Every step is
/// checked on disk with `imagegallery list --json` and `info --json`
/// (Tests/Browser/check-editor-more.py, with its scenarios in Tests/Browser/editor_more_scenarios.py
/// and editor_more_library.py).
@Suite("Editor in the browser, more")
struct EditorBrowserMoreTests {
    @Test func aPersonDropsMovesDownloadsImportsAndResolvesAConflictInChromiumAndEveryChangeReachesTheDisk() async throws {
        try await EditorBrowserCheck.run(
            "check-editor-more.py", artifacts: TestPaths.repository + "/.build/test-artifacts/editor-more",
            scenarios: ["browser opens", "drop files", "drop files in order", "drop links", "drop failing link", "drop tiff", "drop every type",
                        "move and copy beside", "detail paging", "download", "keys move and copy beside", "add by file chooser",
                        "detail keys pan", "save fails then succeeds", "large gallery scrolls to its end", "large gallery virtualised",
                        "large gallery reuses cells", "large gallery opens from its kept look", "hostile file names",
                        "duplicate and sort", "external add", "rename", "trash and restore", "import cbz", "accessibility",
                        "conflict merge", "screenshots saved", "no console errors"],
            screenshots: ["editor-detail.png", "editor-beside.png"])
    }
}
