import GalleryFormat

/// An image whose metadata cannot be rewritten safely: a broken structure (a directory loop, an
/// offset past the end), a limit passed, or data a strip would lose (a motion photo's video).
/// The message names the byte offset in the image; callers add the file and the entry. The
/// image is left as it was.
public struct MetadataError: Error, Sendable, DetailedError {
    /// Where (the byte offset in the image, and whatever place the caller adds) and what.
    public var detail: ErrorDetail

    /// A problem `message` at byte `offset` of the image, when known.
    public init(_ message: String, offset: Int? = nil) {
        detail = ErrorDetail(at: Location(offset: offset.map { UInt64($0) }), message)
    }

    /// The message with its byte offset after it, as a list of images left alone says it:
    /// "the EXIF block at byte 2 cannot be read: the EXIF IFD0 at 4000 lies outside the block (20
    /// bytes) (byte 2)".
    public var reason: String {
        detail.location.offset.map { "\(message) (byte \($0))" } ?? message
    }

    /// Always `ErrorCategory/data`: the image's own bytes are at fault.
    public var category: ErrorCategory { .data }
}
