import GalleryBuilder
import GalleryFormat

/// The documented exit codes (see `imagegallery --help`), after sysexits.h: names for the rows
/// of the one table, `ErrorCategory.exitStatus`, for the failures a command finds itself.
enum ExitStatus {
    static let internalError = ErrorCategory.internal.exitStatus
    /// An edit reached the disk as a version only (someone else had changed the file), or a
    /// merge kept one side where both had changed something.
    static let conflict = ErrorCategory.conflict.exitStatus
    /// Some of the images asked for (URLs that failed) were not added; the rest were.
    static let partlyAdded = ErrorCategory.partlyAdded.exitStatus
    /// None of the images asked for could be added; nothing was written.
    static let nothingAdded = ErrorCategory.nothingAdded.exitStatus
    static let usage = ErrorCategory.usage.exitStatus
    static let dataError = ErrorCategory.data.exitStatus
    static let noInput = ErrorCategory.missingInput.exitStatus
    /// The fetch helper (imagegallery-fetch) is missing or failed: URLs cannot be fetched.
    static let unavailable = ErrorCategory.unavailable.exitStatus
    static let cannotCreate = ErrorCategory.output.exitStatus
    static let ioError = ErrorCategory.io.exitStatus
    /// Another editor held the document for longer than --wait.
    static let locked = ErrorCategory.busy.exitStatus
    /// validate: a file has errors (or warnings, with --strict).
    static let invalid = ErrorCategory.invalid.exitStatus
    /// validate: a usage or input/output problem; no verdict.
    static let checkNotMade = ErrorCategory.checkNotMade.exitStatus
    /// merge-driver: both sides changed the same thing; ours is kept.
    static let mergeConflict = ErrorCategory.mergeConflict.exitStatus
}

extension CommandFailure {
    /// What a failure a command met is to the person at the terminal: one clear line and the
    /// exit status of the error's category (`ErrorCategory`). The one place where errors become
    /// exit codes; an error of no category is a bug, reported as an internal error.
    init(_ error: any Error) {
        if let failure = error as? CommandFailure {
            self = failure
            return
        }
        let category = ErrorCategory(of: error)
        guard category != .internal else {
            self.init(message: "internal error: \(error)", status: ExitStatus.internalError)
            return
        }
        self.init(message: (error as? GalleryBuildError)?.kind == .outputExists
                      ? "\(error) (use --force to replace it)" : "\(error)",
                  status: category.exitStatus)
    }
}

/// A failure the command itself detected, with its message and exit code.
struct CommandFailure: Error {
    var message: String
    var status: Int32
}
