import Foundation
import GalleryTestSupport
import Testing

/// `make demo` is the first command of the quick start. On a fresh machine it took 7 min 57 s,
/// 3 min 45 s of it building the editor's server (Hummingbird, service-lifecycle, swift-crypto),
/// which the demo never runs (issue 28, item 13). Its plan, as `make -n` prints it, builds only
/// the programs the demo runs and ends by saying how to start the editor.
@Suite("make demo")
struct DemoTargetTests {
    @Test func buildsOnlyWhatTheDemoRunsAndSaysHowToStartTheEditor() throws {
        let plan = try Subprocess.run("/usr/bin/make", ["-n", "demo"], in: TestPaths.repository)
        try #require(plan.status == 0, "make -n demo: \(plan.stderr)")
        let lines = plan.stdout.split(separator: "\n").map(String.init)
        let builds = lines.filter { $0.hasPrefix("swift build") }
        #expect(!builds.isEmpty, "make demo builds nothing:\n\(plan.stdout)")
        for build in builds {
            let words = build.split(separator: " ").map(String.init)
            let product = words.firstIndex(of: "--product").map { words[$0 + 1] }
            #expect(product == "imagegallery" || product == "imagegallery-fetch",
                    "make demo builds more than the programs it runs: \(build)")
        }
        let runs = lines.filter { !$0.hasPrefix("echo") && !$0.hasPrefix("swift build") }
        #expect(!runs.contains { $0.contains("imagegallery-editor") || $0.contains(" edit ") },
                "make demo runs the editor:\n\(plan.stdout)")
        let told = lines.filter { $0.hasPrefix("echo") }.joined(separator: "\n")
        #expect(told.contains("--product imagegallery-editor") && told.contains("edit .build-demo"),
                "make demo does not say how to build and start the editor:\n\(told)")
    }
}
