import GalleryImageHeaders

/// A stable diagnostic id such as `IG-PKG-006`, with its severity.
///
/// Ids are never renumbered or reused; `Specs/diagnostics.md` lists every one, and a
/// test keeps that catalogue and ``DiagnosticCode/catalogue`` in step.
public struct DiagnosticCode: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The id, `IG-` then the area (`PKG` container, `MAN` manifest, `BLB` blobs, `THM`
    /// thumbnail) and a number: what programs match on.
    public let id: String
    /// How bad a finding with this id is; fixed per id.
    public let severity: Severity
    /// One line saying what the id means.
    public let summary: String

    init(_ id: String, _ severity: Severity, _ summary: String) {
        self.id = id
        self.severity = severity
        self.summary = summary
    }

    /// The ``id``.
    public var description: String { id }

    /// Codes are equal when their ids are.
    public static func == (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.id == rhs.id }
    /// Hashes the ``id``.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The code with this id, if it exists.
    public static func named(_ id: String) -> DiagnosticCode? { catalogue.first { $0.id == id } }
}

// MARK: - Container (ZIP)
extension DiagnosticCode {
    /// `IG-PKG-001`, fatal: not a ZIP archive.
    public static let notZip = DiagnosticCode("IG-PKG-001", .fatal, "not a ZIP archive")
    /// `IG-PKG-002`, fatal: file is empty.
    public static let emptyFile = DiagnosticCode("IG-PKG-002", .fatal, "file is empty")
    /// `IG-PKG-003`, fatal: truncated.
    public static let truncated = DiagnosticCode("IG-PKG-003", .fatal, "truncated")
    /// `IG-PKG-004`, error: mimetype entry missing.
    public static let mimetypeMissing = DiagnosticCode("IG-PKG-004", .error, "mimetype entry missing")
    /// `IG-PKG-005`, error: mimetype is not the first entry.
    public static let mimetypeNotFirst = DiagnosticCode("IG-PKG-005", .error, "mimetype is not the first entry")
    /// `IG-PKG-006`, error: mimetype is compressed.
    public static let mimetypeCompressed = DiagnosticCode("IG-PKG-006", .error, "mimetype is compressed")
    /// `IG-PKG-007`, error: mimetype has an extra field.
    public static let mimetypeExtraField = DiagnosticCode("IG-PKG-007", .error, "mimetype has an extra field")
    /// `IG-PKG-008`, error: mimetype content is wrong.
    public static let mimetypeContent = DiagnosticCode("IG-PKG-008", .error, "mimetype content is wrong")
    /// `IG-PKG-009`, error: duplicate entry name.
    public static let duplicateName = DiagnosticCode("IG-PKG-009", .error, "duplicate entry name")
    /// `IG-PKG-010`, error: unsafe entry name.
    public static let unsafeName = DiagnosticCode("IG-PKG-010", .error, "unsafe entry name")
    /// `IG-PKG-011`, error: entry name not valid UTF-8 or has control characters.
    public static let badNameEncoding = DiagnosticCode("IG-PKG-011", .error, "entry name not valid UTF-8 or has control characters")
    /// `IG-PKG-012`, error: entry is not a regular file.
    public static let notRegularFile = DiagnosticCode("IG-PKG-012", .error, "entry is not a regular file")
    /// `IG-PKG-013`, error: entry is encrypted.
    public static let encrypted = DiagnosticCode("IG-PKG-013", .error, "entry is encrypted")
    /// `IG-PKG-014`, error: unsupported compression method.
    public static let unsupportedMethod = DiagnosticCode("IG-PKG-014", .error, "unsupported compression method")
    /// `IG-PKG-015`, error: local header disagrees with central directory.
    public static let headerMismatch = DiagnosticCode("IG-PKG-015", .error, "local header disagrees with central directory")
    /// `IG-PKG-016`, error: overlapping entries.
    public static let overlappingEntries = DiagnosticCode("IG-PKG-016", .error, "overlapping entries")
    /// `IG-PKG-017`, error: bytes before the first entry.
    public static let prependedData = DiagnosticCode("IG-PKG-017", .error, "bytes before the first entry")
    /// `IG-PKG-018`, fatal: bad end-of-central-directory record.
    public static let badEndRecord = DiagnosticCode("IG-PKG-018", .fatal, "bad end-of-central-directory record")
    /// `IG-PKG-019`, fatal: bad ZIP64 end record or locator.
    public static let badZip64Record = DiagnosticCode("IG-PKG-019", .fatal, "bad ZIP64 end record or locator")
    /// `IG-PKG-020`, error: CRC-32 mismatch.
    public static let crcMismatch = DiagnosticCode("IG-PKG-020", .error, "CRC-32 mismatch")
    /// `IG-PKG-021`, error: entry size differs from its declared size.
    public static let sizeMismatch = DiagnosticCode("IG-PKG-021", .error, "entry size differs from its declared size")
    /// `IG-PKG-022`, fatal: manifest.json missing.
    public static let manifestMissing = DiagnosticCode("IG-PKG-022", .fatal, "manifest.json missing")
    /// `IG-PKG-023`, fatal: too many entries or central directory too large.
    public static let tooManyEntries = DiagnosticCode("IG-PKG-023", .fatal, "too many entries or central directory too large")
    /// `IG-PKG-024`, error: entry name too long.
    public static let nameTooLong = DiagnosticCode("IG-PKG-024", .error, "entry name too long")
    /// `IG-PKG-025`, warning: unreferenced bytes after the last entry.
    public static let hiddenData = DiagnosticCode("IG-PKG-025", .warning, "unreferenced bytes after the last entry")
    /// `IG-PKG-026`, error: mimetype has a data descriptor.
    public static let mimetypeDataDescriptor = DiagnosticCode("IG-PKG-026", .error, "mimetype has a data descriptor")
    /// `IG-PKG-027`, error: compression ratio or total size past the limit.
    public static let zipBomb = DiagnosticCode("IG-PKG-027", .error, "compression ratio or total size past the limit")
    /// `IG-PKG-028`, error: entry names equal after normalisation or case folding.
    public static let confusableNames = DiagnosticCode("IG-PKG-028", .error, "entry names equal after normalisation or case folding")
    /// `IG-PKG-029`, error: corrupt deflate stream.
    public static let corruptDeflate = DiagnosticCode("IG-PKG-029", .error, "corrupt deflate stream")
    /// `IG-PKG-030`, error: bad central directory entry.
    public static let badCentralEntry = DiagnosticCode("IG-PKG-030", .error, "bad central directory entry")
    /// `IG-PKG-031`, error: unreferenced bytes hold a local file header.
    public static let hiddenLocalHeader = DiagnosticCode("IG-PKG-031", .error, "unreferenced bytes hold a local file header")
    /// `IG-PKG-032`, error: unreferenced bytes between two entries.
    public static let bytesBetweenEntries = DiagnosticCode("IG-PKG-032", .error, "unreferenced bytes between two entries")
    /// `IG-PKG-033`, error: stored entry with a data descriptor.
    public static let storedDataDescriptor = DiagnosticCode("IG-PKG-033", .error, "stored entry with a data descriptor")
}

