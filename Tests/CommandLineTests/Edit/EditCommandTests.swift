import Foundation
import GalleryTestSupport
import Testing

/// `imagegallery edit` and the editor's server as programs: how they start, refuse, reuse a
/// running server and stop, and the server attacked from outside (Tests/Browser/check-editor-security.py).
@Suite("Edit command")
struct EditCommandTests {
    /// A private environment: the record of a running editor goes to this folder, so tests never
    /// meet each other's servers or the user's.
    static func environment(_ folder: TemporaryDirectory) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = folder.file("run")
        environment["XDG_STATE_HOME"] = folder.file("state")
        environment["XDG_CACHE_HOME"] = folder.file("cache")
        return environment
    }

    /// The binary that thumbnails and validates downloaded files carries no server or HTTP code:
    /// the editor's server is `imagegallery-editor`. Module names survive in every Swift binary's
    /// metadata, so their absence is the proof; the editor's presence shows the probe works.
    @Test func theMainBinaryLinksNoServerCode() throws {
        let server = ["Hummingbird", "NIOPosix", "NIOHTTP1", "AsyncHTTPClient"]
        let main = try FileBytes.read(try TestPaths.binary())
        let editor = try FileBytes.read(try TestPaths.editor())
        for name in server.prefix(3) {
            #expect(editor.contains(Array(name.utf8)), "the probe finds no \(name) in the editor itself")
        }
        for name in server {
            #expect(!main.contains(Array(name.utf8)), "imagegallery contains \(name)")
        }
    }

    @Test func aPathThatIsNeitherAFolderNorAGalleryIsRefusedWith66() async throws {
        let folder = try TemporaryDirectory()
        let result = try await Blocking.run {
            try Subprocess.imagegallery(["edit", "--no-open", folder.file("missing")], environment: Self.environment(folder))
        }
        #expect(result.status == 66)
        #expect(result.stderr.contains(folder.file("missing")))
    }

    @Test func aMissingEditorIsReportedWith69() async throws {
        let folder = try TemporaryDirectory()
        var changed = Self.environment(folder)
        changed["IMAGEGALLERY_EDITOR"] = folder.file("no-such-editor")
        let environment = changed
        let result = try await Blocking.run { try Subprocess.imagegallery(["edit", "--no-open", folder.path], environment: environment) }
        #expect(result.status == 69)
        #expect(result.stderr.contains("imagegallery-editor was not found"))
    }

    @Test func aBadPortIsAUsageError() async throws {
        let folder = try TemporaryDirectory()
        let result = try await Blocking.run {
            try Subprocess.run(try TestPaths.editor(), ["--port", "70000", "--no-open", folder.path], environment: Self.environment(folder))
        }
        #expect(result.status == 64)
    }

    /// The first `edit` serves; a second of the same folder opens a page on it (same pid, new
    /// key) and returns at once; the server stops by itself once no page has come for its wait,
    /// with status 0, and takes its record away.
    @Test func aSecondEditOfTheSameFolderReusesTheRunningServer() async throws {
        let folder = try TemporaryDirectory()
        let environment = Self.environment(folder)
        let first = Process()
        first.executableURL = URL(fileURLWithPath: try TestPaths.binary())
        first.arguments = ["edit", "--no-open", "--json", folder.path]
        first.environment = environment
        let output = Pipe()
        first.standardOutput = output
        try first.run()
        // `edit` became the editor: a hidden wait shorter than the default cannot be passed
        // through `edit`, so this test stops it with SIGTERM when done.
        defer { if first.isRunning { first.terminate() } }
        let line = try #require(output.fileHandleForReading.readLine(), "the editor printed nothing")
        let started = try JSONDecoder().decode(Launch.self, from: Data(line.utf8))
        #expect(started.pid == first.processIdentifier)
        #expect(started.url.hasPrefix("http://127.0.0.1:"))

        let second = try await Blocking.run {
            try Subprocess.imagegallery(["edit", "--no-open", "--json", folder.path], environment: environment)
        }
        #expect(second.status == 0)
        let reused = try JSONDecoder().decode(Launch.self, from: second.stdoutData)
        #expect(reused.pid == started.pid)
        #expect(reused.url != started.url)
        #expect(reused.url.split(separator: "?").first == started.url.split(separator: "?").first)

        first.terminate()
        first.waitUntilExit()
        #expect(first.terminationReason == .exit && first.terminationStatus == 0)
        let records = (try? FileManager.default.contentsOfDirectory(atPath: folder.file("run/imagegallery"))) ?? []
        #expect(records.filter { $0.hasSuffix(".json") }.isEmpty, "left behind: \(records)")
    }

    @Test func theServerRefusesEveryOutsideRequestAndChangesNothing() async throws {
        let checker = TestPaths.repository + "/Tests/Browser/check-editor-security.py"
        let result = try await Blocking.run {
            try Subprocess.run("/usr/bin/python3", [checker, "--editor", try TestPaths.editor(), "--imagegallery", try TestPaths.binary(),
                                                    "--fixtures", TestPaths.fixture("images")])
        }
        let report = try #require(try? JSONDecoder().decode(SecurityReport.self, from: result.stdoutData),
                                  "the check printed no result (status \(result.status)): \(result.stdout) \(result.stderr)")
        #expect(report.ok, "\(report.error ?? "") \((report.failures ?? []).joined(separator: "; "))")
        #expect((report.checks ?? []).count >= 25, "only \((report.checks ?? []).count) checks ran")
        #expect(result.status == 0)
    }

    /// The editor and the CLI take turns through the document lock, both ways round
    /// (Tests/Browser/check-editor-locks.py).
    @Test func aGalleryOpenInThePageIsLockedAndAnotherEditorSeesItReadOnly() async throws {
        let checker = TestPaths.repository + "/Tests/Browser/check-editor-locks.py"
        let result = try await Blocking.run {
            try Subprocess.run("/usr/bin/python3", [checker, "--editor", try TestPaths.editor(), "--imagegallery", try TestPaths.binary(),
                                                    "--fixtures", TestPaths.fixture("images")])
        }
        let report = try #require(try? JSONDecoder().decode(SecurityReport.self, from: result.stdoutData),
                                  "the check printed no result (status \(result.status)): \(result.stdout) \(result.stderr)")
        #expect(report.ok, "\(report.error ?? "") \((report.failures ?? []).joined(separator: "; "))")
        #expect((report.checks ?? []).count == 17, "\((report.checks ?? []).count) checks ran")
        #expect(result.status == 0)
    }

    struct Launch: Decodable {
        var pid: Int32
        var url: String
    }

    struct SecurityReport: Decodable {
        struct Check: Decodable {
            var name: String
            var ok: Bool
        }

        var ok: Bool
        var failures: [String]?
        var checks: [Check]?
        var error: String?
    }
}

extension FileHandle {
    /// One line, without its newline; nil at the end of the stream.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            let byte = readData(ofLength: 1)
            guard let first = byte.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if first == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(first)
        }
    }
}
