import GalleryFormat

/// Why a gallery could not be built, naming the file or folder at fault.
public struct GalleryBuildError: Error, Sendable, DetailedError {
    /// What went wrong, for callers that react to it rather than show it.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// A source named by the caller does not exist.
        case noSuchSource
        /// A source is neither a regular file nor a folder (a device, a socket, a FIFO).
        case notAFileOrFolder
        /// A folder given as a source cannot be listed.
        case cannotListFolder
        /// The output exists and may not be replaced.
        case outputExists
        /// A source file changed between being hashed and being committed.
        case sourceChanged
    }

    /// What went wrong.
    public var kind: Kind
    /// The source or output at fault, what is wrong with it, and the error underneath; printed
    /// as `PATH: message`.
    public var detail: ErrorDetail

    /// An error from its parts; `underlying` is the error that caused it, when one did.
    public init(_ kind: Kind, path: String, _ message: String, underlying: (any Error)? = nil) {
        self.kind = kind
        self.detail = ErrorDetail(at: Location(file: path), message, underlying: underlying)
    }
}