// MARK: - Manifest
extension DiagnosticCode {
    /// `IG-MAN-001`, fatal: JSON syntax error.
    public static let jsonSyntax = DiagnosticCode("IG-MAN-001", .fatal, "JSON syntax error")
    /// `IG-MAN-002`, fatal: invalid UTF-8 or lone surrogate.
    public static let jsonEncoding = DiagnosticCode("IG-MAN-002", .fatal, "invalid UTF-8 or lone surrogate")
    /// `IG-MAN-003`, fatal: duplicate key.
    public static let duplicateKey = DiagnosticCode("IG-MAN-003", .fatal, "duplicate key")
    /// `IG-MAN-004`, fatal: nesting too deep.
    public static let tooDeep = DiagnosticCode("IG-MAN-004", .fatal, "nesting too deep")
    /// `IG-MAN-005`, fatal: manifest too large.
    public static let manifestTooLarge = DiagnosticCode("IG-MAN-005", .fatal, "manifest too large")
    /// `IG-MAN-006`, error: required member missing.
    public static let missingMember = DiagnosticCode("IG-MAN-006", .error, "required member missing")
    /// `IG-MAN-007`, error: member has the wrong type.
    public static let wrongType = DiagnosticCode("IG-MAN-007", .error, "member has the wrong type")
    /// `IG-MAN-008`, error: member value out of range or malformed.
    public static let badValue = DiagnosticCode("IG-MAN-008", .error, "member value out of range or malformed")
    /// `IG-MAN-009`, fatal: format is not imagegallery.
    public static let unknownFormat = DiagnosticCode("IG-MAN-009", .fatal, "format is not imagegallery")
    /// `IG-MAN-010`, fatal: unsupported format major version.
    public static let unsupportedVersion = DiagnosticCode("IG-MAN-010", .fatal, "unsupported format major version")
    /// `IG-MAN-011`, error: duplicate image id.
    public static let duplicateImageID = DiagnosticCode("IG-MAN-011", .error, "duplicate image id")
    /// `IG-MAN-012`, error: image path malformed or inconsistent.
    public static let badBlobPath = DiagnosticCode("IG-MAN-012", .error, "image path malformed or inconsistent")
    /// `IG-MAN-013`, info: unknown member ignored.
    public static let unknownMember = DiagnosticCode("IG-MAN-013", .info, "unknown member ignored")
    /// `IG-MAN-014`, error: too many images.
    public static let tooManyImages = DiagnosticCode("IG-MAN-014", .error, "too many images")
    /// `IG-MAN-015`, info: further findings not listed.
    public static let findingsNotListed = DiagnosticCode("IG-MAN-015", .info, "further findings not listed")
    /// `IG-MAN-016`, fatal: object has too many members.
    public static let tooManyMembers = DiagnosticCode("IG-MAN-016", .fatal, "object has too many members")
    /// `IG-MAN-017`, error: the cover names no image.
    public static let coverNamesNoImage = DiagnosticCode("IG-MAN-017", .error, "cover names no image")
}

