/// What a failure is to whoever meets it, whichever library threw it: the person at the
/// terminal (an exit status) or the page of the editor (an HTTP status), or a program that runs
/// a command by a convention of its own (CI reading `validate`, git running `merge-driver`).
///
/// Every error the libraries throw says its category (``CategorizedError``), derived from its
/// own kind; ``exitStatus`` and ``httpStatus`` are then read from one table, so that the
/// command line and the editor cannot disagree about whose fault a failure is.
public enum ErrorCategory: Sendable, Hashable, CaseIterable {
    /// What was asked makes no sense: a bad argument, an image that is not there by that name,
    /// a position outside the gallery.
    case usage
    /// The input is there but wrong: a gallery that breaks a rule, a file that is not an image.
    case data
    /// The input is not there, or cannot be opened.
    case missingInput
    /// The output cannot be made: it exists already, or its place cannot be written.
    case output
    /// Reading or writing failed part way: the disk is full, the device gave an error.
    case io
    /// Someone else holds what was asked for (another editor holds the document).
    case busy
    /// An edit reached the disk only as a version (someone else had changed the file), or a
    /// merge kept one side where both had changed something.
    case conflict
    /// Some of the images asked for were not added; the rest were.
    case partlyAdded
    /// None of the images asked for could be added; nothing was written.
    case nothingAdded
    /// A program or service needed is missing or failed: the fetch helper, a server.
    case unavailable
    /// A check found what it looks for: a gallery with a fatal or error finding (or, under
    /// `--strict`, a warning). `validate`'s verdict, not a failure of the checker, so it has
    /// the code CI tools expect from a checker rather than sysexits.h's.
    case invalid
    /// A check could not be made: a usage problem, or an input or output one (a path that is
    /// not there or cannot be read, a report that cannot be written). `validate`'s other code,
    /// one for all of these, as CI tools expect from a checker.
    case checkNotMade
    /// A merge run by git as its merge driver kept our side where both sides changed
    /// something: ``conflict``, with the code git's own merge drivers give it.
    case mergeConflict
    /// A bug: a failure no category above describes.
    case `internal`
}

extension ErrorCategory {
    /// The one table: each category's exit status (after sysexits.h, documented in
    /// `imagegallery --help`, but for the outcomes of `validate` and `merge-driver`, whose
    /// callers' conventions set theirs) and HTTP status. 500 means the server's own failure, so
    /// only ``internal`` and ``io`` answer it.
    private var statuses: (exit: Int32, http: Int) {
        switch self {
        case .internal: (1, 500)
        case .conflict: (3, 409)
        case .partlyAdded: (4, 422)
        case .nothingAdded: (5, 422)
        case .usage: (64, 422)
        case .data: (65, 422)
        case .missingInput: (66, 404)
        case .unavailable: (69, 503)
        case .output: (73, 422)
        case .io: (74, 500)
        case .busy: (75, 409)
        case .invalid: (1, 422)
        case .checkNotMade: (2, 422)
        case .mergeConflict: (1, 409)
        }
    }

    /// The exit status of a command that fails this way (1 for ``internal``, else 3 to 5 or
    /// sysexits.h's 64 to 75; 1 and 2 for `validate`'s outcomes, 1 for `merge-driver`'s).
    public var exitStatus: Int32 { statuses.exit }

    /// The HTTP status of a request that fails this way: 4xx for the request's fault, 409 for
    /// a document held or changed by someone else, 503 for a helper that is missing, and 500
    /// for ``internal`` and ``io`` only.
    public var httpStatus: Int { statuses.http }

    /// The category of any error: its own when it is a ``CategorizedError``, else ``internal``
    /// (an error no library declares is a bug).
    public init(of error: any Error) {
        self = (error as? any CategorizedError)?.category ?? .internal
    }
}

/// An error that says what kind of failure it is, so that programs map it to an exit status
/// or an HTTP status through ``ErrorCategory``'s one table rather than a switch of their own.
public protocol CategorizedError: Error {
    /// What kind of failure this is, derived from the error's own kind.
    var category: ErrorCategory { get }
}
