/// What every library error says besides its kind: where the failure is (a ``Location``), what
/// is wrong (a message), and the error that caused it, when one did.
///
/// The libraries' errors that name a file (`DocumentError`, `GalleryBuildError`,
/// `ConversionError`, `NotAnImageError`), and `ImageDecodeError`, whose caller names the image,
/// each hold one of these and add only their own `Kind` and category (``DetailedError``), so
/// that "where, what and why" is written once and every such error prints the same way.
public struct ErrorDetail: Sendable {
    /// Where: the file or folder at fault, and the entry inside it, when there is one.
    public var location: Location
    /// What is wrong, in words for people, as the rest of the sentence after the place.
    public var message: String
    /// The error this one wraps (a `FileSystemError` under a document's failure, say), kept
    /// whole so that callers can look at its kind; its text is already part of ``message``.
    public var underlying: (any Error)?

    /// A failure at `location`, explained by `message`, caused by `underlying` when given.
    public init(at location: Location = Location(), _ message: String, underlying: (any Error)? = nil) {
        self.location = location
        self.message = message
        self.underlying = underlying
    }

    /// `FILE: ENTRY: message`, each part of the place that is known followed by a colon (an
    /// offset as `@ OFFSET`), or the message alone when the place is not known.
    public var description: String {
        var parts: [String] = []
        if let file = location.file { parts.append(file) }
        if let entry = location.entry { parts.append(entry) }
        if let offset = location.offset { parts.append("@ \(offset)") }
        if let pointer = location.jsonPointer { parts.append(pointer.isEmpty ? "(manifest root)" : pointer) }
        parts.append(message)
        return parts.joined(separator: ": ")
    }
}

/// An error of the shared shape: an ``ErrorDetail`` (where, what, why) beside the type's own
/// kind, from which its category comes. Its description is the detail's, so that every such
/// error prints as `FILE: ENTRY: message`.
public protocol DetailedError: CategorizedError, CustomStringConvertible, Sendable {
    /// Where the failure is, what is wrong, and the error underneath.
    var detail: ErrorDetail { get set }
}

extension DetailedError {
    /// The detail's description: `FILE: ENTRY: message`.
    public var description: String { detail.description }

    /// The file or folder at fault (a source, a document as it was opened, an output in the
    /// way), as given; empty when the failure has no file.
    public var path: String {
        get { detail.location.file ?? "" }
        set { detail.location.file = newValue }
    }

    /// What is wrong, in words for people, without the place.
    public var message: String {
        get { detail.message }
        set { detail.message = newValue }
    }

    /// The error this one wraps, when it wraps one (see ``ErrorDetail/underlying``).
    public var underlying: (any Error)? { detail.underlying }
}
