import Foundation
import GalleryTestSupport
import Testing

/// A run of one of the editor's browser checks (Tests/Browser/check-editor*.py) and what it
/// printed, with the expectations every such run must meet: it ran, every check passed, each
/// scenario named ran and passed, the editor exited 0, and the screenshots named are 1280×900.
struct EditorBrowserCheck: Decodable {
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

    /// Runs `script` on the built binaries and the fixture images, saving screenshots into
    /// `artifacts`. A machine without Chromium fails: `make test` installs it (scripts/install-deps test).
    static func run(_ script: String, artifacts: String, scenarios: [String], screenshots: [String]) async throws {
        try #require(Subprocess.which("chromium") != nil,
                     "chromium is not installed: run scripts/install-deps test (make test does), then run the tests again")
        let arguments = [TestPaths.repository + "/Tests/Browser/" + script, "--imagegallery", try TestPaths.binary(),
                         "--editor", try TestPaths.editor(), "--fixtures", TestPaths.fixture("images"), "--artifacts", artifacts]
        let result = try await Blocking.run { try Subprocess.run("/usr/bin/python3", arguments) }
        let check = try #require(try? JSONDecoder().decode(EditorBrowserCheck.self, from: result.stdoutData),
                                 "\(script) printed no result (status \(result.status)): \(result.stdout) \(result.stderr)")
        #expect(result.status != 2, "\(script) could not run: \(check.error ?? "") \(result.stderr)")
        #expect(result.status == 0 && check.ok, "\(check.failures.count) failed:\n\(check.failures.joined(separator: "\n"))")
        #expect(check.failures.isEmpty == check.ok)

        // Every scenario ran and passed: none is skipped on the quiet.
        let steps = Dictionary(check.steps.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for scenario in scenarios {
            let step = steps[scenario]
            #expect(step != nil, "the scenario \(scenario) did not run")
            #expect(step?.ok == true, "\(scenario): \(step?.detail ?? "")")
        }
        #expect(check.editorExit == 0, "the editor's exit status")

        // The screenshots, kept for a person to look at.
        for name in screenshots {
            let path = artifacts + "/" + name
            #expect(check.screenshots.contains(path), "\(name) was not saved")
            #expect(try PNGBytes.size(ofFile: path).map { [$0.width, $0.height] } == [1280, 900], "\(name)")
        }
    }
}
