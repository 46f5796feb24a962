import GalleryFormat

extension NotAnImageError: CategorizedError {
    /// Always `ErrorCategory/data`: the file is there, but not an image the gallery can hold.
    public var category: ErrorCategory { .data }
}

extension ImageDecodeError: CategorizedError {
    /// Always `ErrorCategory/data`: corrupt pixels, or an image past a decode limit, are the
    /// image's fault either way.
    public var category: ErrorCategory {
        switch kind {
        case .corrupt, .pastLimit: .data
        }
    }
}
