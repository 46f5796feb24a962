import GalleryImageHeaders
import GalleryImaging
import GalleryMetadata

extension FuzzEntries {
    /// The privacy path (issue 32): an image's metadata read for a report, then stripped of each
    /// scope. A strip that succeeds must leave a file that reads again with nothing of the
    /// scope left (the strip checks that itself), and, when the original decodes, that decodes to the very same pixels: a
    /// difference traps, so that the fuzzer reports it. Accepted when some strip changed the
    /// file, refused when none could or none had anything to do.
    static func metadata(_ bytes: UnsafeRawBufferPointer) -> FuzzOutcome {
        let data = Array(bytes)
        guard let type = MediaType.sniff(Array(data.prefix(ImageKind.identifyingBytes))) else { return .refused }
        let readable = ImageMetadata.privacy(of: data, type: type).problems.isEmpty
        var changed = false
        var original: DecodedFrame??
        for scope: MetadataScope in [.location, [.location, .identity], .allMetadata] {
            guard let stripped = try? ImageMetadata.strip(data, type: type, scope: scope).bytes else { continue }
            changed = true
            // What it wrote must read again, as everything it read did.
            precondition(!readable || ImageMetadata.privacy(of: stripped, type: type).problems.isEmpty,
                         "a strip of \(scope.description) wrote metadata that does not read")
            if original == nil { original = .some(try? DecodedFrame.decode(data, as: type, limits: decodeLimits)) }
            guard let before = original ?? nil else { continue }
            let decoded = try? DecodedFrame.decode(stripped, as: type, limits: decodeLimits)
            precondition(decoded?.bitmap.pixels == before.bitmap.pixels,
                         "a strip of \(scope.description) changed the decoded pixels")
        }
        return changed ? .accepted : .refused
    }
}
