import Foundation

/// What decoding a manifest found: the gallery (when its required parts could be read) and
/// every diagnostic, in document order.
public struct ManifestDecoding: Sendable {
    public var gallery: Gallery?
    public var diagnostics: [GalleryError]

    /// The first problem that makes the manifest unusable (severity error or fatal).
    public var firstError: GalleryError? { diagnostics.first { $0.severity >= .error } }
}

extension Manifest {
    /// Decodes `manifest.json`, checking syntax, encoding, limits and the v1 schema.
    public static func decode(_ bytes: [UInt8], limits: GalleryLimits = .default, keepsText: Bool = true) -> ManifestDecoding {
        guard bytes.count <= limits.maxManifestBytes else {
            return ManifestDecoding(gallery: nil, diagnostics: [GalleryError(
                .manifestTooLarge, "manifest.json is \(bytes.count) bytes; the limit is \(limits.maxManifestBytes)",
                location: Location(entry: "manifest.json"))])
        }
        return bytes.withUnsafeBytes { buffer in
            var decoder = ManifestDecoder(limits: limits, keepsText: keepsText)
            var scanner = JSONScanner(buffer, maxDepth: limits.maxJSONDepth, maxMembers: limits.maxObjectMembers)
            return decoder.run(&scanner)
        }
    }

    /// Decodes text as `source` delivers it, holding a window of it rather than all of it.
    /// With `keepsText` false, free text is checked but left out of the gallery.
    static func decode(source: any JSONChunkSource, limits: GalleryLimits, keepsText: Bool) -> ManifestDecoding {
        var decoder = ManifestDecoder(limits: limits, keepsText: keepsText)
        var scanner = JSONScanner(streaming: source, maxDepth: limits.maxJSONDepth, maxMembers: limits.maxObjectMembers)
        return decoder.run(&scanner)
    }

    /// Decodes, throwing the first error. Returns the gallery and the lesser diagnostics.
    public static func decodeOrThrow(_ bytes: [UInt8], limits: GalleryLimits = .default) throws -> (Gallery, [GalleryError]) {
        let result = decode(bytes, limits: limits)
        if let error = result.firstError { throw error }
        guard let gallery = result.gallery else {
            throw GalleryError(.jsonSyntax, "manifest.json could not be read", location: Location(entry: "manifest.json"))
        }
        return (gallery, result.diagnostics)
    }
}

/// Walks the manifest with a `JSONScanner`, recording schema problems and carrying on past
/// them, so one pass reports everything a validator needs.
struct ManifestDecoder {
    let limits: GalleryLimits
    /// False when only the checks matter: free text (captions, file names, sources, the
    /// generator) is checked but not kept, so a manifest full of text costs no memory twice.
    var keepsText = true
    var diagnostics: [GalleryError] = []

