import Foundation
import GalleryTestSupport
import Testing

/// `validate --privacy` (issue 32): each fixture of Fixtures/invalid/privacy is clean without it,
/// reports exactly its id as a warning with it, and as an error (exit 1) with `--privacy-errors`,
/// in every report format.
@Suite("validate --privacy")
struct ValidatePrivacyTests {
    static let fixtures = (try? TestPaths.fixtures(in: "invalid/privacy", withExtension: "imagegallery")) ?? []

    func messages(_ arguments: [String]) throws -> (ProcessResult, [[String: Any]]) {
        let result = try Subprocess.imagegallery(["validate", "--format", "json"] + arguments)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result.stderr)")
        let file = try #require((json["files"] as? [[String: Any]])?.first)
        return (result, try #require(file["messages"] as? [[String: Any]]))
    }

    @Test func everyPrivacyIDHasAFixture() {
        let ids = Set(Self.fixtures.map { String(URL(fileURLWithPath: $0).lastPathComponent.prefix(10)) })
        #expect(ids == ["IG-PRV-001", "IG-PRV-002", "IG-PRV-003"])
    }

    @Test(arguments: fixtures)
    func aFixtureReportsItsIDOnlyWithPrivacy(path: String) throws {
        let expected = String(URL(fileURLWithPath: path).lastPathComponent.prefix(10))
        let (plain, plainMessages) = try messages([path])
        #expect(plain.status == 0)
        #expect(plainMessages.isEmpty, "without --privacy nothing changes")

        let (warned, warnings) = try messages(["--privacy", path])
        #expect(warned.status == 0, "a warning leaves the gallery valid")
        #expect(warnings.map { $0["id"] as? String } == [expected])
        #expect(warnings.first?["severity"] as? String == "warning")
        #expect((warnings.first?["entry"] as? String)?.hasPrefix("images/") == true)
        #expect(warnings.first?["pointer"] as? String == "/images/0")

        let (failed, errors) = try messages(["--privacy-errors", path])
        #expect(failed.status == 1, "--privacy-errors makes a publishing pipeline fail")
        #expect(errors.map { $0["id"] as? String } == [expected])
        #expect(errors.first?["severity"] as? String == "error")
    }

    @Test(arguments: ["text", "sarif", "junit", "github"])
    func everyFormatCarriesTheFinding(format: String) throws {
        let path = try #require(Self.fixtures.first { $0.contains("IG-PRV-001") })
        let result = try Subprocess.imagegallery(["validate", "--privacy-errors", "--format", format, path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("IG-PRV-001"), "\(result.stdout)")
        #expect(result.stdout.contains("EXIF GPS"), "the finding says what the image carries")
    }
}
