import Foundation

/// Where the repository and its fixtures are, and the programs under test.
public enum TestPaths {
    /// The repository root, found from this source file's place.
    public static let repository: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { url.deleteLastPathComponent() }
        return url.path
    }()

    public static func fixture(_ relative: String) -> String { repository + "/Fixtures/" + relative }

    public static func spec(_ name: String) -> String { repository + "/Specs/" + name }

    /// Files in a fixture folder with the given extension, sorted. A folder that is missing, or
    /// that holds no such file, is an error: a test over its files would otherwise run no case.
    public static func fixtures(in folder: String, withExtension ext: String) throws -> [String] {
        let directory = fixture(folder)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw MissingTestInput(description: "the fixture folder \(directory) cannot be read: \(error)")
        }
        let found = names.filter { $0.hasSuffix("." + ext) }.sorted().map { directory + "/" + $0 }
        guard !found.isEmpty else {
            throw MissingTestInput(description: "the fixture folder \(directory) holds no .\(ext) file")
        }
        return found
    }

    /// The `imagegallery` binary under test, named by `IMAGEGALLERY_BINARY`. Never guessed: a
    /// binary found by looking around (beside the test bundle, in .build/debug) may be older
    /// than the sources. `make test` sets it to the debug build it has just made.
    public static func binary() throws -> String {
        try executable(named: "IMAGEGALLERY_BINARY", example: ".build/debug/imagegallery")
    }

    /// The fetch helper under test, named by `IMAGEGALLERY_FETCH_BINARY`. `imagegallery` runs
    /// the helper beside itself, so this must be that very file.
    public static func fetchHelper() throws -> String {
        try helper(named: "IMAGEGALLERY_FETCH_BINARY", beside: binary(), example: ".build/debug/imagegallery-fetch")
    }

    /// The static release binary (`--static-swift-stdlib`), named by `IMAGEGALLERY_STATIC_BINARY`:
    /// what the desktop clients, the address-space caps and the hostile corpus are run against.
    public static func staticBinary() throws -> String {
        try executable(named: "IMAGEGALLERY_STATIC_BINARY", example: ".build/release/imagegallery")
    }

    /// The fetch helper beside the static binary, named by `IMAGEGALLERY_STATIC_FETCH_BINARY`.
    public static func staticFetchHelper() throws -> String {
        try helper(named: "IMAGEGALLERY_STATIC_FETCH_BINARY", beside: staticBinary(), example: ".build/release/imagegallery-fetch")
    }

    /// What the Makefile's test target sets, for the messages.
    static let howToSet = "`make test` sets IMAGEGALLERY_BINARY, IMAGEGALLERY_FETCH_BINARY, IMAGEGALLERY_STATIC_BINARY and "
        + "IMAGEGALLERY_STATIC_FETCH_BINARY to the programs it has just built (see the Makefile's test target); "
        + "to run the tests by hand, build them and set the same variables"

    static func executable(named variable: String, example: String) throws -> String {
        guard let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty else {
            throw MissingTestInput(description: "\(variable) is not set: it must name the program under test "
                                   + "(e.g. \(repository)/\(example)). \(howToSet)")
        }
        guard path.hasPrefix("/") else {
            throw MissingTestInput(description: "\(variable)=\(path) is not an absolute path (tests run programs from other folders)")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              FileManager.default.isExecutableFile(atPath: path) else {
            throw MissingTestInput(description: "\(variable)=\(path): no executable file there (not built?). \(howToSet)")
        }
        return path
    }

    static func helper(named variable: String, beside binary: String, example: String) throws -> String {
        let helper = try executable(named: variable, example: example)
        let besideIt = (binary as NSString).deletingLastPathComponent + "/imagegallery-fetch"
        guard let named = identity(helper), let found = identity(besideIt), named == found else {
            throw MissingTestInput(description: "\(variable)=\(helper), but \(binary) runs the helper beside it, "
                                   + "\(besideIt), which is \(identity(besideIt) == nil ? "missing" : "another file")")
        }
        return helper
    }

    /// Device and inode of a file, links followed.
    private static func identity(_ path: String) -> [UInt64]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }
}

/// A program or fixture folder the tests need is not there: the test fails with this message.
public struct MissingTestInput: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) { self.description = description }
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

    /// Runs the `imagegallery` under test (`TestPaths.binary()`).
    public static func imagegallery(_ arguments: [String], in directory: String? = nil,
                                    environment: [String: String]? = nil, standardInput: String? = nil) throws -> ProcessResult {
        try run(try TestPaths.binary(), arguments, in: directory, environment: environment, standardInput: standardInput)
    }

    /// Runs the `imagegallery` under test under GNU time: its result and peak resident memory in MiB.
    ///
    /// Under the sanitizers (scripts/test-sanitize) the binary under test is built with
    /// AddressSanitizer, whose shadow memory, redzones and quarantine make its resident memory
    /// several times the program's own: no measure of it. There the same command runs twice:
    /// first the sanitized binary, whose result is returned (so it meets the hostile input too),
    /// then the plain build named by `IMAGEGALLERY_MEMORY_BINARY`, whose peak memory is returned
    /// and whose exit status must be the same.
    public static func imagegalleryPeakMemory(_ arguments: [String]) throws -> (result: ProcessResult, mebibytes: Double) {
        guard let plain = Sanitizers.memoryBinary else { return try peakMemory(try TestPaths.binary(), arguments) }
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
