import Foundation

public enum Subprocess {
    /// Runs `executable` with `arguments` and waits; stdin is the given file, or empty.
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                           environment: [String: String]? = nil, standardInput: String? = nil) throws -> ProcessResult {
        let (process, out, err) = try start(executable, arguments, in: directory, environment: environment,
                                            standardInput: standardInput)
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

    /// Starts the program with its output on pipes, waiting out a short ETXTBSY: a program just
    /// copied (``FileBytes/copyProgram(_:to:)``) can still be open for writing in a child that
    /// another test spawned in the instant before its exec closed the descriptor.
    private static func start(_ executable: String, _ arguments: [String], in directory: String?,
                              environment: [String: String]?, standardInput: String?) throws -> (Process, Pipe, Pipe) {
        for attempt in 1... {
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
            do {
                try process.run()
                return (process, out, err)
            } catch let error as NSError where attempt < 50 && (error.userInfo[NSUnderlyingErrorKey] as? NSError)
                .map({ $0.domain == NSPOSIXErrorDomain && $0.code == Int(ETXTBSY) }) == true {
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        fatalError("unreachable: the last attempt returns or throws")
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
