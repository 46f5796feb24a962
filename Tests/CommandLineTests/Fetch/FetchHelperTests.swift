import Foundation
import GalleryTestSupport
import Testing

/// Fetching runs in `imagegallery-fetch`, beside the binary: what a user sees when it is
/// missing or misused, and that nothing but URLs needs it.
@Suite("Fetching: the helper program")
struct FetchHelperTests {
    /// The helper under test, IMAGEGALLERY_FETCH_BINARY, is the file beside the binary under
    /// test, where `imagegallery` looks for it (`fetchHelper()` throws, naming what is wrong).
    @Test func theHelperIsBesideTheBinary() throws {
        let helper = try TestPaths.fetchHelper()
        #expect(FileManager.default.isExecutableFile(atPath: helper), "\(helper)")
    }

    /// Without the helper, URLs fail clearly (69) and nothing is written or changed.
    @Test func aMissingHelperFailsURLsClearly() async throws {
        let workspace = try FetchWorkspace()
        let missing = workspace.file("no-such-helper")
        let environment = workspace.environment.merging(["IMAGEGALLERY_FETCH_HELPER": missing]) { $1 }
        let output = workspace.file("new.imagegallery")
        let url = workspace.url("/images/1-sunset.jpg")
        var result = try await Blocking.run { try Subprocess.imagegallery(["create", output, url], environment: environment) }
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("imagegallery-fetch") && result.stderr.contains(missing), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))

        let gallery = try await workspace.gallery(named: "g.imagegallery", of: ["7-quilt-palette.png"])
        let before = try FileBytes.read(gallery)
        result = try await Blocking.run { try Subprocess.imagegallery(["add", gallery, url], environment: environment) }
        #expect(result.status == 69, "\(result.stderr)")
        #expect(try FileBytes.read(gallery) == before)

        result = try await Blocking.run { try Subprocess.imagegallery(["cache", "info"], environment: environment) }
        #expect(result.status == 69, "\(result.stderr)")
        #expect(try workspace.server.log().isEmpty)
    }

    /// Files alone never start the helper: a gallery of files is made without it.
    @Test func filesAloneDoNotNeedTheHelper() async throws {
        let workspace = try FetchWorkspace()
        let environment = workspace.environment.merging(["IMAGEGALLERY_FETCH_HELPER": workspace.file("no-such-helper")]) { $1 }
        let output = workspace.file("files.imagegallery")
        let image = try workspace.directory.copy(TestPaths.fixture("images/7-quilt-palette.png"))
        let result = try await Blocking.run { try Subprocess.imagegallery(["create", output, image], environment: environment) }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: output))
    }

    /// Run by hand, or with a bad request, the helper says what it is for and exits 64.
    @Test(arguments: [(["--help"], ""), (["fetch"], "{not json"), (["fetch"], #"{"cachePolicy":"sometimes","jobs":1,"#
        + #""timeoutSeconds":1,"connectTimeoutSeconds":1,"retries":0,"maxImageBytes":1,"urls":[]}"#)])
    func theHelperRefusesWhatImagegalleryWouldNotSend(arguments: [String], input: String) async throws {
        let helper = try TestPaths.fetchHelper()
        let directory = try TemporaryDirectory()
        let request = directory.file("request.json")
        try Data(input.utf8).write(to: URL(fileURLWithPath: request))
        let result = try await Blocking.run { try Subprocess.run(helper, arguments, standardInput: request) }
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("imagegallery-fetch: "), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
