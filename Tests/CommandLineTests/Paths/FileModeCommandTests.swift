import Foundation
import GalleryTestSupport
import Testing

/// The modes of the files the commands write follow the umask, and no command learns the umask
/// by setting it: `umask(0); umask(mask)` clears it for every thread of the process for a moment,
/// and a file another thread creates in that moment gets mode 0666.
@Suite("File modes of written files")
struct FileModeCommandTests {
    /// Runs `imagegallery` under `umask` and strace, which logs every umask(2) call of the
    /// process and its threads (and no signals: a job-control SIGCONT is not a call). Returns
    /// the result and the calls logged.
    static func run(_ arguments: [String], umask: String, in directory: TemporaryDirectory) throws -> (ProcessResult, [String]) {
        let strace = try #require(Subprocess.which("strace"), "strace is not installed: run scripts/install-deps test")
        let log = directory.file("strace-\(UUID().uuidString).log")
        let result = try Subprocess.run("/bin/sh", ["-c", "umask \(umask) && exec \"$@\"", "sh",
                                                    strace, "-f", "-qq", "-e", "trace=umask", "-e", "signal=none", "-o", log,
                                                    try TestPaths.binary()] + arguments)
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        return (result, calls)
    }

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test(arguments: [("027", 0o640), ("002", 0o664)])
    func writtenFilesFollowTheUmaskWhichNoCommandChanges(umask: String, expected: Int) throws {
        let directory = try TemporaryDirectory()
        let gallery = directory.file("g.imagegallery")
        // create and extract: a named temporary file (mkstemp) renamed into place.
        let (created, createCalls) = try Self.run(["create", gallery, "--title", "Modes", TestPaths.fixture("images/1-sunset.jpg")],
                                                  umask: umask, in: directory)
        try #require(created.status == 0, "\(created.stderr)")
        #expect(createCalls.isEmpty, "create called umask(2): \(createCalls)")
        #expect(try Self.mode(gallery) == expected)

        let out = directory.file("out")
        let (extracted, extractCalls) = try Self.run(["extract", gallery, "--to", out], umask: umask, in: directory)
        try #require(extracted.status == 0, "\(extracted.stderr)")
        #expect(extractCalls.isEmpty, "extract called umask(2): \(extractCalls)")
        let images = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(images.count == 1)
        for image in images { #expect(try Self.mode(out + "/" + image) == expected, "\(image)") }

        // An edit: a nameless file (O_TMPFILE) that takes the replaced file's mode.
        #expect(chmod(gallery, 0o600) == 0)
        let (renamed, renameCalls) = try Self.run(["rename", gallery, "Renamed"], umask: umask, in: directory)
        try #require(renamed.status == 0, "\(renamed.stderr)")
        #expect(renameCalls.isEmpty, "rename called umask(2): \(renameCalls)")
        #expect(try Self.mode(gallery) == 0o600, "an edit keeps the document's mode")
    }
}
