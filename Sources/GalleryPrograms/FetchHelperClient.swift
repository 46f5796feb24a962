import FoundationEssentials
import GallerySystem

/// Runs `imagegallery-fetch` for a program that takes URLs: the CLI's `create` and `add`, and
/// the editor's dropped links. Its standard error is the caller's, so the helper's own messages
/// reach the user as they are.
package enum FetchHelperClient {
    /// Why a run of the helper gave no usable answer.
    package enum Failure: Error, Sendable, CustomStringConvertible {
        /// The helper is not installed where it is looked for.
        case notFound(CompanionProgram.LocateFailure)
        /// It could not be started.
        case cannotRun(helper: String, reason: String)
        /// Its output was not what the protocol says.
        case garbled(String)

        package var description: String {
            switch self {
            case .notFound(let failure): "\(failure)"
            case .cannotRun(let helper, let reason): "\(helper): cannot run the fetch helper: \(reason)"
            case .garbled(let reason): reason
            }
        }
    }

    /// Runs the helper with `arguments`, writes `input` to it, and hands each line of its
    /// output to `line` as it comes. Returns the helper's exit status (128 + the signal when a
    /// signal ended it). An error thrown by `line` is rethrown once the helper has ended.
    /// `environment` is where the helper is looked for; nil, this process's.
    package static func run(_ arguments: [String], input: Data = Data(),
                           environment: [String: String]? = nil,
                           line: (Data) throws -> Void) throws -> Int32 {
        let helper: String
        switch FetchHelper.program.locate(environment: environment ?? CurrentProcess.environment) {
        case .success(let path): helper = path
        case .failure(let failure): throw Failure.notFound(failure)
        }
        let process: ChildProcess
        do {
            process = try ChildProcess(helper, arguments: arguments, input: .pipe, output: .pipe)
        } catch {
            throw Failure.cannotRun(helper: helper, reason: error.reason)
        }
        // The helper reads all of its input before it writes, so this cannot deadlock. A
        // helper that ends without reading it says why on standard error, and by its status.
        try? process.write([UInt8](input))
        process.closeInput()

        var pending: [UInt8] = []
        var failure: (any Error)?
        while true {
            let chunk = (try? process.read()) ?? []
            if chunk.isEmpty { break }
            guard failure == nil else { continue }  // drained, so that the helper can end
            pending.append(contentsOf: chunk)
            var start = 0
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                do { try line(Data(pending[start ..< newline])) } catch { failure = error; break }
                start = newline + 1
            }
            pending.removeSubrange(..<start)
        }
        let termination: ChildProcess.Termination
        do {
            termination = try process.wait()
        } catch {
            throw Failure.cannotRun(helper: helper, reason: error.reason)
        }
        if let failure { throw failure }
        return termination.status
    }

    /// Fetches `request`'s URLs: every event goes to `event` as it comes (for progress), and
    /// the results are gathered. The caller removes the spool when done with the images.
    ///
    /// - Returns: the results, and the helper's exit status; a status other than 0, or no
    ///   `end` event, means the helper failed (it said why on standard error).
    package static func fetch(_ request: FetchHelperRequest,
                             environment: [String: String]? = nil,
                             event: (FetchHelperEvent) throws -> Void = { _ in }) throws -> (run: FetchRun, status: Int32) {
        var run = FetchRun()
        var ended = false
        let status: Int32
        do {
            status = try Self.run(["fetch"], input: try JSONEncoder().encode(request), environment: environment) { line in
                let decoded: FetchHelperEvent
                do {
                    decoded = try JSONDecoder().decode(FetchHelperEvent.self, from: line)
                } catch {
                    throw Failure.garbled("the fetch helper's output could not be read: \(error)")
                }
                try run.record(decoded)
                if decoded.event == .end { ended = true }
                try event(decoded)
            }
        } catch {
            run.removeSpool()
            throw error
        }
        guard status == 0, ended else {
            run.removeSpool()
            return (FetchRun.none, status == 0 ? 1 : status)
        }
        return (run, 0)
    }
}
