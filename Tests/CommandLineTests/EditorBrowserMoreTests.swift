import Foundation
import GalleryTestSupport
import Testing

/// More of the gallery editor in a real headless Chromium, used as a person would: image files
/// and links dropped from outside the page (two files landing in the order dropped, a loopback
/// server's images, one that fails, a WebP refused by name), a move and a copy between two
/// galleries side by side, the detail view's paging and a download, the same without a mouse (M and
/// C, the file chooser, Shift+arrows), a save that fails and then succeeds, a virtualised grid of
/// 2,000 images, gallery and image files named with markup, duplicate and sort, an external `imagegallery add`
/// and an external change during unsaved edits (a conflict, merged), rename, delete to the Trash
/// and restore, a CBZ import, and axe-core on the browser, gallery and detail pages. Every step is
/// checked on disk with `imagegallery list --json` and `info --json`
/// (Tests/Browser/check-editor-more.py, with its scenarios in Tests/Browser/editor_more_scenarios.py
/// and editor_more_library.py).
@Suite("Editor in the browser, more")
struct EditorBrowserMoreTests {
    static let checker = TestPaths.repository + "/Tests/Browser/check-editor-more.py"
    static let artifacts = TestPaths.repository + "/.build/test-artifacts/editor-more"

    /// What the browser check prints.
    struct EditorCheck: Decodable {
        struct Step: Decodable {
            var name: String
            var ok: Bool
            var detail: String
        }

        var ok: Bool
        var failures: [String]
        var steps: [Step]
        var screenshots: [String]
        var console: [String]?
        var editorExit: Int?
        var error: String?
    }

    /// A machine without Chromium or axe-core fails the test: `make test` installs them (scripts/install-deps test).
    @Test func aPersonDropsMovesDownloadsImportsAndResolvesAConflictInChromiumAndEveryChangeReachesTheDisk() async throws {
        try #require(Subprocess.which("chromium") != nil,
                     "chromium is not installed: run scripts/install-deps test (make test does), then run the tests again")
        let binary = try TestPaths.binary()
        let editor = try TestPaths.editor()
        let arguments = [Self.checker, "--imagegallery", binary, "--editor", editor,
                         "--fixtures", TestPaths.fixture("images"), "--artifacts", Self.artifacts]
        let result = try await Blocking.run { try Subprocess.run("/usr/bin/python3", arguments) }
        let check = try #require(try? JSONDecoder().decode(EditorCheck.self, from: result.stdoutData),
                                 "the editor check printed no result (status \(result.status)): \(result.stdout) \(result.stderr)")
        #expect(result.status != 2, "the editor check could not run: \(check.error ?? "") \(result.stderr)")
        #expect(result.status == 0 && check.ok, "\(check.failures.count) failed:\n\(check.failures.joined(separator: "\n"))")
        #expect(check.failures.isEmpty == check.ok)

        // Every scenario ran and passed: none is skipped on the quiet.
        let steps = Dictionary(check.steps.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for scenario in ["browser opens", "drop files", "drop files in order", "drop links", "drop failing link", "drop webp",
                         "move and copy beside", "detail paging", "download", "keys move and copy beside", "add by file chooser",
                         "detail keys pan", "save fails then succeeds", "large gallery virtualised", "hostile file names", "duplicate and sort", "external add", "rename", "trash and restore",
                         "import cbz", "accessibility", "conflict merge", "screenshots saved", "no console errors"] {
            let step = steps[scenario]
            #expect(step != nil, "the scenario \(scenario) did not run")
            #expect(step?.ok == true, "\(scenario): \(step?.detail ?? "")")
        }
        #expect(check.editorExit == 0, "the editor's exit status")

        // The screenshots of the detail view and of two galleries side by side, kept for a person to look at.
        for name in ["editor-detail.png", "editor-beside.png"] {
            let path = Self.artifacts + "/" + name
            #expect(check.screenshots.contains(path), "\(name) was not saved")
            #expect(try WebGalleryTests.pngSize(path).map { [$0.width, $0.height] } == [1280, 900], "\(name)")
        }
    }
}
