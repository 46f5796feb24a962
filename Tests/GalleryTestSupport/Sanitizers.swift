import Foundation

/// The test run under AddressSanitizer and UndefinedBehaviorSanitizer (scripts/test-sanitize),
/// which tells these tests where the sanitizers write their reports. Every program the tests
/// run inherits the options: a sanitized `imagegallery` (or the fetch helper it runs) that finds
/// an error exits with `exitStatus`, and writes its report to `<reports>.<pid>`.
public enum Sanitizers {
    /// The exit status the script gives the sanitizers; no command of ours uses it.
    public static let exitStatus: Int32 = 86

    /// The `log_path` of the sanitizer options, when the tests run under the sanitizers.
    public static let reports: String? = ProcessInfo.processInfo.environment["IMAGEGALLERY_SANITIZER_REPORTS"]
        .flatMap { $0.isEmpty ? nil : $0 }

    /// A build without sanitizers, for the tests that measure memory.
    public static let memoryBinary: String? = ProcessInfo.processInfo.environment["IMAGEGALLERY_MEMORY_BINARY"]
        .flatMap { $0.isEmpty ? nil : $0 }

    public struct Report: Error, CustomStringConvertible {
        public var description: String
    }

    public struct Mismatch: Error, CustomStringConvertible {
        public var description: String
    }

    /// Throws when a sanitizer reported an error in the process `pid` that just ended, so that
    /// the test fails even where it would not look at the exit status or standard error.
    static func check(_ pid: Int32, _ result: ProcessResult, running executable: String) throws {
        guard let reports else { return }
        let log = "\(reports).\(pid)"
        let text = try? String(contentsOfFile: log, encoding: .utf8)
        guard text != nil || result.status == exitStatus else { return }
        throw Report(description: "\(executable) (pid \(pid)) exited \(result.status) with a sanitizer report "
                     + "in \(log):\n" + (text ?? "(none for this process: one of its children's? \(others()))")
                     + "\nstandard error:\n" + result.stderr)
    }

    private static func others() -> String {
        guard let reports else { return "" }
        let folder = (reports as NSString).deletingLastPathComponent
        let prefix = (reports as NSString).lastPathComponent + "."
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix(prefix) }.sorted().map { folder + "/" + $0 }.joined(separator: ", ")
    }
}
