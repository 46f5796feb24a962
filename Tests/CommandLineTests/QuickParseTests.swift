import Foundation
import GalleryTestSupport
import Testing

/// The short commands' usual command lines skip the argument parser (QuickParse): each must
/// behave exactly as the parsed form, which a different argument order forces.
@Suite("Command lines parsed without the argument parser")
struct QuickParseTests {
    static let gallery = TestPaths.fixture("valid/all.imagegallery")

    @Test(arguments: [
        (["info", gallery], ["info", "--", gallery]),
        (["info", gallery, "--json"], ["info", "--json", gallery]),
        (["list", gallery], ["list", "--", gallery]),
        (["list", gallery, "--json"], ["list", "--json", gallery]),
        (["info", "/nonexistent.imagegallery"], ["info", "--", "/nonexistent.imagegallery"]),
    ])
    func theQuickFormMatchesTheParsedForm(quick: [String], parsed: [String]) async throws {
        let (a, b) = try await Blocking.run {
            (try Subprocess.imagegallery(quick), try Subprocess.imagegallery(parsed))
        }
        #expect(a.status == b.status)
        #expect(a.stdout == b.stdout)
        #expect(a.stderr == b.stderr)
    }

    @Test func renameQuickAndParsedGiveTheSameGallery() async throws {
        let directory = try TemporaryDirectory()
        let first = try directory.copy(TestPaths.fixture("valid/three.imagegallery"), as: "a.imagegallery")
        let second = try directory.copy(TestPaths.fixture("valid/three.imagegallery"), as: "b.imagegallery")
        let environment = ["XDG_STATE_HOME": directory.file("state")]
        let (a, b) = try await Blocking.run {
            (try Subprocess.imagegallery(["rename", first, "Renamed", "--json"], environment: environment),
             try Subprocess.imagegallery(["rename", "--json", "--wait", "30", second, "Renamed"], environment: environment))
        }
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        // The same edit; the files differ only in the time of the save.
        let (listA, listB, infoA) = try await Blocking.run {
            (try Subprocess.imagegallery(["list", "--json", first]), try Subprocess.imagegallery(["list", "--json", second]),
             try Subprocess.imagegallery(["info", "--json", first]))
        }
        #expect(listA.stdout.replacingOccurrences(of: "a.imagegallery", with: "b.imagegallery") == listB.stdout)
        #expect(infoA.stdout.contains(#""title":"Renamed""#), "\(infoA.stdout)")
    }

    /// Help and anything unusual still goes to the parser.
    @Test func helpIsTheParsers() async throws {
        let result = try await Blocking.run { try Subprocess.imagegallery(["info", "--help"]) }
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE"), "\(result.stdout)")
    }
}
