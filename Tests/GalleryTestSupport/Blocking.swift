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

extension Subprocess {
    /// ``run(_:_:in:environment:standardInput:)`` on a thread of its own (``Blocking``), for
    /// async tests that start long or many programs.
    public static func runBlocking(_ executable: String, _ arguments: [String], in directory: String? = nil,
                                   environment: [String: String]? = nil) async throws -> ProcessResult {
        try await Blocking.run { try run(executable, arguments, in: directory, environment: environment) }
    }

    /// ``imagegallery(_:in:environment:standardInput:)`` on a thread of its own.
    public static func imagegalleryBlocking(_ arguments: [String], in directory: String? = nil,
                                            environment: [String: String]? = nil) async throws -> ProcessResult {
        try await Blocking.run { try imagegallery(arguments, in: directory, environment: environment) }
    }
}
