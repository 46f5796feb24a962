import Foundation
import GalleryTestSupport
import Testing

/// The web gallery's slideshow (issue 33), in headless Chromium and Firefox ESR from `file://`
/// (Tests/Browser/check-web-slideshow.py): order by pixels, pause, arrows, a click, Escape, a deep
/// link across a reload, reduced motion, axe-core, and the sharing markup.
extension WebGalleryTests {
    /// What check-web-slideshow.py prints.
    struct SlideshowCheck: Decodable {
        struct Step: Decodable {
            var name: String
            var ok: Bool
            var detail: String
        }

        var ok: Bool
        var failures: [String]
        var steps: [Step]
        var screenshots: [String]
        var error: String?
    }

    static let slideshowScenarios = [
        "Chromium: markup", "Chromium: order from the third image", "Chromium: pause, arrows and a click",
        "Chromium: Escape returns to the image", "Chromium: a deep link survives a reload", "Chromium: reduced motion",
        "Chromium: axe-core", "Firefox: plays in order with the keyboard",
    ]

    /// A machine without Chromium fails the test: `make test` installs it (scripts/install-deps test),
    /// and Firefox ESR, whose absence fails its scenario.
    @Test func theSlideshowPlaysInOrderAndIsKeyboardAccessibleInChromiumAndFirefox() async throws {
        try #require(Subprocess.which("chromium") != nil,
                     "chromium is not installed: run scripts/install-deps test (make test does), then run the tests again")
        let artifacts = Self.artifacts + "/web-slideshow"
        let arguments = [TestPaths.repository + "/Tests/Browser/check-web-slideshow.py", "--imagegallery", try TestPaths.binary(),
                         "--artifacts", artifacts]
        let result = try await Blocking.run { try Subprocess.run("/usr/bin/python3", arguments) }
        let check = try #require(try? JSONDecoder().decode(SlideshowCheck.self, from: result.stdoutData),
                                 "check-web-slideshow.py printed no result (status \(result.status)): \(result.stdout) \(result.stderr)")
        #expect(result.status != 2, "check-web-slideshow.py could not run: \(check.error ?? "") \(result.stderr)")
        #expect(result.status == 0 && check.ok, "\(check.failures.count) failed:\n\(check.failures.joined(separator: "\n"))")
        // Every scenario ran and passed: none is skipped on the quiet.
        let steps = Dictionary(check.steps.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for scenario in Self.slideshowScenarios {
            #expect(steps[scenario] != nil, "the scenario \(scenario) did not run")
            #expect(steps[scenario]?.ok == true, "\(scenario): \(steps[scenario]?.detail ?? "")")
        }
        for name in ["slideshow-chromium.png", "slideshow-firefox.png"] {
            #expect(check.screenshots.contains(artifacts + "/" + name), "\(name) was not saved")
        }
    }
}
