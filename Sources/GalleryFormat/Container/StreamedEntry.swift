import Dispatch
import Foundation

/// An entry read into memory on another thread, so the caller can consume the first bytes
/// while later ones are still being inflated. `manifest.json` is decoded this way: the
/// inflate and the JSON decode then share the two cores instead of taking turns.
final class StreamedEntry: @unchecked Sendable {
    private let storage: UnsafeMutableRawBufferPointer
    let count: Int
    // Guards `filled`, `finished` and `failure`; the bytes below `filled` are immutable.
    private let condition = NSCondition()
    private var filled = 0
    private var finished = false
    private var failure: (any Error)?

    /// Starts reading `entry`; refuses, before allocating, an entry larger than `limit`.
    init(_ entry: ZipEntry, of archive: ZipArchive, limit: Int) throws {
        guard entry.uncompressedSize <= UInt64(limit) else {
            throw GalleryError(.zipBomb, "the entry declares \(entry.uncompressedSize) bytes; at most \(limit) are read",
                               location: archive.location(entry))
        }
        count = Int(entry.uncompressedSize)
        storage = .allocate(byteCount: max(count, 1), alignment: 64)
        // The producer holds `self` until it is done, so the storage outlives every write.
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            do {
                var offset = 0
                try archive.read(entry) { chunk in
                    // read(_:sink:) refuses to produce more than the declared size.
                    UnsafeMutableRawBufferPointer(rebasing: storage[offset ..< offset + chunk.count]).copyMemory(from: chunk)
                    offset += chunk.count
                    condition.lock()
                    filled = offset
                    condition.broadcast()
                    condition.unlock()
                }
                finish(nil)
            } catch {
                finish(error)
            }
        }
    }

    deinit { storage.deallocate() }

    private func finish(_ error: (any Error)?) {
        condition.lock()
        failure = error
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The bytes ready so far, waiting until there are at least `wanted` or the read ended.
    func available(atLeast wanted: Int) -> UnsafeRawBufferPointer {
        condition.lock()
        while filled < min(wanted, count), !finished { condition.wait() }
        let ready = filled
        condition.unlock()
        return UnsafeRawBufferPointer(start: storage.baseAddress, count: ready)
    }

    /// All the bytes, once the read has ended; throws what the read threw (CRC, size, …).
    func complete() throws -> UnsafeRawBufferPointer {
        condition.lock()
        while !finished { condition.wait() }
        let error = failure
        condition.unlock()
        if let error { throw error }
        return UnsafeRawBufferPointer(start: storage.baseAddress, count: count)
    }
}
