#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

// Black-box tests of `add` and `create` with http URLs: the built binary against the scripted
// server of Tests/Servers/gallery-http-server.py, each test with its own server, cache and
// state folders. What the server saw is read back from its request log.

/// The scripted HTTP server, run as a subprocess on 127.0.0.1 for one test; stopped when dropped.
final class LoopbackImageServer: @unchecked Sendable {
    /// One request as the server logged it.
    struct Request: Decodable, Sendable, CustomStringConvertible {
        var method: String
        var path: String
        var ifNoneMatch: String?
        var ifModifiedSince: String?
        var userAgent: String?
        var status: Int
        var bodyBytes: Int
        /// When the request arrived, in seconds on the server's monotonic clock.
        var arrived: Double

        var description: String {
            "\(method) \(path) -> \(status), \(bodyBytes) body bytes" + (ifNoneMatch.map { ", If-None-Match \($0)" } ?? "")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int
    private let process: Process
    private let output: Pipe
    /// The server's standard input: it exits when this closes (when this process ends).
    private let lifeline: Pipe
    private let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
        let errorLog = folder.file("server-stderr.txt")
        _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: Subprocess.which("python3") ?? "/usr/bin/python3")
        // The script runs under a watchdog that ends it when its standard input closes, so
        // that a test run that is killed leaves no server behind.
        let script = TestPaths.repository + "/Tests/Servers/gallery-http-server.py"
        process.arguments = ["-u", "-c", """
            import os, runpy, sys, threading
            threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()
            sys.argv = sys.argv[1:]
            runpy.run_path(sys.argv[0], run_name="__main__")
            """, script, "--root", TestPaths.fixture("images")]
        output = Pipe()
        lifeline = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorLog))
        process.standardInput = lifeline
        try process.run()

        // The first line is "PORT n", printed once the server accepts connections.
        final class FirstLine: @unchecked Sendable {
            var bytes: [UInt8] = []
        }
        let line = FirstLine()
        let done = DispatchSemaphore(value: 0)
        let descriptor = output.fileHandleForReading.fileDescriptor
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while Glibc.read(descriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.bytes.append(byte) }
            done.signal()
        }
        guard done.wait(timeout: .now() + 30) == .success else {
            Self.stop(process)
            throw Failure(description: "the test server printed no first line within 30 s")
        }
        let text = String(decoding: line.bytes, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)), port > 0 else {
            Self.stop(process)
            let errors = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            throw Failure(description: "the test server did not start (first line \"\(text)\"): \(errors)")
        }
        self.port = port
    }

    deinit { Self.stop(process) }

    /// SIGKILL, not `terminate()`: a child started from a thread of Swift's concurrency pool
    /// inherits its blocked signals, SIGTERM among them.
    private static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)" + path }

    /// Every request so far, the server's own routes (/__log, /__reset) left out.
    func log() throws -> [Request] {
        let (status, body) = try get("/__log")
        guard status == 200 else { throw Failure(description: "/__log answered \(status)") }
        return try JSONDecoder().decode([Request].self, from: Data(body)).filter { !$0.path.hasPrefix("/__") }
    }

    /// The requests whose path (with query) is exactly this.
    func requests(_ path: String) throws -> [Request] { try log().filter { $0.path == path } }

    /// Forgets the log and the state of /flaky and /busy.
    func reset() throws {
        let (status, _) = try get("/__reset")
        guard status == 204 else { throw Failure(description: "/__reset answered \(status)") }
    }

    /// A plain HTTP/1.0 GET over a socket of our own, so that the test asks the server with
    /// nothing of the product's code.
    private func get(_ path: String) throws -> (status: Int, body: [UInt8]) {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(socketDescriptor) }
        var limit = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socketDescriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect to port \(port): errno \(errno)") }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(socketDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += n
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(socketDescriptor, $0.baseAddress, $0.count, 0) }
            guard n >= 0 else { throw Failure(description: "recv: errno \(errno)") }
            if n == 0 { break }
            answer += buffer[0 ..< n]
        }
        let separator = Array("\r\n\r\n".utf8)
        guard let end = (0 ... max(answer.count - 4, 0)).first(where: { Array(answer[$0 ..< min($0 + 4, answer.count)]) == separator })
        else { throw Failure(description: "no HTTP head in the answer to \(path)") }
        let statusLine = String(decoding: answer[..<end], as: UTF8.self).split(separator: "\r\n").first ?? ""
        let fields = statusLine.split(separator: " ")
        guard fields.count >= 2, let status = Int(fields[1]) else { throw Failure(description: "bad status line \(statusLine)") }
        return (status, Array(answer[(end + 4)...]))
    }
}

/// One test's world: a server, a temporary folder, and private XDG cache and state folders.
struct FetchWorkspace {
    let directory: TemporaryDirectory
    let server: LoopbackImageServer

    init() throws {
        // Every test here fetches through the helper the binary under test finds beside itself:
        // it must be the one named (and just built), else the test fails saying so.
        _ = try TestPaths.fetchHelper()
        directory = try TemporaryDirectory()
        server = try LoopbackImageServer()
    }

    var cacheHome: String { directory.file("cache") }

    var environment: [String: String] { ["XDG_CACHE_HOME": cacheHome, "XDG_STATE_HOME": directory.file("state")] }

    func url(_ path: String) -> String { server.url(path) }

    func file(_ name: String) -> String { directory.file(name) }

