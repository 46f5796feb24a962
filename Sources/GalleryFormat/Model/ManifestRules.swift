import FoundationEssentials

/// The rules a manifest's values obey (format sections 6 and 10), in one place.
///
/// The decoder applies them to what it reads and every writer to what it is about to write,
/// so that no edit can save a file that a reader then refuses. The decoder counts on raw
/// JSON bytes and the writer on strings, but both take the bounds from here.
package enum ManifestRules {
    /// Longest `format` string, in Unicode scalars (`formatVersion` has no bound: any 1.x is read).
    package static let maxFormatScalars = 100
    /// Longest `title`, in Unicode scalars.
    package static let maxTitleScalars = 1000
    /// Longest `generator`, in Unicode scalars.
    package static let maxGeneratorScalars = 200
    /// Longest `source` URL, in characters (ASCII only).
    package static let maxSourceScalars = 8192
    /// Longest `filename`, in UTF-8 bytes (one path component, as file systems count it).
    package static let maxFilenameScalars = 255
    /// Longest `caption`, in Unicode scalars.
    package static let maxCaptionScalars = 10_000
    /// Longest date-time string, in characters.
    package static let maxTimestampScalars = 64
    /// `width` and `height`.
    package static let pixelDimensions: ClosedRange<Int64> = 1 ... 2_147_483_647
    /// `byteSize`: at most 2^53 − 1, so that every JSON reader holds it exactly.
    package static let byteSizes: ClosedRange<Int64> = 1 ... 9_007_199_254_740_991
    /// The seconds of 0000-01-01T00:00:00Z through 9999-12-31T23:59:59Z: what four year digits
    /// of RFC 3339 can say.
    package static let timestampSeconds: ClosedRange<Int64> = -62_167_219_200 ... 253_402_300_799

    /// What is wrong with `title` as a gallery's title, or nil.
    package static func titleProblem(_ title: String) -> String? {
        if exceeds(title, scalars: maxTitleScalars) { return "a title has at most \(maxTitleScalars) characters" }
        if title.utf8.contains(0) { return "a title must not contain U+0000" }
        return nil
    }

    /// True when `text` has more than `limit` Unicode scalars. A scalar takes at least one
    /// UTF-8 byte, so short strings are not counted.
    @inlinable
    package static func exceeds(_ text: String, scalars limit: Int) -> Bool {
        text.utf8.count > limit && text.unicodeScalars.count > limit
    }
}

