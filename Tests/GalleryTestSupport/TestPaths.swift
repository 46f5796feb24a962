import Foundation

/// Where the repository, its fixtures and the built binary are.
public enum TestPaths {
    /// The repository root, found from this source file's place.
    public static let repository: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { url.deleteLastPathComponent() }
        return url.path
    }()

    public static func fixture(_ relative: String) -> String { repository + "/Fixtures/" + relative }

    public static func spec(_ name: String) -> String { repository + "/Specs/" + name }

    /// Files in a fixture folder with the given extension, sorted.
    public static func fixtures(in folder: String, withExtension ext: String) -> [String] {
        let directory = fixture(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix("." + ext) }.sorted().map { directory + "/" + $0 }
    }

    /// The `imagegallery` binary built beside the test bundle.
    public static let binary: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // On some runners the test bundle sits one level deeper.
        for _ in 0 ..< 3 {
            let candidate = folder.appendingPathComponent("imagegallery").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder.deleteLastPathComponent()
        }
        return repository + "/.build/debug/imagegallery"
    }()
}

/// A fresh folder under the system temporary folder, removed when dropped.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init() throws {
        var template = Array((NSTemporaryDirectory() + "/imagegallery-test-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw CocoaError(.fileWriteUnknown)
        }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Copies a fixture here, so no test can change the original.
    public func copy(_ source: String, as name: String? = nil) throws -> String {
        let target = file(name ?? URL(fileURLWithPath: source).lastPathComponent)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        return target
    }
}

/// The result of running a program.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var stdoutData: Data

    public init(status: Int32, stdout: String, stderr: String, stdoutData: Data) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.stdoutData = stdoutData
    }
}

public enum Subprocess {
    /// Runs `executable` with `arguments` and waits; stdin is the given file, or empty.
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                           environment: [String: String]? = nil, standardInput: String? = nil) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = try standardInput.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) }
            ?? FileHandle.nullDevice
        try process.run()
        // Read both pipes while the child runs, so a large output cannot block it.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let result = ProcessResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                                   stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
        try Sanitizers.check(process.processIdentifier, result, running: executable)
        return result
    }

    /// Runs the built `imagegallery`.
    public static func imagegallery(_ arguments: [String], in directory: String? = nil,
                                    environment: [String: String]? = nil, standardInput: String? = nil) throws -> ProcessResult {
        try run(TestPaths.binary, arguments, in: directory, environment: environment, standardInput: standardInput)
    }

    /// Runs the built `imagegallery` under GNU time: its result and peak resident memory in MiB.
    ///
    /// Under the sanitizers (scripts/test-sanitize) the binary beside the tests is built with
    /// AddressSanitizer, whose shadow memory, redzones and quarantine make its resident memory
    /// several times the program's own: no measure of it. There the same command runs twice:
    /// first the sanitized binary, whose result is returned (so it meets the hostile input too),
    /// then the plain build named by `IMAGEGALLERY_MEMORY_BINARY`, whose peak memory is returned
    /// and whose exit status must be the same.
    public static func imagegalleryPeakMemory(_ arguments: [String]) throws -> (result: ProcessResult, mebibytes: Double) {
        guard let plain = Sanitizers.memoryBinary else { return try peakMemory(TestPaths.binary, arguments) }
        let sanitized = try imagegallery(arguments)
        let measured = try peakMemory(plain, arguments)
        guard measured.result.status == sanitized.status else {
            throw Sanitizers.Mismatch(description: "\(arguments): the sanitized binary exited \(sanitized.status), "
                                      + "the plain one (\(plain), measured) \(measured.result.status): "
                                      + sanitized.stderr + measured.result.stderr)
        }
        return (sanitized, measured.mebibytes)
    }

    private static func peakMemory(_ binary: String, _ arguments: [String]) throws -> (result: ProcessResult, mebibytes: Double) {
        let directory = try TemporaryDirectory()
        let report = directory.file("time.txt")
        let result = try run("/usr/bin/time", ["-f", "%M", "-o", report, binary] + arguments)
        let text = try String(contentsOfFile: report, encoding: .utf8)
        guard let kibibytes = text.split(separator: "\n").last.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: report])
        }
        return (result, kibibytes / 1024)
    }

    /// The full path of a program on PATH, if installed.
    public static func which(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

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

public enum FileBytes {
    public static func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    public static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}

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
