import Foundation
@testable import GallerySystem
import GalleryTestSupport
import Synchronization
import Testing

/// The folder watch under the document layer's presenter and the editor's listing: a burst of
/// events arrives as one change, and a folder that never falls quiet still has its changes
/// handed on (a waiting writer opens and closes a lock file every few milliseconds).
@Suite("Folder watch")
struct FolderWatchTests {
    final class Seen: Sendable {
        let names = Mutex<[Set<String>]>([])
        func add(_ batch: Set<String>) { names.withLock { $0.append(batch) } }
        var all: Set<String> { names.withLock { $0.reduce(into: Set<String>()) { $0.formUnion($1) } } }
        var batches: Int { names.withLock { $0.count } }
    }

    @Test func aFileWrittenInTheFolderIsReported() throws {
        let directory = try TemporaryDirectory()
        let seen = Seen()
        let watch = try FolderWatch(folder: directory.path) { names, _ in seen.add(names) }
        defer { watch.stop() }
        try Data("x".utf8).write(to: URL(fileURLWithPath: directory.file("a.imagegallery")))
        let deadline = Date().addingTimeInterval(60)  // ends as soon as it is seen; CI can be slow
        while !seen.all.contains("a.imagegallery"), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(seen.all.contains("a.imagegallery"))
    }

    @Test func aFolderThatNeverFallsQuietStillHasItsChangesReported() throws {
        let directory = try TemporaryDirectory()
        let seen = Seen()
        let watch = try FolderWatch(folder: directory.path, settle: .milliseconds(100)) { names, _ in seen.add(names) }
        defer { watch.stop() }
        let busy = directory.file(".busy.lock")
        try Data().write(to: URL(fileURLWithPath: busy))
        // A write every 20 ms for 3 s: never 100 ms of quiet. The wish appears in the middle.
        let start = Date()
        var reportedWhileBusy = false
        while Date().timeIntervalSince(start) < 3 {
            try Data("x".utf8).write(to: URL(fileURLWithPath: busy))
            if Date().timeIntervalSince(start) > 0.5, !FileManager.default.fileExists(atPath: directory.file("wish")) {
                try Data().write(to: URL(fileURLWithPath: directory.file("wish")))
            }
            if seen.all.contains("wish") { reportedWhileBusy = true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(reportedWhileBusy, "the change was held back until the folder fell quiet")
        #expect(seen.batches >= 2)
    }
}
