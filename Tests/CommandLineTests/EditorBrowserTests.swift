import Foundation
import GalleryTestSupport
import Testing

/// The gallery editor in a real headless Chromium, used as a person would: the document browser,
/// reorder and trash by real drags, the keyboard, captions and title in place, multi-select,
/// undo and redo, hostile text, a new gallery, and the server stopping once the page is closed.
/// Every step is checked on disk with `imagegallery list --json` and `info --json`
/// (Tests/Browser/check-editor.py, with its scenarios in Tests/Browser/editor_scenarios.py).
@Suite("Editor in the browser")
struct EditorBrowserTests {
    static let checker = TestPaths.repository + "/Tests/Browser/check-editor.py"
    static let artifacts = TestPaths.repository + "/.build/test-artifacts/editor"

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

    /// A machine without Chromium fails the test: `make test` installs it (scripts/install-deps test).
    @Test func aPersonEditsAGalleryInChromiumAndEveryEditReachesTheDisk() async throws {
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

        // Every scenario ran: none is skipped on the quiet.
        let names = Set(check.steps.map(\.name))
        for scenario in ["browser lists galleries", "open gallery", "reorder by drag", "keyboard move", "caption", "title edit",
                         "trash by drag", "multi select delete", "undo redo", "hostile text", "back to browser",
                         "new gallery", "closing", "no console errors"] {
            #expect(names.contains(scenario), "the scenario \(scenario) did not run")
        }
        #expect(check.editorExit == 0, "the editor's exit status")

        // The screenshots of the document browser and of a gallery, kept for a person to look at.
        for name in ["editor-browser.png", "editor-gallery.png"] {
            let path = Self.artifacts + "/" + name
            #expect(check.screenshots.contains(path), "\(name) was not saved")
            #expect(try WebGalleryTests.pngSize(path).map { [$0.width, $0.height] } == [1280, 900], "\(name)")
        }
    }
}
