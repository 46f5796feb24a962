import GalleryFormat

extension FetchFailure: CategorizedError {
    /// What this URL's failure would be as a command's only failure: a URL that cannot be
    /// fetched at all is `ErrorCategory/usage`; one that is not there (not in the cache, a
    /// 404 or 410), `ErrorCategory/missingInput`; a server that cannot be reached or answers
    /// badly, `ErrorCategory/unavailable`; bytes that are no usable image,
    /// `ErrorCategory/data`; an image that could not be kept, `ErrorCategory/io`.
    public var category: ErrorCategory {
        switch reason {
        case .invalidURL, .unsupportedScheme: .usage
        case .notInCache: .missingInput
        case .httpStatus(let code, _, _): code == 404 || code == 410 ? .missingInput : .unavailable
        case .connectionFailed, .connectTimedOut, .transferTimedOut, .tooManyRedirects, .redirectLoop, .badRedirect,
             .retryWaitTooLong: .unavailable
        case .notAnImageType, .typeMismatch, .tooLarge, .badImage: .data
        case .notKept: .io
        }
    }
}
