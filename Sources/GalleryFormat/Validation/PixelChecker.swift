import GalleryImageHeaders

/// Decodes an image's pixels to show they are sound (`validate --deep`). This module reads
/// containers and never decodes pixels; an imaging module supplies the checker.
public protocol PixelChecker: Sendable {
    /// `read(offset, count)` returns up to `count` of the image's bytes from `offset` (fewer at
    /// the end). `maxPixels`, when given, replaces the checker's own pixel limit (the thumbnail's
    /// size is bounded by the format, whatever the user's limit for blobs). Called from several
    /// threads at once.
    func check(_ mediaType: MediaType, size: UInt64, maxPixels: Int?, read: (UInt64, Int) throws -> [UInt8]) -> PixelVerdict
}

/// What decoding an image's pixels found.
public enum PixelVerdict: Sendable, Equatable {
    /// The image decoded without complaint.
    case sound
    /// The data does not decode: truncated, corrupt, or a decoder warning.
    case corrupt(String)
    /// The image was not decoded: it is past a pixel-count or memory limit.
    case pastLimit(String)
}
