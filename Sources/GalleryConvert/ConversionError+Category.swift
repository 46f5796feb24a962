import GalleryFormat

extension ConversionError: CategorizedError {
    /// Input that cannot be converted is `ErrorCategory/data`; an output that exists,
    /// `ErrorCategory/output`; one that cannot be written, `ErrorCategory/io`.
    public var category: ErrorCategory {
        switch kind {
        case .invalidInput: .data
        case .outputExists: .output
        case .cannotWrite: .io
        }
    }
}

extension ComicInfo.ParseError: CategorizedError {
    /// Always `ErrorCategory/data`: the archive's ComicInfo.xml is not XML this reads.
    public var category: ErrorCategory { .data }
}