    /// Runs the binary off the cooperative pool: a test blocked on a subprocess there starves
    /// the other suites' tasks (the autosave timers among them) on 2 cores.
    func run(_ arguments: [String]) async throws -> ProcessResult {
        let environment = environment
        return try await Blocking.run { try Subprocess.imagegallery(arguments, environment: environment) }
    }

    /// A gallery made of copies of fixture images (never the fixtures themselves).
    func gallery(named name: String, of fixtures: [String]) async throws -> String {
        let copies = try fixtures.map { try directory.copy(TestPaths.fixture("images/" + $0)) }
        let path = file(name)
        let result = try await run(["create", path] + copies)
        guard result.status == 0 else { throw LoopbackImageServer.Failure(description: "create: \(result.stderr)") }
        return path
    }

    func images(_ gallery: String) throws -> [GalleryImage] { try GalleryReader(path: gallery).gallery.images }

    /// An image's stored bytes, read through the reader's checks.
    func bytes(of image: GalleryImage, in gallery: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try GalleryReader(path: gallery).readBlob(image) { bytes += $0 }
        return bytes
    }

    /// Whether the gallery's image is the fixture, byte for byte, with its name, type and source.
    func expect(_ image: GalleryImage?, in gallery: String, is fixture: String, source: String?,
                sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let image else {
            Issue.record("no image where \(fixture) was expected", sourceLocation: sourceLocation)
            return
        }
        let expected = try FileBytes.read(TestPaths.fixture("images/" + fixture))
        #expect(try bytes(of: image, in: gallery) == expected, "\(fixture): the stored bytes differ", sourceLocation: sourceLocation)
        #expect(image.sha256 == SHA256Hasher.of(expected), sourceLocation: sourceLocation)
        #expect(image.byteSize == UInt64(expected.count), sourceLocation: sourceLocation)
        #expect(image.filename == fixture, sourceLocation: sourceLocation)
        #expect(image.mediaType == (fixture.hasSuffix(".png") ? .png : .jpeg), sourceLocation: sourceLocation)
        #expect(image.source == source, sourceLocation: sourceLocation)
    }

    /// The cache's entry files, under $XDG_CACHE_HOME/imagegallery/http/v1.
    func cacheEntries() -> [String] {
        let root = cacheHome + "/imagegallery/http/v1"
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".entry") }.map { root + "/" + $0 }.sorted()
    }

    /// `cache info --json`.
    func cacheInfo() async throws -> [String: Any] {
        let result = try await run(["cache", "info", "--json"])
        #expect(result.status == 0, "cache info: \(result.stderr)")
        return try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any] ?? [:]
    }
}

/// The `items` of a `--json` report, one per source in command-line order.
func reportItems(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
    guard let report = try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any],
          let items = report["items"] as? [[String: Any]] else {
        Issue.record("no JSON report with items on stdout: \(result.stdout) / \(result.stderr)", sourceLocation: sourceLocation)
        return []
    }
    return items
}

/// The reason of the stderr line that reports a URL's failure ("failed URL: reason"), if any.
func failureReason(_ result: ProcessResult, for url: String) -> String? {
    let prefix = "failed \(url): "
    return result.stderr.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
}

/// The stderr line that reports a URL's success ("fetched URL: ..."), if any.
func fetchedLine(_ result: ProcessResult, for url: String) -> String? {
    result.stderr.split(separator: "\n").map(String.init).first { $0.hasPrefix("fetched \(url): ") }
}

/// A loopback port nobody listens on, held for as long as this lives: the socket is bound and
/// never listens, so a connection is refused, and no other test's server can be given the port
/// meanwhile (a port bound and closed again once was, and the "refused" URL reached that server).
final class ClosedPort {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackImageServer.Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw LoopbackImageServer.Failure(description: "bind: errno \(errno)")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}

/// A URL that must be refused: where it points, and how the refusal must read.
struct Refusal: Sendable, CustomTestStringConvertible {
    var name: String
    /// A path on the test server (starting with "/") or a whole URL.
    var target: String
    var errorCode: String
    /// Found in the reason on stderr and in the JSON `error`.
    var reason: String
    /// Requests the server should see for it per run (0: refused before any request).
    var requestsPerRun: Int

    var testDescription: String { name }

    func url(in workspace: FetchWorkspace) -> String { target.hasPrefix("/") ? workspace.url(target) : target }

    static let all: [Refusal] = [
        Refusal(name: "HTML served as image/jpeg", target: "/html-as-jpeg", errorCode: "type-mismatch",
                reason: "HTML", requestsPerRun: 1),
        Refusal(name: "served as text/html", target: "/typed/text_html/1-sunset.jpg", errorCode: "not-an-image-type",
                reason: "text/html", requestsPerRun: 1),
        Refusal(name: "404", target: "/images/no-such-image.jpg", errorCode: "http-status", reason: "404",
                requestsPerRun: 1),
        Refusal(name: "ftp scheme", target: "ftp://127.0.0.1/images/1-sunset.jpg", errorCode: "unsupported-scheme",
                reason: "ftp:", requestsPerRun: 0),
        Refusal(name: "invalid URL (a space)", target: "http://exa mple.test/1-sunset.jpg", errorCode: "invalid-url",
                reason: "not a valid URL", requestsPerRun: 0),
        Refusal(name: "invalid URL (no host)", target: "http:///images/1-sunset.jpg", errorCode: "invalid-url",
                reason: "not a valid URL", requestsPerRun: 0),
        Refusal(name: "invalid URL (not ASCII)", target: "/images/caf\u{E9}.jpg", errorCode: "invalid-url",
                reason: "not a valid URL", requestsPerRun: 0),
    ]
}