// MARK: - Blobs and thumbnail (checked by `validate`)
extension DiagnosticCode {
    /// `IG-BLB-001`, error: blob missing.
    public static let blobMissing = DiagnosticCode("IG-BLB-001", .error, "blob missing")
    /// `IG-BLB-002`, warning: orphan blob.
    public static let blobOrphan = DiagnosticCode("IG-BLB-002", .warning, "orphan blob")
    /// `IG-BLB-003`, error: sha256 mismatch.
    public static let blobHashMismatch = DiagnosticCode("IG-BLB-003", .error, "sha256 mismatch")
    /// `IG-BLB-004`, error: byteSize mismatch.
    public static let blobSizeMismatch = DiagnosticCode("IG-BLB-004", .error, "byteSize mismatch")
    /// `IG-BLB-005`, error: media type disagrees with magic bytes.
    public static let blobTypeMismatch = DiagnosticCode("IG-BLB-005", .error, "media type disagrees with magic bytes")
    /// `IG-BLB-006`, error: width/height disagree with image header.
    public static let blobDimensionMismatch = DiagnosticCode("IG-BLB-006", .error, "width/height disagree with image header")
    /// `IG-BLB-007`, error: image header unreadable.
    public static let blobHeaderUnreadable = DiagnosticCode("IG-BLB-007", .error, "image header unreadable")
    /// `IG-BLB-008`, error: image data does not decode (--deep).
    public static let blobPixelsCorrupt = DiagnosticCode("IG-BLB-008", .error, "image data does not decode (--deep)")
    /// `IG-BLB-009`, warning: image past the decode limits (--deep).
    public static let blobPastDecodeLimit = DiagnosticCode("IG-BLB-009", .warning, "image past the decode limits (--deep)")
    /// `IG-BLB-010`, error: WebP header unreadable.
    public static let webPHeaderUnreadable = DiagnosticCode("IG-BLB-010", .error, "WebP header unreadable")
    /// `IG-BLB-011`, error: GIF header unreadable.
    public static let gifHeaderUnreadable = DiagnosticCode("IG-BLB-011", .error, "GIF header unreadable")
    /// `IG-BLB-012`, error: AVIF or HEIC boxes unreadable.
    public static let heifHeaderUnreadable = DiagnosticCode("IG-BLB-012", .error, "AVIF or HEIC boxes unreadable")
    /// `IG-BLB-013`, error: WebP data does not decode (--deep).
    public static let webPPixelsCorrupt = DiagnosticCode("IG-BLB-013", .error, "WebP data does not decode (--deep)")
    /// `IG-BLB-014`, error: GIF data does not decode (--deep).
    public static let gifPixelsCorrupt = DiagnosticCode("IG-BLB-014", .error, "GIF data does not decode (--deep)")
    /// `IG-BLB-015`, error: AVIF data does not decode (--deep).
    public static let avifPixelsCorrupt = DiagnosticCode("IG-BLB-015", .error, "AVIF data does not decode (--deep)")
    /// `IG-BLB-016`, error: HEIC data does not decode (--deep).
    public static let heicPixelsCorrupt = DiagnosticCode("IG-BLB-016", .error, "HEIC data does not decode (--deep)")
    /// `IG-BLB-017`, error: AVIF or HEIC items do not hold together (`iloc`, `ipma`, grid, `irot`, `imir`).
    public static let heifItemsBroken = DiagnosticCode("IG-BLB-017", .error, "AVIF or HEIC items do not hold together")
    /// `IG-BLB-018`, error: PNG without image data (no `IDAT`).
    public static let pngWithoutImageData = DiagnosticCode("IG-BLB-018", .error, "PNG without image data")
    /// `IG-BLB-019`, error: the declared size contradicts the coded image (`ispe`, VP8X canvas).
    public static let declaredSizeContradicted = DiagnosticCode("IG-BLB-019", .error, "declared size contradicts the coded image")
    /// `IG-BLB-020`, warning: colour description unusable (its segments, chunks or boxes do not
    /// hold together, or the profile is past 4 MiB); the image is read as sRGB.
    public static let colourDescriptionUnusable = DiagnosticCode("IG-BLB-020", .warning, "colour description unusable, read as sRGB")
    /// `IG-BLB-021`, warning: ICC profile malformed (header, tag table, tags out of range or
    /// overlapping, lookup tables past their tag or their limit); the image is read as sRGB.
    public static let colourProfileMalformed = DiagnosticCode("IG-BLB-021", .warning, "ICC profile malformed, read as sRGB")

