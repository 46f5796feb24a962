import FoundationEssentials
import GalleryImageHeaders

/// Walks the manifest with a `JSONScanner`, recording schema problems and carrying on past
/// them, so one pass reports everything a validator needs.
struct ManifestDecoder {
    let limits: GalleryLimits
    /// False when only the checks matter: free text (captions, file names, sources, the
    /// generator) is checked but not kept, so a manifest full of text costs no memory twice.
    var keepsText = true
    var diagnostics: [GalleryError] = []

    /// Images the text can hold at most, for reserving room once rather than growing (and
    /// copying, and faulting in new pages) a list of 10,000 images fourteen times. Bounded by
    /// the text's length, so a hostile size reserves no more than the text could fill.
    var expectedImages = 0
    /// What the unknown members kept so far cost (``keptBudget``).
    var keptSpent = 0
    /// Whether image records are read by `plainImage` first; false only in the tests that hold
    /// it to the general walk.
    var usesPlainImages = true
    /// Images `plainImage` read, for those tests.
    var plainImages = 0
    /// `imageKeys.count`, looked up once: asked of the lazily made static for every image, it
    /// cost a `swift_once` call and a retain each (0.47 ms of 10,000 photos' decoding, in perf).
    let imageKeyCount = ManifestDecoder.imageKeys.count

    init(limits: GalleryLimits, keepsText: Bool = true, textBytes: Int = 0) {
        self.limits = limits
        self.keepsText = keepsText
        // The smallest image a reader accepts takes more than 200 bytes: its id and SHA-256 alone take 120.
        expectedImages = min(textBytes / 200, limits.maxImages)
    }

    /// Findings listed per manifest; past it they are counted (IG-MAN-015). A 200 kB manifest
    /// of 100,000 bad images would otherwise cost a finding, and its memory, each.
    static let maxFindings = 1000
    private var unlisted = 0

    /// Decodes the whole document, turning a thrown error into the last diagnostic.
    mutating func run(_ scanner: inout JSONScanner) -> ManifestDecoding {
        do {
            let gallery = try decodeDocument(&scanner)
            return ManifestDecoding(gallery: gallery, diagnostics: listed())
        } catch let error as GalleryError where error.severity == .fatal {
            // Not JSON, or not this format: what a partial reading found would only mislead.
            return ManifestDecoding(gallery: nil, diagnostics: [error])
        } catch let error as GalleryError {
            return ManifestDecoding(gallery: nil, diagnostics: listed() + [error])
        } catch {
            return ManifestDecoding(gallery: nil, diagnostics: diagnostics + [GalleryError(
                .jsonSyntax, "\(error)", location: Location(entry: "manifest.json"))])
        }
    }

    private func listed() -> [GalleryError] {
        guard unlisted > 0 else { return diagnostics }
        return diagnostics + [GalleryError(.findingsNotListed, "\(unlisted) more findings in manifest.json are not listed "
                                           + "(at most \(Self.maxFindings) are)", location: Location(entry: "manifest.json"))]
    }

    /// Lists a finding made after the reading, counting it past the cap unless it is a first error.
    mutating func appendFinding(_ finding: GalleryError) {
        guard diagnostics.count < Self.maxFindings || !diagnostics.contains(where: { $0.severity >= .error }) else {
            unlisted += 1
            return
        }
        diagnostics.append(finding)
    }

    mutating func report(_ code: DiagnosticCode, _ message: String, _ scanner: borrowing JSONScanner,
                                 member: String? = nil) {
        // Past the cap, a first error is still listed: the verdict must not depend on the cap.
        guard diagnostics.count < Self.maxFindings
            || (code.severity >= .error && !diagnostics.contains { $0.severity >= .error }) else {
            unlisted += 1
            return
        }
        diagnostics.append(GalleryError(code, message, location: Location(
            entry: "manifest.json", offset: UInt64(scanner.offset), jsonPointer: scanner.pointer(appending: member))))
    }

    /// Known keys, matched as bytes; their position is their bit in a per-object "seen" mask.
    /// The media types as a refusal lists them: "image/jpeg, image/png, … or image/heic".
    static let mediaTypeNames = MediaType.allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or "
        + MediaType.allCases.last!.rawValue

    static let documentKeys = ["format", "formatVersion", "id", "revision", "title", "created", "modified", "generator",
                               "images", "cover"].map { Array($0.utf8) }
    static let imageKeys = ["id", "path", "mediaType", "width", "height", "byteSize", "sha256", "source", "filename",
                            "caption", "added"].map { Array($0.utf8) }