@Suite("Fetching: what is accepted")
struct FetchCommandAcceptanceTests {
    @Test func aJPEGAndAPNGAreAddedWithTheirSources() async throws {
        let workspace = try FetchWorkspace()
        let jpeg = workspace.url("/images/1-sunset.jpg")
        let png = workspace.url("/images/2-tiles.png")
        let gallery = workspace.file("web.imagegallery")
        let result = try await workspace.run(["create", gallery, jpeg, png, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let images = try workspace.images(gallery)
        #expect(images.count == 2)
        try workspace.expect(images.first, in: gallery, is: "1-sunset.jpg", source: jpeg)
        try workspace.expect(images.dropFirst().first, in: gallery, is: "2-tiles.png", source: png)
        let items = reportItems(result)
        #expect(items.map { $0["source"] as? String } == [jpeg, png])
        #expect(items.map { $0["status"] as? String } == ["added", "added"])
        #expect(items.map { $0["origin"] as? String } == ["network", "network"])
        #expect(fetchedLine(result, for: jpeg) != nil && fetchedLine(result, for: png) != nil, "\(result.stderr)")
        let log = try workspace.server.log()
        #expect(log.count == 2, "\(log)")
        #expect(log.allSatisfy { $0.method == "GET" && $0.userAgent?.hasPrefix("imagegallery/") == true }, "\(log)")
        #expect(try await workspace.run(["validate", gallery]).status == 0)
        // The fetched images' spool files are gone once they are in the gallery.
        let spool = workspace.cacheHome + "/imagegallery/spool"
        #expect((try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? [] == [], "left in \(spool)")
    }

    /// Each refusal: 4 beside a good URL (the good one added), 5 alone (no file for create,
    /// the gallery untouched for add), and stderr names the URL and the reason.
    @Test(arguments: Refusal.all)
    func aRefusedURLIsReportedAndTheOthersAdded(_ refusal: Refusal) async throws {
        let workspace = try FetchWorkspace()
        let bad = refusal.url(in: workspace)
        let good = workspace.url("/images/4-dunes.jpg")

        // create, beside a good URL: 4, and the good image is there.
        let mixed = workspace.file("mixed.imagegallery")
        var result = try await workspace.run(["create", mixed, bad, good, "--json"])
        #expect(result.status == 4, "\(result.stderr)")
        let items = reportItems(result)
        #expect(items.count == 2)
        if items.count == 2 {
            #expect(items[0]["source"] as? String == bad)
            #expect(items[0]["status"] as? String == "failed")
            #expect(items[0]["errorCode"] as? String == refusal.errorCode, "\(items[0])")
            #expect((items[0]["error"] as? String)?.contains(refusal.reason) == true, "\(items[0])")
            #expect(items[1]["status"] as? String == "added")
        }
        #expect(failureReason(result, for: bad)?.contains(refusal.reason) == true, "\(result.stderr)")
        let images = try workspace.images(mixed)
        #expect(images.count == 1)
        try workspace.expect(images.first, in: mixed, is: "4-dunes.jpg", source: good)

        // create, alone: 5, and no file.
        let alone = workspace.file("alone.imagegallery")
        result = try await workspace.run(["create", alone, bad])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: alone))
        #expect(failureReason(result, for: bad)?.contains(refusal.reason) == true, "\(result.stderr)")

        // add, alone: 5, and the gallery byte for byte as it was.
        let gallery = try await workspace.gallery(named: "local.imagegallery", of: ["7-quilt-palette.png"])
        let before = try FileBytes.read(gallery)
        result = try await workspace.run(["add", gallery, bad])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(failureReason(result, for: bad)?.contains(refusal.reason) == true, "\(result.stderr)")
        #expect(try FileBytes.read(gallery) == before)

        // add, beside a good URL: 4, and the good image added.
        result = try await workspace.run(["add", gallery, bad, good])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(failureReason(result, for: bad)?.contains(refusal.reason) == true, "\(result.stderr)")
        #expect(try workspace.images(gallery).map(\.filename) == ["7-quilt-palette.png", "4-dunes.jpg"])

        // Refused before any request, or asked once per run (no retry of a 404).
        let badRequests = try workspace.server.log().filter { workspace.url($0.path) != good }
        #expect(badRequests.count == 4 * refusal.requestsPerRun, "\(badRequests)")
    }

    @Test func aServerErrorIsRetried() async throws {
        let workspace = try FetchWorkspace()
        let path = "/flaky/accepted-500/2-tiles.png"
        let gallery = workspace.file("g.imagegallery")
        let result = try await workspace.run(["create", gallery, workspace.url(path)])
        #expect(result.status == 0, "\(result.stderr)")
        try workspace.expect(try workspace.images(gallery).first, in: gallery, is: "2-tiles.png", source: workspace.url(path))
        #expect(try workspace.server.requests(path).map(\.status) == [500, 200])
    }

    @Test func aServerErrorThatLastsFailsAfterTheRetries() async throws {
        let workspace = try FetchWorkspace()
        let url = workspace.url("/status/503")
        let gallery = workspace.file("g.imagegallery")
        let result = try await workspace.run(["create", gallery, url, "--retries", "1"])
        #expect(result.status == 5, "\(result.stderr)")
        let reason = failureReason(result, for: url)
        #expect(reason?.contains("503") == true && reason?.contains("2 attempts") == true, "\(result.stderr)")
        #expect(try workspace.server.requests("/status/503").map(\.status) == [503, 503])
        #expect(!FileManager.default.fileExists(atPath: gallery))
    }

