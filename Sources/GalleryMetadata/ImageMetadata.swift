import GalleryImageHeaders

/// An image's metadata as privacy sees it: read for a report, and removed without re-encoding.
///
/// Both work on the image's bytes in memory, through the same readers of each container (JPEG
/// segments, PNG and WebP chunks, GIF extensions, HEIF items) and of each payload (EXIF, XMP,
/// IPTC, text). Nothing decodes pixels, and a strip changes no byte of the picture: it rewrites
/// metadata structures only, and reads its own output again to check that nothing it was asked
/// to remove is left.
public enum ImageMetadata {
    /// What `bytes`, an image of `type`, carries. A container that cannot be read at all is a
    /// problem in the report, not a throw: a report lists what it could and could not see.
    public static func privacy(of bytes: [UInt8], type: MediaType) -> ImagePrivacy {
        var privacy = ImagePrivacy()
        do {
            switch type {
            case .jpeg: try JPEGLayout(bytes).report(into: &privacy)
            case .png: try PNGLayout(bytes).report(into: &privacy)
            case .webp: try WebPLayout(bytes).report(into: &privacy)
            case .gif: try GIFLayout(bytes).report(into: &privacy)
            case .avif, .heic: try HEIFLayout(bytes).report(into: &privacy)
            }
        } catch {
            privacy.problems.append(MetadataPayload.message(error))
        }
        return privacy
    }

    /// The outcome of a strip: the new bytes (nil when nothing had to change) and the fields
    /// that were there and are gone.
    public struct Strip: Sendable {
        /// The image without what was removed; nil when it carried none of it.
        public var bytes: [UInt8]?
        /// The fields that were there and are gone, as reports name them ("EXIF GPS").
        public var removed: [String]
    }

    /// `bytes` without what `scope` names, or `Strip/bytes` nil when the image carries none of it.
    ///
    /// - Throws: ``MetadataError`` when the metadata cannot be rewritten safely: a structure that
    ///   does not read (a directory loop, an offset past the end), data after a JPEG's end (a
    ///   motion photo), a HEIF metadata item that shares bytes with the picture. The image is
    ///   then to be left as it is.
    public static func strip(_ bytes: [UInt8], type: MediaType, scope: MetadataScope) throws -> Strip {
        guard !scope.isEmpty else { return Strip(bytes: nil, removed: []) }
        let before = privacy(of: bytes, type: type)
        let output: [UInt8]?
        switch type {
        case .jpeg: output = try JPEGLayout(bytes).stripped(scope)
        case .png: output = try PNGLayout(bytes).stripped(scope)
        case .webp: output = try WebPLayout(bytes).stripped(scope)
        case .gif: output = try GIFLayout(bytes).stripped(scope)
        case .avif, .heic: output = try HEIFLayout(bytes).stripped(scope)
        }
        let removed = (scope.removesLocation ? before.location : []) + (scope.removesIdentity ? before.identity : [])
        guard let output else { return Strip(bytes: nil, removed: []) }
        // The strip reads its own output: what it was to remove must be gone.
        let after = privacy(of: output, type: type)
        let left = (scope.removesLocation ? after.location : []) + (scope.removesIdentity ? after.identity : [])
        guard left.isEmpty else {
            throw MetadataError("removing \(scope.description) left \(left.joined(separator: ", ")); the image is left as it is")
        }
        return Strip(bytes: output, removed: removed + (scope.contains(.allMetadata) ? ["all other metadata"] : []))
    }
}
