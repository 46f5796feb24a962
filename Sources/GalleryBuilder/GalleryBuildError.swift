/// Why a gallery could not be built, naming the file or folder at fault.
public struct GalleryBuildError: Error, Sendable, CustomStringConvertible {
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
    /// The source or output at fault.
    public var path: String
    /// What is wrong with it, without the path.
    public var message: String

    /// An error from its parts.
    public init(_ kind: Kind, path: String, _ message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// `PATH: message`.
    public var description: String { "\(path): \(message)" }
}