    @Test func tooManyRequestsIsRetriedAfterRetryAfter() async throws {
        let workspace = try FetchWorkspace()
        let path = "/busy/accepted-429/6-bubbles.png?after=1"
        let gallery = workspace.file("g.imagegallery")
        let result = try await workspace.run(["create", gallery, workspace.url(path)])
        #expect(result.status == 0, "\(result.stderr)")
        try workspace.expect(try workspace.images(gallery).first, in: gallery, is: "6-bubbles.png", source: workspace.url(path))
        let requests = try workspace.server.requests(path)
        #expect(requests.map(\.status) == [429, 200])
        // The gap the server saw between the two requests, so that a busy machine cannot
        // shorten it; the default first backoff (at most 0.625 s) would fail this.
        if requests.count == 2 {
            let gap = requests[1].arrived - requests[0].arrived
            #expect(gap >= 0.95, "retried \(gap) s after the 429, before its Retry-After of 1 s")
        }
    }

    @Test func aRetryAfterLongerThanAMinuteFailsAtOnce() async throws {
        let workspace = try FetchWorkspace()
        let path = "/busy/accepted-429-long/6-bubbles.png?after=3600"
        let url = workspace.url(path)
        let result = try await workspace.run(["create", workspace.file("g.imagegallery"), url])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(failureReason(result, for: url)?.contains("3600") == true, "\(result.stderr)")
        #expect(try workspace.server.requests(path).map(\.status) == [429])
    }

    @Test(arguments: [3, 5])
    func aChainOfRedirectsIsFollowed(length: Int) async throws {
        let workspace = try FetchWorkspace()
        let url = workspace.url("/redirect/\(length)/4-dunes.jpg")
        let gallery = workspace.file("g.imagegallery")
        let result = try await workspace.run(["create", gallery, url])
        #expect(result.status == 0, "\(result.stderr)")
        // The URL as given is the source; the name is the final URL's.
        try workspace.expect(try workspace.images(gallery).first, in: gallery, is: "4-dunes.jpg", source: url)
        let log = try workspace.server.log()
        #expect(log.filter { $0.status == 302 }.count == length, "\(log)")
        #expect(log.filter { $0.path == "/images/4-dunes.jpg" }.map(\.status) == [200], "\(log)")
    }

    @Test(arguments: [6, 7])
    func moreThanFiveRedirectsFail(length: Int) async throws {
        let workspace = try FetchWorkspace()
        let url = workspace.url("/redirect/\(length)/3-lighthouse.jpg")
        let good = workspace.url("/images/7-quilt-palette.png")
        let gallery = workspace.file("g.imagegallery")
        let result = try await workspace.run(["create", gallery, good, url, "--json"])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(failureReason(result, for: url)?.contains("more than 5 redirects") == true, "\(result.stderr)")
        #expect(reportItems(result).last?["errorCode"] as? String == "too-many-redirects")
        #expect(try workspace.images(gallery).map(\.filename) == ["7-quilt-palette.png"])
        let log = try workspace.server.log()
        #expect(!log.contains { $0.path == "/images/3-lighthouse.jpg" }, "\(log)")
        #expect(log.filter { $0.path.hasPrefix("/redirect/") }.count == 6, "\(log)")
    }

    @Test func aRedirectLoopFailsAtOnce() async throws {
        let workspace = try FetchWorkspace()
        let url = workspace.url("/loop/a")
        let result = try await workspace.run(["create", workspace.file("g.imagegallery"), url])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(failureReason(result, for: url)?.contains("redirect loop") == true, "\(result.stderr)")
        let log = try workspace.server.log()
        #expect(log.count <= 3, "\(log)")
    }

    @Test func aSlowDripTimesOut() async throws {
        let workspace = try FetchWorkspace()
        let url = workspace.url("/drip/60")
        let good = workspace.url("/images/2-tiles.png")
        let gallery = workspace.file("g.imagegallery")
        let result = try await workspace.run(["create", gallery, url, good, "--timeout", "2", "--json"])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(reportItems(result).first?["errorCode"] as? String == "timeout")
        #expect(failureReason(result, for: url)?.contains("2 s") == true, "\(result.stderr)")
        #expect(try workspace.images(gallery).map(\.filename) == ["2-tiles.png"])
    }

