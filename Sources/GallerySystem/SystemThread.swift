import Dispatch
import Glibc

/// A thread of the system's own, started with a stack of a chosen size and joined by its owner.
/// Used where Foundation's `Thread` would bring Foundation, and with it ICU, into programs that
/// must stay small (the confined thumbnailer), and where a task would hold a thread of the
/// shared pool for as long as it blocks.
package struct SystemThread: @unchecked Sendable {
    private let thread: pthread_t

    /// Starts `body` on a new thread; nil when the system refuses one (a process limit, an
    /// address-space cap too low for the stack), so that the caller can do the work itself.
    package static func start(stackBytes: Int? = nil, _ body: @escaping @Sendable () -> Void) -> SystemThread? {
        final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackBytes { pthread_attr_setstacksize(&attributes, stackBytes) }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        let started = pthread_create(&thread, &attributes, { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            return nil
        }
        return SystemThread(thread: thread)
    }

    /// The nice value a background thread runs at, where the process's other threads run at 0.
    package static let backgroundNiceness: Int32 = 10

    /// Runs `body` on a thread of its own, detached, at nice `backgroundNiceness`, behind the
    /// process's other threads: for work nobody waits for at once, such as reading every photo
    /// of a large gallery for its metadata. A browser showing the editor's page on the same
    /// cores then goes first: with the survey of 100,000 photos on one of two cores, its frames
    /// stalled for up to 433 ms while it scrolled (RESULTS.md ac.1.11). Where the system refuses
    /// a thread, `body` runs on Dispatch's pool instead, at the process's priority.
    package static func runInBackground(_ body: @escaping @Sendable () -> Void) {
        let thread = start {
            // This thread's alone: on Linux nice is kept for each thread, and `who` 0 names the
            // calling one. Without privileges it may be raised but not lowered again, so the
            // thread ends with it.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, backgroundNiceness)
            body()
        }
        guard let thread else { return DispatchQueue.global(qos: .utility).async(execute: body) }
        thread.detach()
    }

    /// Waits for the thread's body to return.
    package func join() { pthread_join(thread, nil) }

    /// Lets the thread end without being joined (its resources go when it returns).
    package func detach() { pthread_detach(thread) }
}

/// A mutex with one condition variable (what Foundation's `NSCondition` is), for threads that
/// hand work to each other without Foundation.
package final class SystemCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
    /// Unlocks, waits for a broadcast, and locks again (spurious wake-ups included: loop).
    package func wait() { pthread_cond_wait(condition, mutex) }
    package func broadcast() { pthread_cond_broadcast(condition) }
}
