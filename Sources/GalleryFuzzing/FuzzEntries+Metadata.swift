import GalleryImageHeaders
import GalleryImaging
import GalleryMetadata

extension FuzzEntries {
    /// The privacy path (issue 32): an image's metadata read for a report, then stripped of each
    /// scope. A strip that succeeds must leave a file that reads again with nothing of the
    /// scope left and nothing unreadable (the strip checks both itself), and, when the original decodes, that decodes to the very same pixels: a
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
            // libheif's and libavif's threads decode a corrupt stream to other pixels from one
            // decode to the next (the smoke met one), so a HEIF strip is held to its bytes
            // instead: it rewrites in place, and nothing outside the metadata items may change.
            if type == .avif || type == .heic {
                precondition(changesOnlyMetadataItems(data, stripped), "a strip of \(scope.description) changed a picture item")
                continue
            }
            if original == nil {
                let decoded = try? DecodedFrame.decode(data, as: type, limits: decodeLimits)
                original = .some(decoded.flatMap { readsMetadataAsPixels(data, type: type, decoded: $0) ? nil : $0 })
            }
            guard let before = original ?? nil else { continue }
            let decoded = try? DecodedFrame.decode(stripped, as: type, limits: decodeLimits)
            precondition(decoded?.bitmap.pixels == before.bitmap.pixels,
                         "a strip of \(scope.description) changed the decoded pixels")
        }
        return changed ? .accepted : .refused
    }

    /// Whether `stripped` differs from `data` only inside the Exif and `mime` items' extents.
    static func changesOnlyMetadataItems(_ data: [UInt8], _ stripped: [UInt8]) -> Bool {
        guard data.count == stripped.count, let map = try? HEIFItemMap.read(data) else { return false }
        let metadata = map.items.filter { $0.type == "Exif" || $0.type == "mime" }.flatMap(\.extents)
        for index in data.indices where data[index] != stripped[index] {
            guard metadata.contains(where: { $0.contains(index) }) else { return false }
        }
        return true
    }

    /// Whether the input's pixels are not the picture's alone, so that no strip can be held to
    /// them. libwebp hands the VP8 decoder the rest of the file, not its chunk: a bitstream that
    /// runs short (a corrupt one) decodes the EXIF and XMP chunks after it as picture data. Told
    /// apart by a control: the same file with those chunks zeroed, their headers too, decodes
    /// otherwise. (A bitstream that reads only a few bytes past its chunk reads the next
    /// chunk's header, which a strip removes with the chunk: the smoke run met one.) A sound
    /// bitstream never reads past its chunk.
    static func readsMetadataAsPixels(_ data: [UInt8], type: MediaType, decoded: DecodedFrame) -> Bool {
        // A corrupt HEVC or AV1 stream can decode to other pixels from one decode to the next
        // (the decoders' threads conceal its errors in their own order), and the smoke run found
        // one: the control for every other type is the same bytes decoded again.
        guard type == .webp, data.count >= 12 else {
            let again = try? DecodedFrame.decode(data, as: type, limits: decodeLimits)
            return again?.bitmap.pixels != decoded.bitmap.pixels
        }
        var control = data
        var index = 12
        while index + 8 <= control.count {
            let size = Int(control.le32(index + 4))
            let name = String(decoding: control[index ..< index + 4], as: UTF8.self)
            let end = min(control.count, index + 8 + size)
            if name == "EXIF" || name == "XMP " { for at in index ..< end { control[at] = 0 } }
            guard size <= control.count - index - 8 else { break }
            index = end + (size & 1)
        }
        let other = try? DecodedFrame.decode(control, as: .webp, limits: decodeLimits)
        return other?.bitmap.pixels != decoded.bitmap.pixels
    }
}
