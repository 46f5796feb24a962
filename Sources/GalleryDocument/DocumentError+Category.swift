import GalleryFormat

extension DocumentError: CategorizedError {
    /// A document someone else holds is `ErrorCategory/busy`; an image or version asked for
    /// that is not there, `ErrorCategory/usage`; a document that cannot be saved (closed, or
    /// hard-linked), `ErrorCategory/output`; content that does not fit, `ErrorCategory/data`.
    public var category: ErrorCategory {
        switch kind {
        case .editingDisabled: .busy
        case .noSuchImage, .ambiguousImage, .indexOutOfRange, .unknownVersion: .usage
        case .hardLinked, .closed: .output
        case .changedSinceAdded, .notAGallery, .differentDocument, .breaksFormatRule: .data
        }
    }
}

extension GalleryMerge.DifferentDocuments: CategorizedError {
    /// Always `ErrorCategory/data`: the three galleries given share no history.
    public var category: ErrorCategory { .data }
}
