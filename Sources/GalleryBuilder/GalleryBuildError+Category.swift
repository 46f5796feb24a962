import GalleryFormat

extension GalleryBuildError: CategorizedError {
    /// A source that is not there or cannot be listed is `ErrorCategory/missingInput`; an
    /// output that exists, `ErrorCategory/output`; a source that changed while it was read,
    /// `ErrorCategory/data`.
    public var category: ErrorCategory {
        switch kind {
        case .noSuchSource, .notAFileOrFolder, .cannotListFolder: .missingInput
        case .outputExists: .output
        case .sourceChanged: .data
        }
    }
}