    @Test func anOversizedBodyIsCutOffAtTheCap() async throws {
        let workspace = try FetchWorkspace()
        let url = workspace.url("/oversize/60")
        let good = workspace.url("/images/2-tiles.png")
        let gallery = workspace.file("g.imagegallery")
        let result = try await workspace.run(["create", gallery, url, good, "--json"])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(reportItems(result).first?["errorCode"] as? String == "too-large")
        #expect(failureReason(result, for: url)?.contains("50000000") == true, "\(result.stderr)")
        #expect(try workspace.images(gallery).map(\.filename) == ["2-tiles.png"])
        // The server logs the body once its writes fail: the client closed before the 60 MB.
        var sent: [Int] = []
        for _ in 0 ..< 100 {
            sent = try workspace.server.requests("/oversize/60").map(\.bodyBytes)
            if !sent.isEmpty { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(sent.count == 1, "the server was still sending 10 s after the command ended")
        #expect(sent.allSatisfy { $0 < 60_000_000 }, "\(sent)")
    }

    @Test func maxImageBytesRefusesALargerImage() async throws {
        let workspace = try FetchWorkspace()
        let large = workspace.url("/images/1-sunset.jpg") // 30,301 bytes
        let small = workspace.url("/images/7-quilt-palette.png") // 2,559 bytes
        let gallery = workspace.file("g.imagegallery")
        let result = try await workspace.run(["create", gallery, large, small, "--max-image-bytes", "10000", "--json"])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(reportItems(result).map { $0["errorCode"] as? String } == ["too-large", nil])
        #expect(failureReason(result, for: large)?.contains("10000") == true, "\(result.stderr)")
        let images = try workspace.images(gallery)
        #expect(images.count == 1)
        try workspace.expect(images.first, in: gallery, is: "7-quilt-palette.png", source: small)
    }

    /// Files and URLs in any mix keep command-line order, at the --at position.
    @Test func filesAndURLsKeepTheirOrderAtThePositionGiven() async throws {
        let workspace = try FetchWorkspace()
        let gallery = try await workspace.gallery(named: "g.imagegallery", of: ["7-quilt-palette.png", "8-deep-gradient.png"])
        let tiles = try workspace.directory.copy(TestPaths.fixture("images/2-tiles.png"))
        // The first URL is the slowest (three redirects), so completion order is not command-line order.
        let sunset = workspace.url("/redirect/3/1-sunset.jpg")
        let lighthouse = workspace.url("/images/3-lighthouse.jpg")
        let result = try await workspace.run(["add", gallery, sunset, tiles, lighthouse, "--at", "2", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let images = try workspace.images(gallery)
        #expect(images.map(\.filename) == ["7-quilt-palette.png", "1-sunset.jpg", "2-tiles.png", "3-lighthouse.jpg",
                                           "8-deep-gradient.png"])
        if images.count == 5 {
            try workspace.expect(images[1], in: gallery, is: "1-sunset.jpg", source: sunset)
            try workspace.expect(images[2], in: gallery, is: "2-tiles.png", source: nil)
            try workspace.expect(images[3], in: gallery, is: "3-lighthouse.jpg", source: lighthouse)
        }
        let items = reportItems(result)
        #expect(items.map { $0["source"] as? String } == [sunset, tiles, lighthouse])
        #expect(items.map { $0["status"] as? String } == ["added", "added", "added"])
        #expect(try await workspace.run(["validate", gallery]).status == 0)
    }

    @Test func aRefusedConnectionFailsTheURLOnly() async throws {
        let workspace = try FetchWorkspace()
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let url = "http://127.0.0.1:\(closed.port)/images/1-sunset.jpg"
        let good = workspace.url("/images/2-tiles.png")
        let gallery = workspace.file("g.imagegallery")
        let result = try await workspace.run(["create", gallery, url, good, "--json"])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(reportItems(result).map { $0["errorCode"] as? String } == ["connection-failed", nil])
        #expect(failureReason(result, for: url) != nil, "\(result.stderr)")
        #expect(try workspace.images(gallery).map(\.filename) == ["2-tiles.png"])
    }

    /// Files are checked before anything is fetched: a missing one stops the command (66)
    /// without a request.
    @Test func aMissingFileStopsTheCommandBeforeAnyFetch() async throws {
        let workspace = try FetchWorkspace()
        let url = workspace.url("/images/1-sunset.jpg")
        let missing = workspace.file("missing.jpg")
        let output = workspace.file("new.imagegallery")
        var result = try await workspace.run(["create", output, url, missing])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains(missing), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))

        let gallery = try await workspace.gallery(named: "g.imagegallery", of: ["7-quilt-palette.png"])
        let before = try FileBytes.read(gallery)
        result = try await workspace.run(["add", gallery, url, missing])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(try FileBytes.read(gallery) == before)
        #expect(try workspace.server.log().isEmpty)
    }