    init(limits: GalleryLimits, keepsText: Bool = true) {
        self.limits = limits
        self.keepsText = keepsText
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

    private mutating func report(_ code: DiagnosticCode, _ message: String, _ scanner: borrowing JSONScanner,
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
    static let documentKeys = ["format", "formatVersion", "id", "revision", "title", "created", "modified", "generator",
                               "images"].map { Array($0.utf8) }
    static let imageKeys = ["id", "path", "mediaType", "width", "height", "byteSize", "sha256", "source", "filename",
                            "caption", "added"].map { Array($0.utf8) }

    /// Resolves a key to its known position, refusing a repeat. Unknown keys go through `unknown`.
    private func knownKey(_ key: JSONScanner.RawString, _ candidates: [[UInt8]], seen: inout UInt32,
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

        var seen: UInt32 = 0
        var unknown: Set<String> = []
        try scanner.readObject(checkDuplicates: false) { scanner, key in
            switch try knownKey(key, Self.documentKeys, seen: &seen, unknown: &unknown, scanner) {
            case 0:
                format = try string(&scanner, maxScalars: ManifestRules.maxFormatScalars)
            case 1:
                // Any 1.x is read, however long its digits (section 8): no length limit here.
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
            default:
                report(.unknownMember, "unknown member \"\(scanner.decodeString(key))\" is ignored", scanner)
                try scanner.skipValue()
            }
        }
        try scanner.finish()

        if let format, format != "imagegallery" {
            throw scanner.error(.unknownFormat, "format is \"\(format)\", not \"imagegallery\"", pointer: "/format")
        }
        if let version, version.major != FormatVersion.current.major {
            throw scanner.error(.unsupportedVersion, "format version \(version) is not supported: this reader reads "
                                + "\(FormatVersion.current.major).x", pointer: "/formatVersion")
        }
        // Missing means the key never occurred; a present but malformed member was reported as such.
        for (position, name) in ["format", "formatVersion", "id", "revision", "title", "created", "modified", "images"]
            .map({ (Self.documentKeys.firstIndex(of: Array($0.utf8))!, $0) }) where seen & (1 << position) == 0 {
            guard diagnostics.count < Self.maxFindings else { unlisted += 1; continue }
            diagnostics.append(GalleryError(.missingMember, "the required member \"\(name)\" is missing", location: Location(
                entry: "manifest.json", offset: UInt64(scanner.offset), jsonPointer: "")))
        }
        guard let version, let id, let revision, let title, let created, let modified, let images else { return nil }
        return Gallery(id: id, revision: revision, title: title, created: created, modified: modified,
                       generator: generator, images: images, formatVersion: version)
    }

    // MARK: - Images

    private mutating func imageList(_ scanner: inout JSONScanner) throws -> [GalleryImage]? {
        guard try expectKind(.array, &scanner, "an array") else { return nil }
        var images: [GalleryImage] = []
        var ids: [UUID: Int] = [:]
        var complete = true
        try scanner.readArray { scanner, index in
            // Nothing of the images before is needed any more.
            scanner.discardConsumed()
            guard index < limits.maxImages else {
                throw scanner.error(.tooManyImages, "the gallery lists more than \(limits.maxImages) images")
            }
            guard let image = try self.image(&scanner) else { complete = false; return }
            if let first = ids[image.id] {
                report(.duplicateImageID, "image id \(image.id.manifestString) is also the id of image \(first)", scanner,
                       member: "id")
                complete = false
                return
            }
            ids[image.id] = index
            images.append(image)
        }
        return complete ? images : nil
    }

    private mutating func image(_ scanner: inout JSONScanner) throws -> GalleryImage? {
        guard try expectKind(.object, &scanner, "an object") else { return nil }
        var id: UUID?
        var path: JSONScanner.RawString?
        var mediaType: MediaType?
        var width: Int?
        var height: Int?
        var byteSize: UInt64?
        var sha256: SHA256Digest?
        var shaRaw: JSONScanner.RawString?
        var source: String?
        var filename: String?
        var caption: String?
        var added: Timestamp?
        var valid = true
        let errorsBefore = diagnostics.count

        var seen: UInt32 = 0
        var unknown: Set<String> = []
        try scanner.readObject(checkDuplicates: false) { scanner, key in
            switch try knownKey(key, Self.imageKeys, seen: &seen, unknown: &unknown, scanner) {
            case 0: id = try uuid(&scanner)
            case 1:
                if try expectKind(.string, &scanner, "a string") { path = try scanner.readRawString() }
            case 2:
                if let text = try string(&scanner, maxScalars: 100) {
                    mediaType = MediaType(rawValue: text)
                    if mediaType == nil { report(.badValue, "media type \"\(text)\" is not image/jpeg or image/png", scanner) }
                }
            case 3: width = try integer(&scanner, in: ManifestRules.pixelDimensions).map { Int($0) }
            case 4: height = try integer(&scanner, in: ManifestRules.pixelDimensions).map { Int($0) }
            case 5: byteSize = try integer(&scanner, in: ManifestRules.byteSizes).map { UInt64($0) }
            case 6:
                if try expectKind(.string, &scanner, "a string") {
                    let raw = try scanner.readRawString()
                    shaRaw = raw
                    sha256 = raw.hasEscapes
                        ? Array(scanner.decodeString(raw).utf8).withUnsafeBytes { SHA256Digest(hexBytes: $0) }
                        : SHA256Digest(hexBytes: scanner.rawBytes(raw))
                    if sha256 == nil { report(.badValue, "sha256 must be 64 lowercase hexadecimal digits", scanner) }
                }
            case 7:
                source = try string(&scanner, maxScalars: ManifestRules.maxSourceScalars)
                if let text = source, !Self.isAbsoluteURI(text) {
                    report(.badValue, "source \"\(text.prefix(80))\" is not an absolute URI", scanner)
                }
                if !keepsText { source = nil }
            case 8:
                filename = try string(&scanner, maxScalars: ManifestRules.maxFilenameScalars, forbidsNUL: true)
                if let text = filename, !GalleryImage.isSafeFilename(text) {
                    report(.badValue, "filename must be one path component of 1 to 255 bytes with no \"/\", \"\\\", "
                           + "NUL or control characters", scanner)
                    filename = nil
                }
                if !keepsText { filename = nil }
            case 9:
                caption = try string(&scanner, maxScalars: ManifestRules.maxCaptionScalars)
                if !keepsText { caption = nil }
            case 10: added = try timestamp(&scanner)
            default:
                report(.unknownMember, "unknown member \"\(scanner.decodeString(key))\" is ignored", scanner)
                try scanner.skipValue()
            }
        }
        // The seven required members are the first seven keys: one mask test in the common case.
        if seen & 0x7F != 0x7F {
            for (position, name) in ["id", "path", "mediaType", "width", "height", "byteSize", "sha256"].enumerated()
                where seen & (1 << position) == 0 {
                report(.missingMember, "the image lacks the required member \"\(name)\"", scanner)
                valid = false
            }
        }
        if diagnostics[errorsBefore...].contains(where: { $0.severity >= .error }) { valid = false }
        guard valid, let id, let path, let mediaType, let width, let height, let byteSize, let sha256 else { return nil }
        // Compared as bytes: building the expected name for every image would cost more than the check.
        let matches = path.hasEscapes || shaRaw!.hasEscapes
            ? scanner.decodeString(path) == GalleryImage.blobPath(sha256: sha256, mediaType: mediaType)
            : Self.isBlobPath(scanner.rawBytes(path), sha256Hex: scanner.rawBytes(shaRaw!), mediaType: mediaType)
        guard matches else {
            let expected = GalleryImage.blobPath(sha256: sha256, mediaType: mediaType)
            report(.badBlobPath, "path \"\(scanner.decodeString(path).prefix(120))\" should be \"\(expected)\" "
                   + "(images/<sha256>.<extension of the media type>)", scanner, member: "path")
            return nil
        }
        return GalleryImage(id: id, mediaType: mediaType, width: width, height: height, byteSize: byteSize,
                            sha256: sha256, source: source, filename: filename, caption: caption, added: added)
    }

    // MARK: - Members

    /// True when the value has the kind; otherwise reports IG-MAN-007 and skips it.
    private mutating func expectKind(_ kind: JSONScanner.Kind, _ scanner: inout JSONScanner, _ name: String) throws -> Bool {
        let found = try scanner.peekKind()
        guard found == kind else {
            report(.wrongType, "the value must be \(name), not \(Self.describe(found))", scanner)
            try scanner.skipValue()
            return false
        }
        return true
    }

    /// `forbidsNUL`: U+0000 is banned in `title` and `filename` only (format sections 6.3, 6.4).
    private mutating func string(_ scanner: inout JSONScanner, maxScalars: Int, forbidsNUL: Bool = false) throws -> String? {
        guard try expectKind(.string, &scanner, "a string") else { return nil }
        let raw = try scanner.readRawString()
        // A scalar takes at least one byte: only long strings need counting, and they are
        // counted without being decoded, however long.
        if raw.count > maxScalars, scanner.scalarCount(raw) > maxScalars {
            report(.badValue, "the string is longer than \(maxScalars) characters", scanner)
            return nil
        }
        if forbidsNUL, scanner.containsNUL(raw) {
            report(.badValue, "the string contains U+0000", scanner)
            return nil
        }
        return scanner.decodeString(raw)
    }

    private mutating func uuid(_ scanner: inout JSONScanner) throws -> UUID? {
        guard try expectKind(.string, &scanner, "a string") else { return nil }
        let raw = try scanner.readRawString()
        // Escapes are JSON, not content (section 9.1): an escaped UUID is still a UUID.
        let id = raw.hasEscapes
            ? Array(scanner.decodeString(raw).utf8).withUnsafeBytes { UUID(textBytes: $0) }
            : UUID(textBytes: scanner.rawBytes(raw))
        guard let id else {
            report(.badValue, "\"\(scanner.decodeString(raw).prefix(80))\" is not a UUID", scanner)
            return nil
        }
        return id
    }

    private mutating func timestamp(_ scanner: inout JSONScanner) throws -> Timestamp? {
        guard let text = try string(&scanner, maxScalars: ManifestRules.maxTimestampScalars) else { return nil }
        guard let time = Timestamp(rfc3339: text) else {
            report(.badValue, "\"\(text)\" is not an RFC 3339 date-time", scanner)
            return nil
        }
        return time
    }

    private mutating func integer(_ scanner: inout JSONScanner, in range: ClosedRange<Int64>) throws -> Int64? {
        guard try expectKind(.number, &scanner, "an integer") else { return nil }
        switch try scanner.readNumber() {
        case .integer(let value) where range.contains(value):
            return value
        case .integer(let value):
            report(.badValue, "\(value) is outside \(range.lowerBound)...\(range.upperBound)", scanner)
        case .other(let value):
            report(.badValue, "\(value) is not an integer in \(range.lowerBound)...\(range.upperBound)", scanner)
        }
        return nil
    }

    private static func describe(_ kind: JSONScanner.Kind) -> String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// `images/` + the 64 hex digits + `.jpg` or `.png` as the media type says.
    static func isBlobPath(_ path: UnsafeRawBufferPointer, sha256Hex: UnsafeRawBufferPointer, mediaType: MediaType) -> Bool {
        // "images/" is 7 bytes, ".jpg" and ".png" 4.
        guard path.count == 7 + 64 + 4, sha256Hex.count == 64, let base = path.baseAddress else { return false }
        let suffix: StaticString = mediaType == .jpeg ? ".jpg" : ".png"
        return memcmp(base, "images/", 7) == 0 && memcmp(base + 7, sha256Hex.baseAddress!, 64) == 0
            && memcmp(base + 71, suffix.utf8Start, 4) == 0
    }

    /// RFC 3986 as the schema's pattern says: a scheme, `:`, then only URI characters and
    /// well-formed percent escapes (ASCII only; internationalised URLs are percent-encoded).
    static func isAbsoluteURI(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              bytes[0] | 0x20 >= 0x61, bytes[0] | 0x20 <= 0x7A
        else { return false }
        let schemeOK = bytes[..<colon].allSatisfy { b in
            (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2D || b == 0x2E
        }
        guard schemeOK else { return false }
        func isHex(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x66) }
        var index = colon + 1
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
                index += 3
                continue
            }
            guard uriCharacters.contains(b) else { return false }
            index += 1
        }
        return true
    }

    /// Unreserved, general and sub-delimiters of RFC 3986.
    static let uriCharacters = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=".utf8))

}
