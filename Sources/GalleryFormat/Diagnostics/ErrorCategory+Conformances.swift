import GalleryImageHeaders
public import GallerySystem

// The categories of this module's errors, and of GallerySystem's, which sits below this module
// and so cannot name ErrorCategory itself.

extension GalleryError: CategorizedError {
    /// Always ``ErrorCategory/data``: a gallery error is a verdict on the file's content.
    public var category: ErrorCategory { .data }
}

extension ImageHeaderError: CategorizedError {
    /// Always ``ErrorCategory/data``: the bytes are not an image header the format reads.
    public var category: ErrorCategory { .data }
}

extension FileSystemError: CategorizedError {
    /// A path that is not there, or not the kind of file meant, is ``ErrorCategory/missingInput``;
    /// one that exists already is ``ErrorCategory/output``; a refused permission is missing input
    /// when opening and output otherwise; a full disk or any other code is ``ErrorCategory/io``.
    public var category: ErrorCategory {
        switch kind {
        case .notFound, .isDirectory, .notDirectory: .missingInput
        case .alreadyExists: .output
        case .permissionDenied: operation == "open" ? .missingInput : .output
        case .noSpace, .other: .io
        }
    }
}
