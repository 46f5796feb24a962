/// What an image file says about how its colour numbers are to be read (issue 31): nothing (sRGB,
/// as every viewer reads an untagged image), sRGB said outright, an ICC profile, H.273 code
/// points, or PNG's gamma and chromaticities. Read by bounded code of our own before any colour
/// engine sees it; the profile's own contents are the engine's to check.
package enum ColourDescription: Sendable, Equatable {
    /// No description: the numbers are sRGB.
    case unspecified
    /// The file says sRGB (PNG's `sRGB` chunk).
    case sRGB
    /// An ICC profile's bytes as stored: zlib-compressed when `compressed` (PNG's `iCCP`).
    case iccProfile([UInt8], compressed: Bool)
    /// Coding-independent code points (ITU-T H.273): PNG's `cICP`, HEIF's `colr` of type `nclx`.
    case codePoints(primaries: Int, transfer: Int, matrix: Int, fullRange: Bool)
    /// PNG's `gAMA` (the file gamma × 100,000) and, when given, `cHRM`'s eight values × 100,000
    /// (white point x, y, then red, green and blue x, y).
    case gamma(Int, chromaticities: [Int]?)

    /// The largest ICC profile read (as stored, compressed or not). Real profiles are a few
    /// kilobytes, camera and printer ones up to a megabyte; past this the image is read as sRGB.
    package static let largestProfile = 4 << 20

    /// The colour description of an image of `type` read through `read(offset, count)`. A GIF
    /// has none: its colours are sRGB. Throws only when the file is not of `type`, or when an
    /// AVIF's or HEIC's boxes cannot be read as far as the primary item's properties.
    package static func of(_ type: MediaType, size: UInt64,
                           read: @escaping (UInt64, Int) throws -> [UInt8]) throws -> ColourReading {
        switch type {
        case .jpeg: try ofJPEG(size: size, read: read)
        case .png: try ofPNG(size: size, read: read)
        case .webp: try ofWebP(size: size, read: read)
        case .gif: ColourReading(.unspecified)
        case .avif, .heic: try ofHEIF(size: size, read: read)
        }
    }
}

/// A file's colour description, and why a description that is there cannot be used when it
/// cannot (the image is then read as sRGB, with this as the warning).
package struct ColourReading: Sendable, Equatable {
    package var description: ColourDescription
    /// The problem in words that name where it is (a chunk, a segment, a byte offset).
    package var problem: String?

    package init(_ description: ColourDescription, problem: String? = nil) {
        self.description = description
        self.problem = problem
    }

    /// Read as sRGB, because of `problem`.
    package static func unusable(_ problem: String) -> ColourReading { ColourReading(.unspecified, problem: problem) }
}
