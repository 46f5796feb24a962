import GalleryImageHeaders

/// Decodes an image's pixels to show they are sound (`validate --deep`). This module reads
/// containers and never decodes pixels; an imaging module supplies the checker.
public protocol PixelChecker: Sendable {
    /// `read(offset, count)` returns up to `count` of the image's bytes from `offset` (fewer at
    /// the end). `maxPixels`, when given, replaces the checker's own pixel limit (the thumbnail's
    /// size is bounded by the format, whatever the user's limit for blobs). Called from several
    /// threads at once.
    func check(_ mediaType: MediaType, size: UInt64, maxPixels: Int?, read: (UInt64, Int) throws -> [UInt8]) -> PixelVerdict

    /// Why the image's colour description, which the validator's own checks passed, cannot be
    /// used by the colour engine (IG-BLB-020, a warning: the image is read as sRGB); nil when it
    /// can or there is none. Called from several threads at once.
    func colourProblem(_ mediaType: MediaType, size: UInt64, read: (UInt64, Int) throws -> [UInt8]) -> String?
}

extension PixelChecker {
    /// A checker without a colour engine finds nothing more than the validator's own checks.
    public func colourProblem(_ mediaType: MediaType, size: UInt64, read: (UInt64, Int) throws -> [UInt8]) -> String? {
        nil
    }
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
