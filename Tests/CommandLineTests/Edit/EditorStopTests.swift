import Foundation
import GalleryTestSupport
import Glibc
import Testing

/// The editor's stop (issue 29): on SIGTERM it ends within a few seconds, whatever a page was
/// doing, and takes its record away; and `imagegallery edit` never prints a link to a server
/// that does not answer.
///
/// Before, the stop waited without end for every request under way: an upload whose body had
/// stopped arriving (or an event stream a page reopened as the stop began) kept the process
/// alive, its listening sockets closed, its documents unsaved and its record in place, so the
/// next `edit` printed that dead server's link.
@Suite("Editor stop")
struct EditorStopTests {
    /// A hang check, not a timing: the stop itself takes a few seconds.
    static let exitBound: Duration = .seconds(20)

    @Test func aStopEndsPromptlyWithAnUploadUnderWayAndTheNextEditServes() async throws {
        let (folder, galleries, environment) = try Self.workspace()
        let first = try await Editor.start(galleries, environment: environment)
        defer { first.end() }
        #expect(Self.records(folder).count == 1, "the running editor left no record")

        // A page's import whose body stops arriving, as a large drop does on a stalled
        // connection: the request is under way when the stop comes.
        let upload = try await HeldUpload.start(url: first.launch.url)
        defer { upload.end() }

        first.process.terminate()
        let exited = await first.waitForExit(within: Self.exitBound)
        #expect(exited, "the editor was still running \(Self.exitBound) after SIGTERM")
        if exited {
            #expect(first.process.terminationReason == .exit && first.process.terminationStatus == 0,
                    "the editor ended with \(first.process.terminationStatus)")
        }
        #expect(Self.records(folder).isEmpty, "the record stayed: \(Self.records(folder))")

