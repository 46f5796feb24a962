import FoundationEssentials
internal import GallerySystem

/// An entry's bytes handed from a reading thread to a consumer, a few chunks at a time: the
/// consumer sees the data as it is inflated and never holds all of it. Read errors (a CRC or a
/// size that does not match) come at the end, as `readFailure`.
final class EntryChunks: JSONChunkSource, @unchecked Sendable {
    private let condition = SystemCondition()
    private var queue: [[UInt8]] = []
    private var done = false
    private var cancelled = false
    /// Why reading failed, once the consumer has reached the failure.
    private(set) var readFailure: (any Error)?
    private var failure: (any Error)?

    private struct Cancelled: Error {}
    /// Chunks waiting at most: with the reader's 256 KiB chunks, about 1 MiB.
    private static let depth = 4

    init(_ entry: ZipEntry, of archive: ZipArchive) {
        // A thread of its own rather than Dispatch's pool: libdispatch cannot start its
        // workers under a seccomp filter without epoll (the confined thumbnailer), nor always
        // under a low address-space cap; a refused thread is a clean failure here.
        let started = SystemThread.start { [self] in
            do {
                try archive.read(entry) { chunk in
                    condition.lock()
                    defer { condition.unlock() }
                    while queue.count >= Self.depth && !cancelled { condition.wait() }
                    if cancelled { throw Cancelled() }
                    queue.append(Array(chunk))
                    condition.broadcast()
                }
            } catch is Cancelled {
            } catch {
                condition.lock()
                failure = error
                condition.unlock()
            }
            condition.lock()
            done = true
            condition.broadcast()
            condition.unlock()
        }
        if let started {
            started.detach()
        } else {
            failure = FileSystemError(.resourceTemporarilyUnavailable, path: archive.file.path,
                                      operation: "read \(entry.name) (start a thread)")
            done = true
        }
    }

    deinit { cancel() }

    func nextChunk() throws -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !done { condition.wait() }
        if !queue.isEmpty {
            condition.broadcast()
            return queue.removeFirst()
        }
        if let failure {
            readFailure = failure
            throw failure
        }
        return nil
    }

    /// Reads what is left, unseen, so that a read failure after the point where the consumer
    /// stopped is still found.
    func drain() {
        do {
            while try nextChunk() != nil {}
        } catch {}
    }

    /// Stops the reading thread (the consumer has seen enough) and waits until it has stopped.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !done { condition.wait() }
        condition.unlock()
    }
}
