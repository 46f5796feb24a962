import GalleryFormat

extension EditorError: CategorizedError {
    /// A request the editor cannot make sense of, or a path outside its folders, is
    /// ``ErrorCategory/usage``; a gallery no longer there, ``ErrorCategory/missingInput``; the
    /// server's record that cannot be written, ``ErrorCategory/output``. (The editor answers a
    /// path outside its folders 403, which no category says: see `Responses.status(for:)`.)
    package var category: ErrorCategory {
        switch self {
        case .badRequest, .notAFolderOrGallery, .outsideOpenedPaths: .usage
        case .noSuchGallery: .missingInput
        case .cannotListen: .output
        }
    }
}
