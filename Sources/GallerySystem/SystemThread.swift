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
