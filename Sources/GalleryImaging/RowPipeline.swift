#if canImport(Glibc)
import GallerySystem
// The mutex and conditions of this compute code, named one by one: the rest of the C library
// (files, processes, the clock) is GallerySystem's alone.
import struct Glibc.pthread_cond_t
import struct Glibc.pthread_mutex_t
import func Glibc.pthread_cond_destroy
import func Glibc.pthread_cond_init
import func Glibc.pthread_cond_signal
import func Glibc.pthread_cond_wait
import func Glibc.pthread_mutex_destroy
import func Glibc.pthread_mutex_init
import func Glibc.pthread_mutex_lock
import func Glibc.pthread_mutex_unlock
#endif

/// Rows handed from a decoder on the calling thread to a consumer (a thumbnail's filter) on a
/// second thread, through a small ring of rows: the two take turns on two cores instead of one
/// waiting for the other. giflib's LZW and libavif's colour conversion run beside the filter.
///
/// The consumer sees every row once, in order, as with a direct call. When no thread can be
/// started (an address-space cap, a thread limit), the rows go to the consumer on the calling
/// thread, as they would without the pipeline.
final class RowPipeline: @unchecked Sendable {
    /// Rows held at most: enough to smooth the two sides' pace, small beside a decode.
    static let capacity = 64
    /// Rows that gather before a consumer waiting on an empty ring is woken. Each wake is a
    /// system call on both sides and a switch of threads, dearer in a virtual machine than
    /// filtering a row of a DCT-scaled decode: a 24 MP JPEG at 1/8 gives 500 rows, each of
    /// which woke the consumer when it waited for them one at a time.
    static let wakeAfter = 16

    /// The memory a pipeline of rows of `rowBytes` holds, for a caller's budget.
    static func bytesNeeded(rowBytes: Int) -> Int { capacity * rowBytes + stackBytes }

    private static let stackBytes = 256 << 10

    private let rowBytes: Int
    private let ring: UnsafeMutablePointer<UInt8>
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private let filled: UnsafeMutablePointer<pthread_cond_t>
    private let emptied: UnsafeMutablePointer<pthread_cond_t>
    private let consume: (UnsafeBufferPointer<UInt8>) -> Void
    // Guarded by `lock`.
    private var first = 0
    private var count = 0
    private var closed = false
    /// Returns of the consumer from waiting on an empty ring; read once it has been joined.
    private var wakes = 0

    private init(rowBytes: Int, consume: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.rowBytes = rowBytes
        self.consume = consume
        ring = .allocate(capacity: Self.capacity * rowBytes)
        lock = .allocate(capacity: 1)
        filled = .allocate(capacity: 1)
        emptied = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        pthread_cond_init(filled, nil)
        pthread_cond_init(emptied, nil)
    }

    deinit {
        pthread_cond_destroy(emptied)
        pthread_cond_destroy(filled)
        pthread_mutex_destroy(lock)
        emptied.deallocate()
        filled.deallocate()
        lock.deallocate()
        ring.deallocate()
    }

    /// Runs `produce` on this thread, handing each row it gives (`rowBytes` long) to `consume`
    /// on a second thread; returns once `consume` has seen the last row. When `produce` throws,
    /// the rows it gave are still consumed, the thread is joined, and the error is rethrown.
    /// `threaded` false hands the rows over on this thread, as when no thread can be started.
    static func run<Result>(rowBytes: Int, threaded: Bool = true, consume: (UnsafeBufferPointer<UInt8>) -> Void,
                            produce: (_ rows: (UnsafeBufferPointer<UInt8>) -> Void) throws -> Result) rethrows -> Result {
        try runCountingWakes(rowBytes: rowBytes, threaded: threaded, consume: consume, produce: produce).made
    }

    /// `run`, also telling how often the consumer was woken from an empty ring.
    static func runCountingWakes<Result>(
        rowBytes: Int, threaded: Bool = true, consume: (UnsafeBufferPointer<UInt8>) -> Void,
        produce: (_ rows: (UnsafeBufferPointer<UInt8>) -> Void) throws -> Result
    ) rethrows -> (made: Result, wakes: Int) {
        try withoutActuallyEscaping(consume) { consume in
            let pipeline = RowPipeline(rowBytes: rowBytes, consume: consume)
            guard threaded, let thread = pipeline.start() else { return (try produce(consume), 0) }
            let made: Result
            do {
                defer { pipeline.close(joining: thread) }
                made = try produce(pipeline.push)
            }
            return (made, pipeline.wakes)
        }
    }

    private func start() -> SystemThread? {
        // The thread holds the pipeline until it has drained it.
        SystemThread.start(stackBytes: Self.stackBytes) { [self] in drain() }
    }

    private func push(_ row: UnsafeBufferPointer<UInt8>) {
        precondition(row.count == rowBytes)
        pthread_mutex_lock(lock)
        while count == Self.capacity { pthread_cond_wait(emptied, lock) }
        let slot = (first + count) % Self.capacity
        pthread_mutex_unlock(lock)
        // The consumer reads only the slots counted in, so this one is ours until then.
        (ring + slot * rowBytes).update(from: row.baseAddress!, count: rowBytes)
        pthread_mutex_lock(lock)
        count += 1
        // Only a consumer that found the ring empty waits for this; it is woken once a batch
        // has gathered, or when the ring is closed.
        if count == Self.wakeAfter { pthread_cond_signal(filled) }
        pthread_mutex_unlock(lock)
    }

    /// The second thread: every row in order, until closed and empty.
    private func drain() {
        while true {
            pthread_mutex_lock(lock)
            while count == 0 && !closed {
                pthread_cond_wait(filled, lock)
                wakes += 1
            }
            guard count > 0 else {
                pthread_mutex_unlock(lock)
                return
            }
            let slot = first
            pthread_mutex_unlock(lock)
            consume(UnsafeBufferPointer(start: ring + slot * rowBytes, count: rowBytes))
            pthread_mutex_lock(lock)
            first = (first + 1) % Self.capacity
            count -= 1
            // Only a producer that found the ring full waits for this.
            if count == Self.capacity - 1 { pthread_cond_signal(emptied) }
            pthread_mutex_unlock(lock)
        }
    }

    private func close(joining thread: SystemThread) {
        pthread_mutex_lock(lock)
        closed = true
        pthread_cond_signal(filled)
        pthread_mutex_unlock(lock)
        thread.join()
    }
}