extension Gallery {
    /// The first rule of the format this gallery breaks, as the id a reader would report and a
    /// JSON pointer to the value; nil when a reader would accept its manifest.
    ///
    /// Cheap enough to run on every edit: a few length checks per image, and the encoded
    /// manifest's size only when a bound on it passes the limit.
    public func brokenRule(limits: GalleryLimits = .default) -> GalleryError? {
        func broken(_ code: DiagnosticCode, _ pointer: String, _ message: String) -> GalleryError {
            GalleryError(code, message, location: Location(entry: GalleryPackage.manifestEntry, jsonPointer: pointer))
        }
        if !formatVersion.isReadable {
            return broken(.unsupportedVersion, "/formatVersion", "format version \(formatVersion) cannot be written")
        }
        if let problem = ManifestRules.titleProblem(title) { return broken(.badValue, "/title", problem) }
        if let generator, ManifestRules.exceeds(generator, scalars: ManifestRules.maxGeneratorScalars) {
            return broken(.badValue, "/generator", "a generator has at most \(ManifestRules.maxGeneratorScalars) characters")
        }
        for (name, time) in [("created", created), ("modified", modified)]
            where !ManifestRules.timestampSeconds.contains(time.seconds) {
            return broken(.badValue, "/" + name, "\(name) must lie in the years 0000 to 9999")
        }
        guard images.count <= limits.maxImages else {
            return broken(.tooManyImages, "/images", "a gallery holds at most \(limits.maxImages) images; this one "
                          + "would hold \(images.count)")
        }
        var ids = Set<UUID>(minimumCapacity: images.count)
        var blobBytes: UInt64 = 0
        for (index, image) in images.enumerated() {
            if let problem = image.brokenRule() {
                return broken(problem.code, "/images/\(index)/\(problem.member)", "image \(index + 1): \(problem.message)")
            }
            guard ids.insert(image.id).inserted else {
                return broken(.duplicateImageID, "/images/\(index)/id", "image \(index + 1) has the id of an earlier image, "
                              + image.id.manifestString)
            }
            blobBytes = blobBytes.addingSaturating(image.byteSize)
        }
        // Listed sizes bound the stored ones (a blob listed twice is stored once).
        if blobBytes > limits.maxTotalUncompressedBytes {
            let stored = distinctBlobs.reduce(UInt64(0)) { $0.addingSaturating($1.byteSize) }
            if stored > limits.maxTotalUncompressedBytes {
                return GalleryError(.zipBomb, "the images add up to \(stored) bytes; a gallery holds at most "
                                    + "\(limits.maxTotalUncompressedBytes)", location: Location())
            }
        }
        if let cover, !ids.contains(cover) {
            return broken(.coverNamesNoImage, "/cover", "cover \(cover.manifestString) is the id of no image of the gallery")
        }
        if manifestSizeBound > limits.maxManifestBytes {
            let size = Manifest.encodedSize(self)
            if size > limits.maxManifestBytes {
                return broken(.manifestTooLarge, "", "the manifest would be \(size) bytes; the limit is "
                              + "\(limits.maxManifestBytes)")
            }
        }
        return nil
    }

    /// Throws ``brokenRule(limits:)``, when there is one.
    public func checkRules(limits: GalleryLimits = .default) throws {
        if let broken = brokenRule(limits: limits) { throw broken }
    }

    /// At least the size of the encoded manifest: every byte of text may become a six-byte
    /// escape, and no image's fixed members take 600 bytes.
    var manifestSizeBound: Int {
        var bound = 1024 + 6 * (title.utf8.count + (generator?.utf8.count ?? 0))
        for image in images {
            bound += 600 + 6 * ((image.caption?.utf8.count ?? 0) + (image.filename?.utf8.count ?? 0)
                + (image.source?.utf8.count ?? 0))
        }
        return bound
    }
}

extension GalleryImage {
    /// The first rule of format section 6.4 this image breaks: the id, the member and what is wrong.
    public func brokenRule() -> (code: DiagnosticCode, member: String, message: String)? {
        if !ManifestRules.pixelDimensions.contains(Int64(width)) || !ManifestRules.pixelDimensions.contains(Int64(height)) {
            return (.badValue, "width", "width and height must lie in \(ManifestRules.pixelDimensions), not \(width)×\(height)")
        }
        if byteSize > UInt64(ManifestRules.byteSizes.upperBound) || byteSize == 0 {
            return (.badValue, "byteSize", "byteSize must lie in \(ManifestRules.byteSizes), not \(byteSize)")
        }
        if let source, !GalleryImage.isValidSource(source) {
            return (.badValue, "source", "source must be an absolute URI of at most \(ManifestRules.maxSourceScalars) "
                    + "ASCII characters")
        }
        if let filename, !GalleryImage.isSafeFilename(filename) {
            return (.badValue, "filename", "filename must be one path component of 1 to 255 bytes with no \"/\", \"\\\", "
                    + "NUL or control characters")
        }
        if let caption, ManifestRules.exceeds(caption, scalars: ManifestRules.maxCaptionScalars) {
            return (.badValue, "caption", "a caption has at most \(ManifestRules.maxCaptionScalars) characters; this one "
                    + "has \(caption.unicodeScalars.count)")
        }
        if let added, !ManifestRules.timestampSeconds.contains(added.seconds) {
            return (.badValue, "added", "added must lie in the years 0000 to 9999")
        }
        return nil
    }
}
