import FoundationEssentials

/// What decoding a manifest found: the gallery (when its required parts could be read) and
/// every diagnostic, in document order.
public struct ManifestDecoding: Sendable {
    /// The gallery, or nil when decoding stopped: not JSON, not this format, or a required
    /// member that could not be read. It may be set while `diagnostics` holds errors, so check
    /// ``firstError`` before using it.
    public var gallery: Gallery?
    /// What was found, in document order, each located by a JSON pointer into `manifest.json`.
    /// At most 1,000 are listed (then one says how many more were not); the first error always is.
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
        return bytes.withUnsafeBytes { decode(text: $0, limits: limits, keepsText: keepsText) }
    }

    /// Decodes text held in memory the caller owns, for as long as the call lasts: nothing of
    /// it is kept.
    static func decode(text: UnsafeRawBufferPointer, limits: GalleryLimits, keepsText: Bool) -> ManifestDecoding {
        var decoder = ManifestDecoder(limits: limits, keepsText: keepsText, textBytes: text.count)
        var scanner = JSONScanner(text, maxDepth: limits.maxJSONDepth, maxMembers: limits.maxObjectMembers)
        return decoder.run(&scanner)
    }

    /// Decodes text as `source` delivers it, holding a window of it rather than all of it.
    /// With `keepsText` false, free text is checked but left out of the gallery.
    static func decode(source: any JSONChunkSource, limits: GalleryLimits, keepsText: Bool, textBytes: Int = 0) -> ManifestDecoding {
        var decoder = ManifestDecoder(limits: limits, keepsText: keepsText, textBytes: textBytes)
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
