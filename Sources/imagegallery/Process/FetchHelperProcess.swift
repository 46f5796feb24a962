import ArgumentParser
import Foundation
import GalleryFetchHelper

/// A run of `imagegallery-fetch` (see `FetchHelper` for why fetching is a separate program).
/// Its standard error is ours, so its own messages reach the user as they are.
enum FetchHelperProcess {
    /// Runs the helper with `arguments`, writes `input` to it, and hands each line of its
    /// output to `line` as it comes. Returns the helper's exit status.
    static func run(_ arguments: [String], input: Data = Data(), line: (Data) throws -> Void) throws -> Int32 {
        let helper: String
        switch FetchHelper.program.locate(environment: ProcessInfo.processInfo.environment) {
        case .success(let path): helper = path
        case .failure(let failure):
            throw CommandFailure(message: "cannot fetch: \(failure)", status: ExitStatus.unavailable)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: helper)
        process.arguments = arguments
        let standardInput = Pipe()
        let standardOutput = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        do {
            try process.run()
        } catch {
            throw CommandFailure(message: "\(helper): cannot run the fetch helper: \(error.localizedDescription)",
                                 status: ExitStatus.unavailable)
        }
        // The helper reads all of its input before it writes, so this cannot deadlock.
        try? standardInput.fileHandleForWriting.write(contentsOf: input)
        try? standardInput.fileHandleForWriting.close()

        let reader = standardOutput.fileHandleForReading
        var pending = Data()
        var failure: (any Error)?
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            guard failure == nil else { continue }  // drained, so that the helper can end
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let text = pending[pending.startIndex ..< newline]
                pending.removeSubrange(pending.startIndex ... newline)
                do { try line(Data(text)) } catch { failure = error; break }
            }
        }
        process.waitUntilExit()
        if let failure { throw failure }
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// The status as a failure of the command. A helper that exited with one of our statuses
    /// has said why on standard error, and its status becomes ours; a crash is reported here.
    static func failure(_ status: Int32, doing what: String) -> any Error {
        if status > 1, status < 128 { return ExitCode(status) }
        return CommandFailure(message: "\(what): the fetch helper \(FetchHelper.name) "
                              + (status > 128 ? "was killed by signal \(status - 128)" : "failed"),
                              status: ExitStatus.unavailable)
    }
}