    /// The id for a blob of `type` whose header cannot be read: each type of format 2.0 has its own.
    public static func headerUnreadable(_ type: MediaType) -> DiagnosticCode {
        switch type {
        case .jpeg, .png: .blobHeaderUnreadable
        case .webp: .webPHeaderUnreadable
        case .gif: .gifHeaderUnreadable
        case .avif, .heic: .heifHeaderUnreadable
        }
    }

    /// The id for a blob of `type` whose pixels do not decode (`--deep`).
    public static func pixelsCorrupt(_ type: MediaType) -> DiagnosticCode {
        switch type {
        case .jpeg, .png: .blobPixelsCorrupt
        case .webp: .webPPixelsCorrupt
        case .gif: .gifPixelsCorrupt
        case .avif: .avifPixelsCorrupt
        case .heic: .heicPixelsCorrupt
        }
    }

    /// `IG-THM-001`, error: thumbnail missing.
    public static let thumbnailMissing = DiagnosticCode("IG-THM-001", .error, "thumbnail missing")
    /// `IG-THM-002`, error: thumbnail is not a PNG.
    public static let thumbnailNotPNG = DiagnosticCode("IG-THM-002", .error, "thumbnail is not a PNG")
    /// `IG-THM-003`, error: thumbnail is not 8-bit.
    public static let thumbnailBitDepth = DiagnosticCode("IG-THM-003", .error, "thumbnail is not 8-bit")
    /// `IG-THM-004`, error: thumbnail is interlaced.
    public static let thumbnailInterlaced = DiagnosticCode("IG-THM-004", .error, "thumbnail is interlaced")
    /// `IG-THM-005`, error: thumbnail larger than 1024 px.
    public static let thumbnailTooLarge = DiagnosticCode("IG-THM-005", .error, "thumbnail larger than 1024 px")
    /// `IG-THM-006`, error: thumbnail dimensions unreadable.
    public static let thumbnailUnreadable = DiagnosticCode("IG-THM-006", .error, "thumbnail dimensions unreadable")
    /// `IG-THM-007`, error: thumbnail data does not decode (--deep).
    public static let thumbnailPixelsCorrupt = DiagnosticCode("IG-THM-007", .error, "thumbnail data does not decode (--deep)")
}

