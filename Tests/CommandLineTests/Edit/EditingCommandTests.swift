import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

@Suite("Editing commands")
struct EditingCommandTests {
    @Test func addRemoveMoveCaptionRename() throws {
        let workspace = try EditingWorkspace(images: 2)
        let g = workspace.gallery
        var result = try workspace.run(["add", g, try workspace.image(7), "--at", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.names() == ["image-7.png", "image-0.png", "image-1.png"])

        result = try workspace.run(["move", g, "image-7.png", "--to", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.names() == ["image-0.png", "image-1.png", "image-7.png"])

        result = try workspace.run(["caption", g, "2", "Two\tlines\nhere"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.content().images[1].caption == "Two\tlines\nhere")

        result = try workspace.run(["rename", g, "Summer"])
        #expect(result.status == 0)
        #expect(try workspace.content().title == "Summer")

        let id = try workspace.content().images[0].id.manifestString
        // The start of the id with its first dash: eight hex digits alone may all be decimal ones
        // (one random id in 44), and a number names an image by position (ImageReference).
        result = try workspace.run(["remove", g, String(id.prefix(9)), "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        #expect(report?["outcome"] as? String == "saved" && report?["imageCount"] as? Int == 2)
        #expect(try workspace.names() == ["image-1.png", "image-7.png"])
        #expect(try workspace.isValid())
    }

    @Test func badReferencesAreUsageErrorsAndChangeNothing() throws {
        let workspace = try EditingWorkspace(images: 2)
        let before = try FileBytes.read(workspace.gallery)
        for arguments in [["remove", workspace.gallery, "9"], ["move", workspace.gallery, "1", "--to", "5"],
                          ["caption", workspace.gallery, "nothing.png", "x"], ["add", workspace.gallery, "--at", "9",
                                                                                try workspace.image(3)]] {
            let result = try workspace.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(workspace.gallery) || result.stderr.contains("--at"), "\(result.stderr)")
        }
        #expect(try FileBytes.read(workspace.gallery) == before)
    }

    @Test func transferMovesAndCopies() throws {
        let workspace = try EditingWorkspace(images: 3)
        let other = workspace.directory.file("other.imagegallery")
        #expect(try workspace.run(["create", other, try workspace.image(9)]).status == 0)
        var result = try workspace.run(["transfer", workspace.gallery, other, "2", "3", "--at", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.names() == ["image-0.png"])
        #expect(try workspace.names(other) == ["image-1.png", "image-2.png", "image-9.png"])
        result = try workspace.run(["transfer", other, workspace.gallery, "image-9.png", "--copy"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.names() == ["image-0.png", "image-9.png"])
        #expect(try workspace.names(other).count == 3)
        #expect(try workspace.isValid() && workspace.isValid(other))
    }

    /// git's textconv: stable, one line per image, tabs and newlines in text escaped.
    @Test func textconvIsStable() throws {
        let workspace = try EditingWorkspace(images: 2)
        #expect(try workspace.run(["caption", workspace.gallery, "1", "a\tb\nc"]).status == 0)
        let first = try workspace.run(["textconv", workspace.gallery])
        let lines = first.stdout.split(separator: "\n")
        #expect(lines.count == 4 && lines[0] == "title\tTrip")
        #expect(lines[2].split(separator: "\t", omittingEmptySubsequences: false).last == "a\\tb\\nc")
        // "\r\n" is one Character to Swift: escaped by scalar, it still ends no line.
        #expect(try workspace.run(["caption", workspace.gallery, "2", "d\r\ne"]).status == 0)
        let crlf = try workspace.run(["textconv", workspace.gallery]).stdout
        #expect(crlf.split(separator: "\n").count == 4 && crlf.unicodeScalars.allSatisfy { $0 != "\r" }, "\(crlf)")
        #expect(crlf.contains("\td\\r\\ne\n"), "\(crlf)")
        #expect(try workspace.run(["caption", workspace.gallery, "2", ""]).status == 0)
        // A save that changes nothing listed (the title back and forth) lists the same.
        #expect(try workspace.run(["rename", workspace.gallery, "X"]).status == 0)
        #expect(try workspace.run(["rename", workspace.gallery, "Trip"]).status == 0)
        #expect(try workspace.run(["textconv", workspace.gallery]).stdout == first.stdout)
    }

    /// Another editor of this computer holds the document: the edit waits, then gives up with
    /// 75 and says who holds it.
    @Test func aHeldDocumentIsReportedAfterTheWait() throws {
        let workspace = try EditingWorkspace(images: 1)
        let lockPath = workspace.directory.file(".trip.imagegallery.lock")
        // A real holder: a process that keeps the flock, with its record written in the file.
        _ = FileManager.default.createFile(atPath: lockPath, contents: nil)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        // --no-fork: flock becomes the sleep that holds the lock, so the kill below ends the
        // holder itself (a forked sleep outlived it, and the test waited out its 30 s).
        holder.arguments = ["--no-fork", lockPath, "sleep", "30"]
        try holder.run()
        // SIGKILL, not terminate(): a child started from a thread of Swift's concurrency pool
        // inherits its blocked signals, SIGTERM among them. And waited for: a Process never
        // waited for is never freed (its run-loop source and it hold each other; LeakSanitizer
        // found it, scripts/test-sanitize).
        defer {
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        let pid = holder.processIdentifier
        // Until flock has the lock: a fixed pause was once too short for a loaded CI machine.
        let probe = open(lockPath, O_RDONLY)
        defer { close(probe) }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if flock(probe, LOCK_EX | LOCK_NB) != 0 { break }
            flock(probe, LOCK_UN)
            usleep(20_000)
        }
        #expect(flock(probe, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK, "flock never took the lock")
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let start = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")[19]
        let boot = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let record = #"{"host":"\#(ProcessInfo.processInfo.hostName)","pid":\#(pid),"processStart":\#(start),"bootID":"\#(boot)","user":"alice","session":"0f0f0f0f-0000-4000-8000-000000000000"}"#
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: lockPath))
        try handle.write(contentsOf: Data(record.utf8))
        try handle.close()
        let result = try workspace.run(["add", workspace.gallery, try workspace.image(5), "--wait", "0.3"])
        #expect(result.status == 75, "\(result.stderr)")
        #expect(result.stderr.contains("alice"), "\(result.stderr)")
        #expect(try workspace.content().images.count == 1)
    }
}
