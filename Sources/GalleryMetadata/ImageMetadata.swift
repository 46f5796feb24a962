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
            try Layout(bytes, type: type).report(into: &privacy)
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
        // One reading of the container serves the report of what is there and the strip.
        let layout = try Layout(bytes, type: type)
        var before = ImagePrivacy()
        layout.report(into: &before)
        guard let output = try layout.stripped(scope) else { return Strip(bytes: nil, removed: []) }
        // The strip reads its own output: what it was to remove must be gone.
        let after = privacy(of: output, type: type)
        // A hostile packet that reads only by leniency may not read once a property is gone.
        if before.problems.isEmpty, let problem = after.problems.first {
            throw MetadataError("removing \(scope.description) would leave metadata that does not read (\(problem))")
        }
        let left = after.fields(in: scope)
        guard left.isEmpty else {
            throw MetadataError("removing \(scope.description) left \(left.joined(separator: ", "))")
        }
        return Strip(bytes: output, removed: before.removed(by: scope))
    }
}

/// One container's reader, whichever the type: the walk a report and a strip share.
enum Layout {
    case jpeg(JPEGLayout), png(PNGLayout), webp(WebPLayout), gif(GIFLayout), heif(HEIFLayout)

    init(_ bytes: [UInt8], type: MediaType) throws {
        switch type {
        case .jpeg: self = .jpeg(try JPEGLayout(bytes))
        case .png: self = .png(try PNGLayout(bytes))
        case .webp: self = .webp(try WebPLayout(bytes))
        case .gif: self = .gif(try GIFLayout(bytes))
        case .avif, .heic: self = .heif(try HEIFLayout(bytes))
        }
    }

    func report(into privacy: inout ImagePrivacy) {
        switch self {
        case .jpeg(let layout): layout.report(into: &privacy)
        case .png(let layout): layout.report(into: &privacy)
        case .webp(let layout): layout.report(into: &privacy)
        case .gif(let layout): layout.report(into: &privacy)
        case .heif(let layout): layout.report(into: &privacy)
        }
    }

    func stripped(_ scope: MetadataScope) throws -> [UInt8]? {
        switch self {
        case .jpeg(let layout): try layout.stripped(scope)
        case .png(let layout): try layout.stripped(scope)
        case .webp(let layout): try layout.stripped(scope)
        case .gif(let layout): try layout.stripped(scope)
        case .heif(let layout): try layout.stripped(scope)
        }
    }
}