    /// Resolves a key to its known position, refusing a repeat. Unknown keys go through `unknown`.
    static func knownKey(_ key: JSONScanner.RawString, _ candidates: [[UInt8]], seen: inout UInt32,
                          unknown: inout Set<String>, _ scanner: borrowing JSONScanner) throws -> Int? {
        if let position = scanner.match(key, candidates) {
            guard seen & (1 << position) == 0 else {
                throw scanner.error(.duplicateKey, "the key \"\(scanner.decodeString(key))\" occurs twice in one object",
                                    at: key.start - 1)
            }
            seen |= 1 << position
            return position
        }
        guard unknown.insert(scanner.decodeString(key)).inserted else {
            throw scanner.error(.duplicateKey, "the key \"\(scanner.decodeString(key))\" occurs twice in one object",
                                at: key.start - 1)
        }
        return nil
    }

    // MARK: - Document

    mutating func decodeDocument(_ scanner: inout JSONScanner) throws -> Gallery? {
        guard try scanner.peekKind() == .object else {
            throw scanner.error(.wrongType, "the manifest must be a JSON object")
        }
        var format: String?
        var version: FormatVersion?
        var id: UUID?
        var revision: UUID?
        var title: String?
        var created: Timestamp?
        var modified: Timestamp?
        var generator: String?
        var images: [GalleryImage]?
        var cover: UUID?
        var kept: [ManifestMember] = []

        var seen: UInt32 = 0
        var unknown: Set<String> = []
        try scanner.readObject(checkDuplicates: false) { scanner, key in
            switch try Self.knownKey(key, Self.documentKeys, seen: &seen, unknown: &unknown, scanner) {
            case 0:
                format = try string(&scanner, maxScalars: ManifestRules.maxFormatScalars)
            case 1:
                // Any version is read, however long its digits (section 8): no length limit here.
                if let text = try string(&scanner, maxScalars: .max) {
                    version = FormatVersion(text)
                    if version == nil { report(.badValue, "formatVersion \"\(text)\" is not of the form MAJOR.MINOR", scanner) }
                }
            case 2: id = try uuid(&scanner)
            case 3: revision = try uuid(&scanner)
            case 4: title = try string(&scanner, maxScalars: ManifestRules.maxTitleScalars, forbidsNUL: true)
            case 5: created = try timestamp(&scanner)
            case 6: modified = try timestamp(&scanner)
            case 7:
                generator = try string(&scanner, maxScalars: ManifestRules.maxGeneratorScalars)
                if !keepsText { generator = nil }
            case 8: images = try imageList(&scanner)
            case 9: cover = try uuid(&scanner)
            default: try keepUnknown(key, &scanner, into: &kept)
            }
        }
        try scanner.finish()

        if let format, format != "imagegallery" {
            throw scanner.error(.unknownFormat, "format is \"\(format)\", not \"imagegallery\"", pointer: "/format")
        }
        if let version, !version.isReadable {
            throw scanner.error(.unsupportedVersion, "format version \(version) is not supported: this reader reads "
                                + (1 ... FormatVersion.newest.major).map { "\($0).x" }.joined(separator: " and "),
                                pointer: "/formatVersion")
        }
        // Missing means the key never occurred; a present but malformed member was reported as such.
        for (position, name) in ["format", "formatVersion", "id", "revision", "title", "created", "modified", "images"]
            .map({ (Self.documentKeys.firstIndex(of: Array($0.utf8))!, $0) }) where seen & (1 << position) == 0 {
            guard diagnostics.count < Self.maxFindings else { unlisted += 1; continue }
            diagnostics.append(GalleryError(.missingMember, "the required member \"\(name)\" is missing", location: Location(
                entry: "manifest.json", offset: UInt64(scanner.offset), jsonPointer: "")))
        }
        guard let version, let id, let revision, let title, let created, let modified, let images else { return nil }
        // A type is the format's from its version on (section 5): a 1.x manifest may not list a WebP.
        for (index, image) in images.enumerated() where image.mediaType.since.major > version.major {
            appendFinding(GalleryError(.badValue, "media type \"\(image.mediaType.rawValue)\" needs format version "
                                       + "\(image.mediaType.since) or later; the manifest says \(version)", location: Location(
                entry: "manifest.json", offset: UInt64(scanner.offset), jsonPointer: "/images/\(index)/mediaType")))
        }
        checkCover(cover, version: version, images: images, scanner)
        var gallery = Gallery(id: id, revision: revision, title: title, created: created, modified: modified,
                              generator: generator, images: images, formatVersion: version, cover: cover)
        gallery.keptMembers = kept
        return gallery
    }
}
