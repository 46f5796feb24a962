import FoundationEssentials
import Synchronization
import SystemPackage

/// Names changing in one folder, as inotify reports them: a file written and closed, created,
/// removed, or renamed in or out (a safe save is a rename in). The document layer's presenter
/// and the editor's folder listing are built on it.
///
/// Events of a burst are gathered for `settle` before they are handed on, so that a save (a
/// temporary file created, written, renamed over the old name) arrives as one change; a burst
/// that goes on is handed on after five times `settle`, so that a busy folder cannot hide a change.
package final class FolderWatch: Sendable {
    package let folder: String
    private let descriptor: FileDescriptor
    private let flag = StopFlag()
    private let thread = Mutex<SystemThread?>(nil)

    /// Shared with the watch's thread, which must not hold the watch itself (so it can go).
    private final class StopFlag: Sendable {
        let stopped = Atomic<Bool>(false)
    }

    /// Starts watching `folder`; `changed` gets the set of names after each burst, on a thread
    /// of the watch's own (`folderGone` when the folder itself was removed or moved: the watch
    /// then ends).
    package init(folder: String, settle: Duration = .milliseconds(100),
                 changed: @escaping @Sendable (_ names: Set<String>, _ folderGone: Bool) -> Void) throws(FileSystemError) {
        self.folder = folder
        descriptor = try Syscalls.inotifyInit().get(path: folder, operation: "watch (inotify_init1)")
        do throws(FileSystemError) {
            _ = try Syscalls.inotifyWatch(descriptor, folder: folder).get(path: folder, operation: "watch")
        } catch {
            try? descriptor.close()
            throw error
        }
        let settleMilliseconds = Int32(settle.components.seconds * 1000 + settle.components.attoseconds / 1_000_000_000_000_000)
        let started = SystemThread.start { [descriptor, flag] in
            defer { try? descriptor.close() }
            var pending = Set<String>()
            var gone = false
            var burstStart = ContinuousClock.now
            // A folder that never falls quiet (a lock file opened and closed every few
            // milliseconds by a waiting writer) still has its burst reported after this long.
            let longestBurst = settle * 5
            while !flag.stopped.load(ordering: .relaxed) {
                // Short waits while a burst is gathering, longer ones otherwise, so that stop()
                // is seen within a fifth of a second either way.
                let ready = (try? Syscalls.waitReadable(descriptor, milliseconds: pending.isEmpty ? 200 : settleMilliseconds).get()) ?? false
                if ready, case .success(let batch) = Syscalls.readInotifyNames(descriptor) {
                    if pending.isEmpty { burstStart = ContinuousClock.now }
                    pending.formUnion(batch.names)
                    gone = gone || batch.folderGone
                    if ContinuousClock.now - burstStart < longestBurst { continue }
                }
                if !pending.isEmpty || gone {
                    changed(pending, gone)
                    pending = []
                    if gone { return }
                }
            }
        }
        guard let started else {
            try? descriptor.close()
            throw FileSystemError(.resourceTemporarilyUnavailable, path: folder, operation: "watch (start a thread)")
        }
        thread.withLock { $0 = started }
    }

    /// Stops watching; returns once the watch's thread has ended (no call of `changed` after).
    package func stop() {
        guard !flag.stopped.exchange(true, ordering: .relaxed) else { return }
        thread.withLock { $0 }?.join()
    }

    deinit {
        // Not stopped: the thread sees the flag within a fifth of a second and ends unjoined.
        if !flag.stopped.exchange(true, ordering: .relaxed) { thread.withLock { $0 }?.detach() }
    }
}
