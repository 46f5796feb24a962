import Foundation
@testable import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// The child-process type that replaced Foundation's `Process` in imagegallery: real programs
/// (sh, cat), real pipes, the statuses a shell would report.
@Suite("Child processes")
struct ChildProcessTests {
    func readAll(_ child: ChildProcess) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            let chunk = try child.read()
            if chunk.isEmpty { return bytes }
            bytes += chunk
        }
    }

    @Test func inputGoesInAndOutputComesBack() throws {
        // More than a pipe holds (64 KiB), so that a writer that never closed its end, or a
        // reader that stopped early, would hang or lose bytes here.
        let input = (0 ..< 300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let directory = try TemporaryDirectory()
        let child = try ChildProcess("/bin/sh", arguments: ["-c", "cat >\"$0\"; cat \"$0\"", directory.file("copy")],
                                     input: .pipe, output: .pipe)
        try child.write(input)
        child.closeInput()
        #expect(try readAll(child) == input)
        #expect(try child.wait() == .exited(0))
    }

    @Test func theStatusIsTheChildsOrOneHundredTwentyEightAndTheSignal() throws {
        #expect(try ChildProcess("/bin/sh", arguments: ["-c", "exit 7"]).wait() == .exited(7))
        let killed = try ChildProcess("/bin/sh", arguments: ["-c", "kill -TERM $$"]).wait()
        #expect(killed == .signalled(15))
        #expect(killed.status == 143)
    }

    @Test func aMissingProgramIsAnErrorNamingIt() throws {
        #expect {
            _ = try ChildProcess("/nonexistent/imagegallery-helper", arguments: [])
        } throws: { error in
            guard let error = error as? FileSystemError else { return false }
            return error.kind == .notFound && "\(error)" == "/nonexistent/imagegallery-helper: cannot run: No such file or directory"
        }
    }

    /// The running child's descriptors, as /proc shows them: number to what it names. A
    /// descriptor closed while we look is left out.
    func descriptors(of child: ChildProcess) throws -> [String: String] {
        let folder = "/proc/\(child.processID)/fd"
        var found: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            found[name] = try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + name)
        }
        return found
    }

    /// The child's descriptors once they are `numbers`, or as they stand after 30 s (the sleeps
    /// below outlast that). sleep opens and closes its locale files as it starts (CI once saw
    /// LC_NAME as 3), so one look can catch one of those; a descriptor we let through stays for
    /// the child's whole life, and still fails the test.
    func descriptors(of child: ChildProcess, settlingTo numbers: Set<String>) throws -> [String: String] {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let seen = try descriptors(of: child)
            if Set(seen.keys) == numbers || ContinuousClock.now > deadline { return seen }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Descriptors 0 and 1 of the child are /dev/null or our standard error as asked, and
    /// nothing we opened without close-on-exec reaches it.
    @Test func theChildGetsOnlyTheDescriptorsItIsGiven() throws {
        let directory = try TemporaryDirectory()
        let leaked = try FileDescriptor.open(directory.file("open"), .writeOnly, options: .create, permissions: .ownerReadWrite)
        defer { try? leaked.close() }
        let quiet = try ChildProcess("/bin/sleep", arguments: ["600"], input: .nothing, output: .nothing)
        // Killed before anything can throw: a sleep left behind would hold our standard error.
        let looked = Result { try descriptors(of: quiet, settlingTo: ["0", "1", "2"]) }
        kill(quiet.processID, SIGKILL)
        #expect(try quiet.wait() == .signalled(SIGKILL))
        let seen = try looked.get()
        #expect(seen["0"] == "/dev/null" && seen["1"] == "/dev/null", "\(seen)")
        #expect(Set(seen.keys) == ["0", "1", "2"], "\(seen)")

        let toError = try ChildProcess("/bin/sleep", arguments: ["600"], output: .standardError)
        let errorLooked = Result { try descriptors(of: toError, settlingTo: ["0", "1", "2"]) }
        kill(toError.processID, SIGKILL)
        _ = try toError.wait()
        let errorSeen = try errorLooked.get()
        #expect(errorSeen["1"] != nil && errorSeen["1"] == errorSeen["2"], "\(errorSeen)")
    }

    /// A child that ends without reading its input: the write fails (EPIPE, not a signal that
    /// kills us), and the status still says how it ended.
    @Test func aChildThatStopsReadingEndsTheWriteNotUs() throws {
        let child = try ChildProcess("/bin/sh", arguments: ["-c", "exit 3"], input: .pipe)
        #expect(try child.wait() == .exited(3))
        let again = try ChildProcess("/bin/sh", arguments: ["-c", "exec 0<&-; sleep 0.1; exit 4"], input: .pipe)
        #expect(throws: FileSystemError.self) { try again.write([UInt8](repeating: 1, count: 1 << 20)) }
        #expect(try again.wait() == .exited(4))
        // A reader that goes in the middle of a long write: the kernel raises SIGPIPE although
        // that write returns the part it took.
        let partway = try ChildProcess("/bin/sh", arguments: ["-c", "head -c 1000 >/dev/null; exit 5"], input: .pipe)
        #expect(throws: FileSystemError.self) { try partway.write([UInt8](repeating: 1, count: 8 << 20)) }
        #expect(try partway.wait() == .exited(5))
    }

    /// Our ends of the child's pipes are close-on-exec, so no program another thread starts
    /// meanwhile holds them (and keeps the child from seeing the end of its input).
    @Test func ourEndsOfThePipesAreCloseOnExec() throws {
        let child = try ChildProcess("/bin/cat", arguments: [], input: .pipe, output: .pipe)
        #expect(child.pipeEnds.count == 2)
        for end in child.pipeEnds {
            #expect(fcntl(end.rawValue, F_GETFD) & FD_CLOEXEC != 0, "descriptor \(end.rawValue)")
        }
        child.closeInput()
        #expect(try child.read().isEmpty)
        #expect(try child.wait() == .exited(0))
    }
}
