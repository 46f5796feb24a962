import Foundation

/// Runs blocking work (subprocess loops, sleeps) on a thread of its own, so that a long test
/// does not hold one of the few threads Swift concurrency shares between all running tests
/// (on a 2-core machine two such tests would stall every other test's tasks, autosave's too).
public enum Blocking {
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
