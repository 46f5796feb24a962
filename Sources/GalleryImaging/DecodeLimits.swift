/// Bounds on what decoding one image may cost, checked from the header before any pixel
/// buffer is allocated. Every image is hostile until decoded.
public struct DecodeLimits: Sendable, Hashable {
    /// Pixels a decode holds at once: a JPEG's output at the DCT scale it is decoded at (1/8
    /// of each side for a small thumbnail), a PNG's whole image only when it is kept or
    /// assembled (interlaced), else one row. So a 108-megapixel photo, decoded at 1/8 for a
    /// thumbnail, holds 1.7 megapixels (format spec, section 10).
    public var maxPixels: Int
    /// Width × height of the image: bounds the work of a decode, which reads every pixel's
    /// data whatever it keeps.
    public var maxWorkPixels: Int
    /// Memory one decode may use: the compressed bytes held, the decoder's own buffers and the
    /// output.
    public var maxBytes: Int
    /// Either side, in pixels (libpng's user limits; JPEG cannot exceed 65,535).
    public var maxSide: Int
    /// JPEG scans: a crafted progressive file can make every scan cost a full pass.
    public var maxScans: Int

    public init(maxPixels: Int = 100_000_000, maxWorkPixels: Int = 1_000_000_000, maxBytes: Int = 256 << 20,
                maxSide: Int = 1 << 20, maxScans: Int = 500) {
        self.maxPixels = maxPixels
        self.maxWorkPixels = maxWorkPixels
        self.maxBytes = maxBytes
        self.maxSide = maxSide
        self.maxScans = maxScans
    }
}

/// Why an image did not decode.
public struct ImageDecodeError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The data is not a decodable image: truncated, corrupt, a decoder warning.
        case corrupt
        /// The image may be fine but is past a ``DecodeLimits`` bound.
        case pastLimit
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

extension DecodeLimits {
    /// These limits with `bytes` of the budget already spent elsewhere (a resampled copy that
    /// lives beside the decoded image, say); refused when nothing would be left.
    func less(_ bytes: Int) throws -> DecodeLimits {
        guard bytes < maxBytes else {
            throw ImageDecodeError(.pastLimit, "the thumbnail would take \(bytes) bytes, past the memory limit of \(maxBytes)")
        }
        var rest = self
        rest.maxBytes -= bytes
        return rest
    }
}
