import GalleryFormat

extension FetchHelperClient.Failure: CategorizedError {
    /// Always ``ErrorCategory/unavailable``: the helper is missing, cannot run, or answered
    /// outside its protocol, so no URL can be fetched.
    package var category: ErrorCategory { .unavailable }
}

extension CompanionProgram.LocateFailure: CategorizedError {
    /// Always ``ErrorCategory/unavailable``: the program is not installed where it is looked for.
    package var category: ErrorCategory { .unavailable }
}

extension FetchItemFailure: CategorizedError {
    /// Always ``ErrorCategory/nothingAdded``: this URL gave no image, so nothing of it was added.
    package var category: ErrorCategory { .nothingAdded }
}