// MARK: - Privacy (validate --privacy)
extension DiagnosticCode {
    /// `IG-PRV-001`, warning (error with `--privacy-errors`): an image carries a location (EXIF
    /// GPS, XMP `exif:GPS…`, XMP or IPTC place names).
    public static let imageCarriesLocation = DiagnosticCode("IG-PRV-001", .warning, "image carries a location")
    /// `IG-PRV-002`, warning (error with `--privacy-errors`): an image carries identity fields
    /// (serial numbers, MakerNote, owner, artist).
    public static let imageCarriesIdentity = DiagnosticCode("IG-PRV-002", .warning, "image carries identity fields")
    /// `IG-PRV-003`, warning (error with `--privacy-errors`): an image's metadata cannot be read
    /// in full, so it cannot be said to carry no location.
    public static let imageMetadataUnreadable = DiagnosticCode("IG-PRV-003", .warning, "image metadata cannot be read in full")

    /// The same id at `severity`: a privacy check that a publishing pipeline makes fail raises
    /// its findings to errors, which every report format then shows as errors.
    package func raised(to severity: Severity) -> DiagnosticCode { DiagnosticCode(id, severity, summary) }
}

extension DiagnosticCode {
    /// Every code, in id order.
    public static let catalogue: [DiagnosticCode] = [
        .notZip, .emptyFile, .truncated, .mimetypeMissing, .mimetypeNotFirst, .mimetypeCompressed,
        .mimetypeExtraField, .mimetypeContent, .duplicateName, .unsafeName, .badNameEncoding,
        .notRegularFile, .encrypted, .unsupportedMethod, .headerMismatch, .overlappingEntries,
        .prependedData, .badEndRecord, .badZip64Record, .crcMismatch, .sizeMismatch, .manifestMissing,
        .tooManyEntries, .nameTooLong, .hiddenData, .mimetypeDataDescriptor, .zipBomb, .confusableNames,
        .corruptDeflate, .badCentralEntry, .hiddenLocalHeader, .bytesBetweenEntries,
        .storedDataDescriptor,
        .jsonSyntax, .jsonEncoding, .duplicateKey, .tooDeep, .manifestTooLarge, .missingMember,
        .wrongType, .badValue, .unknownFormat, .unsupportedVersion, .duplicateImageID, .badBlobPath,
        .unknownMember, .tooManyImages, .findingsNotListed, .tooManyMembers, .coverNamesNoImage,
        .blobMissing, .blobOrphan, .blobHashMismatch, .blobSizeMismatch, .blobTypeMismatch,
        .blobDimensionMismatch, .blobHeaderUnreadable, .blobPixelsCorrupt, .blobPastDecodeLimit,
        .webPHeaderUnreadable, .gifHeaderUnreadable, .heifHeaderUnreadable, .webPPixelsCorrupt, .gifPixelsCorrupt,
        .avifPixelsCorrupt, .heicPixelsCorrupt, .heifItemsBroken, .pngWithoutImageData,
        .declaredSizeContradicted, .colourDescriptionUnusable, .colourProfileMalformed,
        .thumbnailMissing, .thumbnailNotPNG, .thumbnailBitDepth, .thumbnailInterlaced,
        .thumbnailTooLarge, .thumbnailUnreadable, .thumbnailPixelsCorrupt,
        .imageCarriesLocation, .imageCarriesIdentity, .imageMetadataUnreadable,
    ]
}
