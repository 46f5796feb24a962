import ArgumentParser
import FoundationEssentials
import GalleryPrograms

/// The fetch helper's runs (`FetchHelperClient`), with their failures as the command's.
enum FetchHelperProcess {
    /// Runs the helper with `arguments` and hands each line of its output to `line`; see
    /// `FetchHelperClient.run`.
    static func run(_ arguments: [String], input: Data = Data(), line: (Data) throws -> Void) throws -> Int32 {
        do {
            return try FetchHelperClient.run(arguments, input: input, line: line)
        } catch let failure as FetchHelperClient.Failure {
            throw commandFailure(failure)
        }
    }

    static func commandFailure(_ failure: FetchHelperClient.Failure) -> CommandFailure {
        switch failure {
        case .notFound, .cannotRun: CommandFailure(message: "cannot fetch: \(failure)", status: ExitStatus.unavailable)
        case .garbled: CommandFailure(message: "\(failure)", status: ExitStatus.unavailable)
        }
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
