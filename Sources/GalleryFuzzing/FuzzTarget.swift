/// The entry points the fuzzers drive (Specs/security.md, "Fuzzing"). Each takes arbitrary bytes
/// and must return for every input: a thrown error is a clean result, a trap or a sanitizer
/// report is a bug.
///
/// They live in a library, not in the fuzz executables, so that the regression tests run each
/// crash the fuzzers ever found (Fixtures/fuzz/) through exactly the same code.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The ZIP container reader: end records, central directory, local headers, every entry read.
    case container
    /// The manifest decoder on `manifest.json` bytes.
    case manifest
    /// `validate --deep`, end to end on a file's bytes.
    case validator
    /// The JPEG decoder (libjpeg-turbo under our limits) and its structure check.
    case jpeg
    /// The PNG decoder (libpng under our limits).
    case png
    /// What the thumbnailer serves for a gallery file.
    case thumbnail
    /// The foreign-archive importer (libarchive) behind `convert`.
    case archive
    /// Format 2.0's header readers (WebP, GIF, and the ISOBMFF boxes of AVIF and HEIC), which
    /// run before any image library sees the bytes, and the reader of an image's own
    /// description (EXIF, XMP, PNG text).
    case headers
    /// The WebP decoder (libwebp 1.2.4 after our chunk reader), still and animated.
    case webp
    /// The GIF decoder (giflib 5.2.1, record by record, after our block reader).
    case gif
    /// The AVIF decoder (libavif 0.11.1 with dav1d, after our box reader).
    case avif
    /// The HEIC decoder (libheif 1.15.1 with libde265, after our box reader).
    case heic
    /// The colour path: an image's colour description (or bytes as an ICC profile) read and
    /// checked by our code, then converted to sRGB by Little CMS.
    case colour
    /// The privacy path: an image's metadata read, then stripped of location, identity and all
    /// metadata, each output read again and decoded to the original's pixels.
    case metadata

    /// Runs one input. A refusal is a clean result: only a trap can fail a fuzz run.
    @discardableResult
    public func run(_ bytes: UnsafeRawBufferPointer) -> FuzzOutcome {
        switch self {
        case .container: FuzzEntries.container(bytes)
        case .manifest: FuzzEntries.manifest(bytes)
        case .validator: FuzzEntries.validator(bytes)
        case .jpeg: FuzzEntries.jpeg(bytes)
        case .png: FuzzEntries.png(bytes)
        case .thumbnail: FuzzEntries.thumbnail(bytes)
        case .archive: FuzzEntries.archive(bytes)
        case .headers: FuzzEntries.headers(bytes)
        case .webp: FuzzEntries.decode(bytes, as: .webp)
        case .gif: FuzzEntries.decode(bytes, as: .gif)
        case .avif: FuzzEntries.decode(bytes, as: .avif)
        case .heic: FuzzEntries.decode(bytes, as: .heic)
        case .colour: FuzzEntries.colour(bytes)
        case .metadata: FuzzEntries.metadata(bytes)
        }
    }

    @discardableResult
    public func run(_ bytes: [UInt8]) -> FuzzOutcome {
        bytes.withUnsafeBytes { run($0) }
    }
}

/// How an input ended; the regression tests use it to show that each target reaches the code
/// it is meant to (a sound input is accepted) as well as surviving the rest.
public enum FuzzOutcome: Sendable, Equatable {
    case accepted
    case refused
}
