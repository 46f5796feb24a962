import Foundation
@testable import GallerySystem
import Testing

/// Work nobody waits for (the privacy survey of a gallery, a kept first look) runs on a thread
/// of its own behind the process's others, so that a browser scrolling on the same cores goes
/// first; the rest of the process keeps its priority.
@Suite("Background threads")
struct BackgroundThreadTests {
    /// The nice value of the thread `task` of this process (field 19 of its stat line, counted
    /// after the command's closing parenthesis, which may hold spaces).
    static func niceness(ofThread task: String) throws -> Int32 {
        let stat = try String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8)
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        return try #require(Int32(fields[16]))
    }

    /// This thread's id, as /proc/self/task names it: the link /proc/thread-self points at.
    static func threadID() throws -> String {
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
        return try #require(target.split(separator: "/").last.map(String.init))
    }

    /// The process's first thread (its id is the process's): alive for the whole run, where a
    /// test's own thread may have left the pool by the time the background work is done.
    static let firstThread = String(ProcessInfo.processInfo.processIdentifier)

    @Test func aBackgroundThreadRunsBehindTheOthersAndOnlyIt() async throws {
        let before = try Self.niceness(ofThread: Self.firstThread)
        let seen: (thread: Int32, first: Int32) = try await withCheckedThrowingContinuation { continuation in
            SystemThread.runInBackground {
                // Read by the background thread once its priority is set: its own, and the first
                // thread's at that moment.
                continuation.resume(with: Result {
                    (try Self.niceness(ofThread: try Self.threadID()), try Self.niceness(ofThread: Self.firstThread))
                })
            }
        }
        #expect(seen.thread == max(before, SystemThread.backgroundNiceness), "the background thread's own nice value")
        #expect(seen.first == before, "the process's other threads keep their priority")
    }
}