    @Test func aURLListedTwiceIsRequestedOnce() async throws {
        let workspace = try FetchWorkspace()
        let url = workspace.url("/images/5-balloon-rotated.jpg")
        let gallery = workspace.file("g.imagegallery")
        let result = try await workspace.run(["create", gallery, url, url, "--jobs", "4", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let images = try workspace.images(gallery)
        #expect(images.count == 2)
        for image in images { try workspace.expect(image, in: gallery, is: "5-balloon-rotated.jpg", source: url) }
        #expect(reportItems(result).map { $0["status"] as? String } == ["added", "added"])
        #expect(try workspace.server.requests("/images/5-balloon-rotated.jpg").count == 1)
    }

    /// URLs that differ only in their fragment are one resource: one request, each source kept.
    @Test func urlsDifferingOnlyInTheirFragmentAreRequestedOnce() async throws {
        let workspace = try FetchWorkspace()
        let url = workspace.url("/images/5-balloon-rotated.jpg")
        let gallery = workspace.file("g.imagegallery")
        let result = try await workspace.run(["create", gallery, url + "#one", url + "#two", url, "--jobs", "4"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.images(gallery).map(\.source) == [url + "#one", url + "#two", url])
        #expect(try workspace.server.requests("/images/5-balloon-rotated.jpg").count == 1)
    }

    /// With --json, a run where nothing could be had still tells a script what failed and why.
    @Test func aRunThatAddsNothingStillReportsItsItems() async throws {
        let workspace = try FetchWorkspace()
        let missing = workspace.url("/status/404")
        let html = workspace.url("/html-as-jpeg")
        let result = try await workspace.run(["create", workspace.file("g.imagegallery"), missing, html, "--json"])
        #expect(result.status == 5, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(report["outcome"] as? String == "nothing-added")
        #expect(reportItems(result).map { $0["errorCode"] as? String } == ["http-status", "type-mismatch"])
        #expect(!FileManager.default.fileExists(atPath: workspace.file("g.imagegallery")))
    }
}

/// The optimized build once crashed where the debug build did not (a task group's results, many
/// URLs at once), so the static release binary that `make test` builds fetches too, with the
/// release helper beside it (IMAGEGALLERY_STATIC_BINARY and IMAGEGALLERY_STATIC_FETCH_BINARY;
/// without them the test fails).
@Suite("Fetching: the release build")
struct FetchReleaseBuildTests {
    @Test func manyURLsAtOnce() async throws {
        let workspace = try FetchWorkspace()
        let binary = try TestPaths.staticBinary()
        _ = try TestPaths.staticFetchHelper()
        let names = try TestPaths.fixtures(in: "images", withExtension: "jpg").map { URL(fileURLWithPath: $0).lastPathComponent }
        // Distinct queries make distinct resources: 60 fetches, 4 at a time.
        let urls = (0 ..< 60).map { workspace.url("/images/\(names[$0 % names.count])?max-age=600&copy=\($0)") }
        let gallery = workspace.file("g.imagegallery")
        for round in 0 ..< 2 {
            try? FileManager.default.removeItem(atPath: gallery)
            let environment = workspace.environment
            let result = try await Blocking.run {
                try Subprocess.run(binary, ["create", gallery, "--jobs", "4", "--json"] + urls, environment: environment)
            }
            #expect(result.status == 0, "round \(round): \(result.stderr)")
            let images = try workspace.images(gallery)
            #expect(images.map(\.source) == urls)
            #expect(reportItems(result).allSatisfy { $0["origin"] as? String == (round == 0 ? "network" : "cache") })
        }
        #expect(try workspace.server.log().count == 60, "the second round came from the cache")
    }
}

@Suite("Fetching: the cache")
struct FetchCommandCacheTests {
    /// Specs/fetching.md 2: the fragment is recorded as part of the source, but neither sent
    /// nor part of the cache key.
    @Test func aFragmentIsRecordedButNotSent() async throws {
        let workspace = try FetchWorkspace()
        let path = "/images/3-lighthouse.jpg?max-age=600"
        let gallery = workspace.file("g.imagegallery")
        var result = try await workspace.run(["create", gallery, workspace.url(path + "#first")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.server.log().map(\.path) == [path])

        result = try await workspace.run(["add", gallery, workspace.url(path + "#second"), "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(reportItems(result).first?["origin"] as? String == "cache")
        #expect(try workspace.server.log().count == 1)
        let images = try workspace.images(gallery)
        #expect(images.count == 2)
        if images.count == 2 {
            try workspace.expect(images[0], in: gallery, is: "3-lighthouse.jpg", source: workspace.url(path + "#first"))
            try workspace.expect(images[1], in: gallery, is: "3-lighthouse.jpg", source: workspace.url(path + "#second"))
        }
    }

    /// A stale entry with an ETag is revalidated: If-None-Match, 304, no body.
    @Test(arguments: ["max-age=0", "cache=no-cache"])
    func aStaleEntryIsRevalidatedWithItsETag(query: String) async throws {
        let workspace = try FetchWorkspace()
        let path = "/images/3-lighthouse.jpg?" + query
        let url = workspace.url(path)
        let gallery = workspace.file("g.imagegallery")
        var result = try await workspace.run(["create", gallery, url, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(reportItems(result).first?["origin"] as? String == "network")

        result = try await workspace.run(["add", gallery, url, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(reportItems(result).first?["origin"] as? String == "revalidated")
        let requests = try workspace.server.requests(path)
        #expect(requests.count == 2, "\(requests)")
        if requests.count == 2 {
            #expect(requests[0].ifNoneMatch == nil && requests[0].status == 200)
            #expect(requests[1].ifNoneMatch?.isEmpty == false, "\(requests[1])")
            #expect(requests[1].status == 304 && requests[1].bodyBytes == 0, "\(requests[1])")
        }
        let images = try workspace.images(gallery)
        #expect(images.count == 2)
        for image in images { try workspace.expect(image, in: gallery, is: "3-lighthouse.jpg", source: url) }
    }

    /// A fresh entry is served without asking the server.
    @Test(arguments: ["max-age=600", "expires=600"])
    func aFreshEntryIsServedWithoutARequest(query: String) async throws {
        let workspace = try FetchWorkspace()
        let path = "/images/4-dunes.jpg?" + query
        let url = workspace.url(path)
        let gallery = workspace.file("g.imagegallery")
        var result = try await workspace.run(["create", gallery, url])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.server.log().count == 1)

        result = try await workspace.run(["add", gallery, url, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(reportItems(result).first?["origin"] as? String == "cache")
        #expect(try workspace.server.log().count == 1, "the second run asked the server")
        let images = try workspace.images(gallery)
        #expect(images.count == 2)
        for image in images { try workspace.expect(image, in: gallery, is: "4-dunes.jpg", source: url) }
    }

    @Test func noStoreIsNotCached() async throws {
        let workspace = try FetchWorkspace()
        let path = "/images/2-tiles.png?cache=no-store"
        let url = workspace.url(path)
        let gallery = workspace.file("g.imagegallery")
        var result = try await workspace.run(["create", gallery, url])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(workspace.cacheEntries().isEmpty, "\(workspace.cacheEntries())")

        result = try await workspace.run(["add", gallery, url, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(reportItems(result).first?["origin"] as? String == "network")
        let requests = try workspace.server.requests(path)
        #expect(requests.map(\.status) == [200, 200], "\(requests)")
        #expect(requests.allSatisfy { $0.ifNoneMatch == nil && $0.bodyBytes == 8025 }, "\(requests)")

        let before = try FileBytes.read(gallery)
        result = try await workspace.run(["add", gallery, url, "--cache-policy", "offline"])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(failureReason(result, for: url)?.contains("not in the cache") == true, "\(result.stderr)")
        #expect(try FileBytes.read(gallery) == before)
        #expect(try workspace.server.requests(path).count == 2)
    }

    @Test func offlineIsServedFromTheCache() async throws {
        let workspace = try FetchWorkspace()
        // Stale at once: offline serves it anyway, without asking.
        let path = "/images/6-bubbles.png?max-age=0"
        let url = workspace.url(path)
        var result = try await workspace.run(["create", workspace.file("first.imagegallery"), url])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.server.log().count == 1)

        let gallery = workspace.file("offline.imagegallery")
        result = try await workspace.run(["create", gallery, url, "--cache-policy", "offline", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(reportItems(result).first?["origin"] as? String == "cache")
        try workspace.expect(try workspace.images(gallery).first, in: gallery, is: "6-bubbles.png", source: url)
        #expect(try workspace.server.log().count == 1, "offline asked the server")
    }

    @Test func offlineFailsOnAMiss() async throws {
        let workspace = try FetchWorkspace()
        let url = workspace.url("/images/1-sunset.jpg")
        let gallery = workspace.file("g.imagegallery")
        var result = try await workspace.run(["create", gallery, url, "--cache-policy", "offline"])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(failureReason(result, for: url)?.contains("not in the cache") == true, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: gallery))

        let existing = try await workspace.gallery(named: "local.imagegallery", of: ["8-deep-gradient.png"])
        let before = try FileBytes.read(existing)
        result = try await workspace.run(["add", existing, url, "--cache-policy", "offline", "--json"])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(failureReason(result, for: url)?.contains("not in the cache") == true, "\(result.stderr)")
        #expect(try FileBytes.read(existing) == before)
        #expect(try workspace.server.log().isEmpty)
    }

    @Test func reloadAsksTheServerEvenWhenFresh() async throws {
        let workspace = try FetchWorkspace()
        let path = "/images/10-fractal.jpg?max-age=600"
        let url = workspace.url(path)
        let gallery = workspace.file("g.imagegallery")
        var result = try await workspace.run(["create", gallery, url])
        #expect(result.status == 0, "\(result.stderr)")

        result = try await workspace.run(["add", gallery, url, "--cache-policy", "reload", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(reportItems(result).first?["origin"] as? String == "network")
        let requests = try workspace.server.requests(path)
        #expect(requests.count == 2, "\(requests)")
        // A full request, without validators.
        #expect(requests.last?.ifNoneMatch == nil && requests.last?.ifModifiedSince == nil, "\(requests)")
        #expect(requests.last?.status == 200 && requests.last?.bodyBytes == 26373, "\(requests)")
        for image in try workspace.images(gallery) { try workspace.expect(image, in: gallery, is: "10-fractal.jpg", source: url) }
    }

    @Test func cacheInfoCountsAndClearEmpties() async throws {
        let workspace = try FetchWorkspace()
        var info = try await workspace.cacheInfo()
        #expect(info["entries"] as? Int == 0, "\(info)")
        #expect((info["directory"] as? String)?.hasSuffix("/cache/imagegallery/http") == true, "\(info)")

        let urls = [workspace.url("/images/1-sunset.jpg?max-age=600"), workspace.url("/images/2-tiles.png?max-age=600")]
        let result = try await workspace.run(["create", workspace.file("g.imagegallery")] + urls)
        #expect(result.status == 0, "\(result.stderr)")
        info = try await workspace.cacheInfo()
        #expect(info["entries"] as? Int == 2, "\(info)")
        #expect((info["bytes"] as? Int ?? 0) > 30301 + 8025, "\(info)")
        #expect(workspace.cacheEntries().count == 2)

        let clear = try await workspace.run(["cache", "clear", "--json"])
        #expect(clear.status == 0, "\(clear.stderr)")
        let removed = try JSONSerialization.jsonObject(with: clear.stdoutData) as? [String: Any]
        #expect(removed?["entries"] as? Int == 2, "\(clear.stdout)")
        info = try await workspace.cacheInfo()
        #expect(info["entries"] as? Int == 0, "\(info)")
        #expect(workspace.cacheEntries().isEmpty)

        // Really empty: offline has nothing to serve, and the default policy asks the server.
        let offline = try await workspace.run(["create", workspace.file("offline.imagegallery"), urls[0], "--cache-policy", "offline"])
        #expect(offline.status == 5, "\(offline.stderr)")
        try workspace.server.reset()
        let again = try await workspace.run(["create", workspace.file("again.imagegallery"), urls[0]])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try workspace.server.log().map(\.status) == [200])
    }

    /// A damaged entry is discarded and fetched again, never served.
    @Test(arguments: [("magic", 0), ("record length", 8), ("body", -1)])
    func aDamagedEntryIsFetchedAgain(part: String, offset: Int) async throws {
        let workspace = try FetchWorkspace()
        let path = "/images/1-sunset.jpg?max-age=600"
        let url = workspace.url(path)
        var result = try await workspace.run(["create", workspace.file("first.imagegallery"), url])
        #expect(result.status == 0, "\(result.stderr)")
        let entries = workspace.cacheEntries()
        try #require(entries.count == 1, "\(entries)")
        var bytes = try FileBytes.read(entries[0])
        let index = offset >= 0 ? offset : bytes.count + offset
        bytes[index] ^= 0xFF
        try FileBytes.write(bytes, to: entries[0])

        let gallery = workspace.file("again.imagegallery")
        result = try await workspace.run(["create", gallery, url, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(reportItems(result).first?["origin"] as? String == "network", "\(part)")
        // A warning names the URL (beside its "fetched" line).
        #expect(result.stderr.split(separator: "\n").contains { $0.contains(url) && !$0.hasPrefix("fetched ") },
                "\(result.stderr)")
        try workspace.expect(try workspace.images(gallery).first, in: gallery, is: "1-sunset.jpg", source: url)
        let requests = try workspace.server.requests(path)
        #expect(requests.map(\.status) == [200, 200], "\(requests)")
        #expect(requests.last?.bodyBytes == 30301, "\(requests)")

        // The entry written again is sound: offline serves the right bytes.
        let offlineCopy = workspace.file("offline-copy.imagegallery")
        result = try await workspace.run(["create", offlineCopy, url, "--cache-policy", "offline"])
        #expect(result.status == 0, "\(result.stderr)")
        try workspace.expect(try workspace.images(offlineCopy).first, in: offlineCopy, is: "1-sunset.jpg", source: url)
        #expect(try workspace.server.requests(path).count == 2)
    }

    /// An entry whose checksum is right but whose body is not an image (written by hand, or
    /// by an older version) is never served: offline fails, and the default policy drops it
    /// and asks the server again.
    @Test func aConsistentEntryThatIsNotAnImageIsNeverServed() async throws {
        let workspace = try FetchWorkspace()
        // Fresh for a day: a busy run came back to this test more than ten minutes after the first
        // fetch, and a stale entry is revalidated (a request more) before it is judged.
        let path = "/images/4-dunes.jpg?max-age=86400"
        let url = workspace.url(path)
        var result = try await workspace.run(["create", workspace.file("first.imagegallery"), url])
        #expect(result.status == 0, "\(result.stderr)")
        let entries = workspace.cacheEntries()
        try #require(entries.count == 1, "\(entries)")

        // The layout of Specs/fetching.md 6.2: magic, record length, JSON record, body.
        let bytes = try FileBytes.read(entries[0])
        let length = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
        var record = try #require(try JSONSerialization.jsonObject(with: Data(bytes[12 ..< 12 + length])) as? [String: Any])
        let page = Array("<!doctype html><title>Not found</title><h1>404 Not Found</h1>\n".utf8)
        record["bodyLength"] = page.count
        record["bodySHA256"] = SHA256Hasher.of(page).hex
        let json = Array(try JSONSerialization.data(withJSONObject: record))
        let count = UInt32(json.count)
        try FileBytes.write(Array(bytes[0 ..< 8]) + [UInt8(count & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count >> 16 & 0xFF),
                                                     UInt8(count >> 24)] + json + page, to: entries[0])

        let forged = try FileBytes.read(entries[0])
        let offline = workspace.file("offline.imagegallery")
        result = try await workspace.run(["create", offline, url, "--cache-policy", "offline"])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(failureReason(result, for: url) != nil, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: offline))
        #expect(workspace.cacheEntries().isEmpty, "the entry that is not an image was dropped")

        // Under the default policy the entry is dropped and the server asked again.
        try FileBytes.write(forged, to: entries[0])
        let gallery = workspace.file("again.imagegallery")
        result = try await workspace.run(["create", gallery, url])
        #expect(result.status == 0, "\(result.stderr)")
        try workspace.expect(try workspace.images(gallery).first, in: gallery, is: "4-dunes.jpg", source: url)
        let requests = try workspace.server.requests(path)
        #expect(requests.map(\.bodyBytes) == [17834, 17834], "\(requests)")
    }

    /// Specs/fetching.md 6.1: folders 0700 and files 0600, since the cache shows what was fetched.
    @Test func theCacheIsPrivateToItsUser() async throws {
        let workspace = try FetchWorkspace()
        let result = try await workspace.run(["create", workspace.file("g.imagegallery"), workspace.url("/images/2-tiles.png?max-age=600")])
        #expect(result.status == 0, "\(result.stderr)")
        let root = workspace.cacheHome + "/imagegallery"
        let walker = try #require(FileManager.default.enumerator(atPath: root))
        var checked = 0
        for case let relative as String in walker {
            let attributes = try FileManager.default.attributesOfItem(atPath: root + "/" + relative)
            let mode = (attributes[.posixPermissions] as? Int) ?? -1
            #expect(mode & 0o077 == 0, "\(relative): mode \(String(mode, radix: 8))")
            checked += 1
        }
        let top = (try FileManager.default.attributesOfItem(atPath: root)[.posixPermissions] as? Int) ?? -1
        #expect(top & 0o077 == 0, "imagegallery: mode \(String(top, radix: 8))")
        #expect(checked >= 2 && workspace.cacheEntries().count == 1)
    }
}
