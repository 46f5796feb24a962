import GalleryImageHeaders

// An AVIF's or HEIC's metadata items: `Exif` (a 4-byte offset, then the TIFF structure) and
// `mime` items of type `application/rdf+xml` (XMP). A strip rewrites them in place and keeps
// every length, so that no `iloc` offset, `iinf`, `iref` or `ipma` entry changes and every
// decoder reads the file as before: a removed EXIF field becomes zeros, removed XMP becomes
// spaces after the packet, and all metadata leaves an empty EXIF directory and an empty XMP
// packet. Data of a metadata item that overlaps any other item's, or the boxes, is refused.

/// An AVIF's or HEIC's metadata items.
struct HEIFLayout {
    let bytes: [UInt8]
    let map: HEIFItemMap

    static let xmpContentType = "application/rdf+xml"
    static let emptyXMP = Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>".utf8)
    static let emptyExif: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]

    init(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        do {
            map = try HEIFItemMap.read(bytes)
        } catch let error as ImageHeaderError {
            throw MetadataError("the HEIF boxes cannot be read: \(error.message)", offset: error.offset.map { Int($0) })
        }
    }

    func isExif(_ item: HEIFItemMap.Item) -> Bool { item.type == "Exif" }
    func isXMP(_ item: HEIFItemMap.Item) -> Bool { item.type == "mime" && item.contentType == Self.xmpContentType }

    /// An item's bytes; extents outside the file give none (only an item whose data is in
    /// another file has such extents, and it is never read or rewritten).
    private func data(of item: HEIFItemMap.Item) -> [UInt8] {
        item.extents.flatMap { $0.lowerBound >= 0 && $0.upperBound <= bytes.count ? bytes[$0] : [] }
    }

    /// Where an `Exif` item's TIFF header starts in its data.
    private func tiffStart(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        let start = 4 + Int(data.be32(0))
        return start < data.count ? start : nil
    }

    func report(into privacy: inout ImagePrivacy) {
        for item in map.items where !item.external {
            let data = data(of: item)
            let at = item.extents.first?.lowerBound ?? 0
            if isExif(item) {
                guard let start = tiffStart(data) else {
                    privacy.problems.append("the Exif item \(item.id) at byte \(at) has no TIFF header")
                    continue
                }
                MetadataPayload.reportExif(Array(data[start...]), at: at, into: &privacy)
            } else if isXMP(item) {
                MetadataPayload.reportXMP(data, at: at, into: &privacy)
            }
        }
    }

    func stripped(_ scope: MetadataScope) throws -> [UInt8]? {
        var output = bytes
        var changed = false
        // An item whose data is in another file holds nothing of this one to remove.
        for item in map.items where (isExif(item) || isXMP(item)) && !item.external {
            let at = item.extents.first?.lowerBound ?? 0
            let data = data(of: item)
            var edited: [UInt8]
            if isExif(item) {
                guard let start = tiffStart(data) else { continue }
                let tiff = Array(data[start...])
                switch try MetadataPayload.editExif(tiff, at: at, scope: scope) {
                case .keep: continue
                case .drop: edited = Array(data[..<start]) + Self.padded(Self.emptyExif, to: tiff.count, with: 0)
                case .replace(let block): edited = Array(data[..<start]) + Self.padded(block, to: tiff.count, with: 0)
                }
            } else {
                switch try MetadataPayload.editXMP(data, at: at, scope: scope) {
                case .keep: continue
                case .drop: edited = Self.padded(Self.emptyXMP, to: data.count, with: 0x20)
                case .replace(let packet): edited = Self.padded(packet, to: data.count, with: 0x20)
                }
            }
            try checkAlone(item)
            guard edited.count == data.count else {
                throw MetadataError("item \(item.id)'s data (\(data.count) bytes) is too short to rewrite in place", offset: at)
            }
            var cursor = 0
            for extent in item.extents {
                output.replaceSubrange(extent, with: edited[cursor ..< cursor + extent.count])
                cursor += extent.count
            }
            changed = true
        }
        return changed ? output : nil
    }

    /// `bytes` followed by `filler` up to `count`; `bytes` alone when they are as long already
    /// (the caller refuses a length that differs).
    private static func padded(_ bytes: [UInt8], to count: Int, with filler: UInt8) -> [UInt8] {
        bytes.count >= count ? bytes : bytes + [UInt8](repeating: filler, count: count - bytes.count)
    }

    /// Refuses a metadata item whose data is shared with a picture item or lies in the boxes
    /// (outside `idat`): rewriting it would change what a decoder reads.
    private func checkAlone(_ item: HEIFItemMap.Item) throws {
        let at = item.extents.first?.lowerBound ?? 0
        guard !item.external else { throw MetadataError("item \(item.id)'s data is in another file", offset: at) }
        for extent in item.extents {
            if extent.overlaps(map.metaBox), !(map.itemData.map { $0.contains(extent.lowerBound) && extent.upperBound <= $0.upperBound } ?? false) {
                throw MetadataError("item \(item.id)'s data (bytes \(extent.lowerBound)–\(extent.upperBound)) overlaps the meta box",
                                    offset: extent.lowerBound)
            }
            for other in map.items where other.id != item.id {
                // Only a second item of the same kind over the same bytes (one Exif item listed
                // twice) is rewritten the same way; XMP over EXIF would be written over it.
                let sameKind = isExif(other) == isExif(item) && isXMP(other) == isXMP(item) && other.extents == item.extents
                if !sameKind, other.extents.contains(where: { $0.overlaps(extent) }) {
                    throw MetadataError("item \(item.id)'s data (bytes \(extent.lowerBound)–\(extent.upperBound)) overlaps item "
                                        + "\(other.id)'s (\(other.type))", offset: extent.lowerBound)
                }
            }
        }
    }
}