        let second = try await Editor.start(galleries, environment: environment)
        defer { second.end() }
        #expect(second.launch.pid != first.launch.pid, "the stopped editor's record was reused")
        #expect(try await Self.status(of: second.launch.url) == "200", "the new link does not answer")
    }

    /// A record whose process is gone is not reused (as before), nor one whose process is there
    /// but whose port refuses connections (an editor stuck in its stop): `edit` starts a new server.
    @Test func aRecordOfAServerThatDoesNotAnswerIsNotReused() async throws {
        let (folder, galleries, environment) = try Self.workspace()
        let killed = try await Editor.start(galleries, environment: environment)
        defer { killed.end() }
        let name = try #require(Self.records(folder).first, "the running editor left no record")
        let recordPath = folder.file("run/imagegallery/" + name)
        let record = try Data(contentsOf: URL(fileURLWithPath: recordPath))
        kill(killed.launch.pid, SIGKILL)
        _ = await killed.waitForExit(within: Self.exitBound)
        #expect(FileManager.default.fileExists(atPath: recordPath), "a killed editor cannot have removed its record")

        let afterKill = try await Editor.start(galleries, environment: environment)
        defer { afterKill.end() }
        #expect(afterKill.launch.pid != killed.launch.pid)
        #expect(try await Self.status(of: afterKill.launch.url) == "200", "the link after a killed editor does not answer")
        afterKill.process.terminate()
        #expect(await afterKill.waitForExit(within: Self.exitBound))

        // A process that passes for an editor (its command line names imagegallery-editor)
        // and the killed editor's port, on which nothing listens any more.
        let impostor = Process()
        impostor.executableURL = URL(fileURLWithPath: "/bin/bash")
        impostor.arguments = ["-c", "exec -a imagegallery-editor sleep 120"]
        try impostor.run()
        defer { if impostor.isRunning { impostor.terminate() } }
        var fields = try #require(try JSONSerialization.jsonObject(with: record) as? [String: Any])
        fields["pid"] = Int(impostor.processIdentifier)
        try JSONSerialization.data(withJSONObject: fields).write(to: URL(fileURLWithPath: recordPath))
        // Until bash has exec'd, the process's command line is not yet the impostor's (empty, on a
        // busy machine, when read at once): wait for it, within a bound that only catches a failure.
        var commandLine = ""
        for _ in 0..<400 where !commandLine.contains("imagegallery-editor") {
            try await Task.sleep(for: .milliseconds(50))
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(impostor.processIdentifier)/cmdline"))) ?? Data()
            commandLine = String(decoding: bytes, as: UTF8.self)
        }
        #expect(commandLine.contains("imagegallery-editor"), "the impostor does not pass for an editor: \(commandLine)")

        let afterRefusal = try await Editor.start(galleries, environment: environment)
        defer { afterRefusal.end() }
        #expect(afterRefusal.launch.pid != impostor.processIdentifier, "a record whose port refuses was reused")
        #expect(try await Self.status(of: afterRefusal.launch.url) == "200", "the link does not answer")
    }

    /// A scratch folder with an empty galleries folder in it, and the environment `edit` runs in
    /// there (its own HOME and runtime folder, so the records are this test's alone).
    static func workspace() throws -> (folder: TemporaryDirectory, galleries: String, environment: [String: String]) {
        let folder = try TemporaryDirectory()
        let galleries = folder.file("galleries")
        try FileManager.default.createDirectory(atPath: galleries, withIntermediateDirectories: true)
        return (folder, galleries, EditCommandTests.environment(folder))
    }

    /// The editors' records (the run folder holds nothing else of theirs).
    static func records(_ folder: TemporaryDirectory) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.file("run/imagegallery"))) ?? []
        return names.filter { $0.hasPrefix("editor-") && $0.hasSuffix(".json") }
    }

    /// Follows the launch link as a browser does (its key becomes a cookie, then the page):
    /// the final status, or what went wrong.
    static func status(of url: String) async throws -> String {
        try await Blocking.run { try statusBlocking(of: url) }
    }

    private static func statusBlocking(of url: String) throws -> String {
        let script = """
            import http.cookiejar, sys, urllib.request
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
            try:
                print(opener.open(sys.argv[1], timeout=10).status)
            except Exception as error:
                print(f"{type(error).__name__}: {error}")
            """
        return try Subprocess.run("/usr/bin/python3", ["-c", script, url]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct Launch: Decodable {
        var pid: Int32
        var url: String
    }

    /// `imagegallery edit --no-open --json` on a folder: it becomes the editor and keeps running.
    final class Editor: @unchecked Sendable {
        let process: Process
        let launch: Launch

        private init(process: Process, launch: Launch) {
            self.process = process
            self.launch = launch
        }

        /// Started on a thread of its own: reading its first line blocks, and a test's cooperative
        /// threads are shared by the suites that run beside it.
        static func start(_ folder: String, environment: [String: String]) async throws -> Editor {
            try await Blocking.run { try startBlocking(folder, environment: environment) }
        }

        private static func startBlocking(_ folder: String, environment: [String: String]) throws -> Editor {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try TestPaths.binary())
            // A long first-page wait: a busy test run may come back to this editor minutes after
            // its link, and an editor that stopped for want of a page would leave no record.
            process.arguments = ["edit", "--no-open", "--json", "--first-page-seconds", "3600", folder]
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            guard let line = output.fileHandleForReading.readLine() else {
                process.terminate()
                throw EditorStopFailure("imagegallery edit printed no link")
            }
            return Editor(process: process, launch: try JSONDecoder().decode(Launch.self, from: Data(line.utf8)))
        }

        /// Whether the process ended within `bound`.
        func waitForExit(within bound: Duration) async -> Bool {
            let deadline = ContinuousClock.now + bound
            while process.isRunning, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(100))
            }
            if process.isRunning { return false }
            process.waitUntilExit()
            return true
        }

        /// Leaves nothing running: an editor that would not stop is killed.
        func end() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// An import sent by the page whose body stops arriving: its head and a first part of its
    /// body are sent, then the connection stays open, idle, until `end()`.
    final class HeldUpload: @unchecked Sendable {
        private let process: Process
        private let input = Pipe()

        private init(process: Process) { self.process = process }

        static func start(url: String) async throws -> HeldUpload {
            try await Blocking.run { try startBlocking(url: url) }
        }

        private static func startBlocking(url: String) throws -> HeldUpload {
            let script = """
                import http.cookiejar, re, socket, sys, urllib.request
                url = sys.argv[1]
                port = int(re.search(r":(\\d+)/", url).group(1))
                jar = http.cookiejar.CookieJar()
                urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar)).open(url, timeout=10).read()
                cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
                held = socket.create_connection(("127.0.0.1", port), timeout=10)
                held.sendall((f"POST /api/import?name=drop.zip HTTP/1.1\\r\\nHost: 127.0.0.1:{port}\\r\\nCookie: {cookie}\\r\\n"
                              f"Origin: http://127.0.0.1:{port}\\r\\nContent-Type: application/zip\\r\\n"
                              f"Content-Length: {8 << 20}\\r\\n\\r\\n").encode() + b"PK\\x03\\x04" + bytes(65536))
                print("held", flush=True)
                sys.stdin.read()
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", script, url]
            let upload = HeldUpload(process: process)
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = upload.input
            try process.run()
            guard output.fileHandleForReading.readLine() == "held" else {
                upload.end()
                throw EditorStopFailure("the upload could not be started")
            }
            return upload
        }

        func end() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }
}

struct EditorStopFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
