#if canImport(Glibc)
import func Glibc.memchr
#endif

// A JPEG's marker segments before its first scan, where every metadata block is (APP1 EXIF and
// XMP, APP13 IPTC, COM), and the end of its image. A strip rewrites those segments and copies
// the scans after them byte for byte.

/// A JPEG's segments up to its first scan.
struct JPEGLayout {
    struct Segment {
        var code: UInt8
        var start: Int
        var end: Int
        var kind: Kind
        /// The metadata inside, after its identifying prefix.
        var payload: Range<Int>
    }

    enum Kind: Equatable {
        case exif, xmp, extendedXMP, photoshop, comment
        /// JFIF, the ICC profile, Adobe's colour transform: what the picture needs.
        case essential
        /// Any other application segment (MPF, FlashPix, a camera's own).
        case otherApplication
        /// Tables, frame, restart interval: the picture itself.
        case picture
    }

    static let exifPrefix = Array("Exif\0\0".utf8)
    static let xmpPrefix = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    static let extendedPrefix = Array("http://ns.adobe.com/xmp/extension/\0".utf8)
    /// GUID (32), full length (4), offset (4).
    static let extendedHeader = extendedPrefix.count + 40
    static let maximumSegments = 8_192

    let bytes: [UInt8]
    private(set) var segments: [Segment] = []
    /// The first scan's marker (or the end-of-image marker when there is no scan).
    private(set) var scanStart: Int

    init(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        guard bytes.starts(with: [0xFF, 0xD8]) else { throw MetadataError("not a JPEG (no start-of-image marker)", offset: 0) }
        var index = 2
        var start: Int?
        for _ in 0 ..< Self.maximumSegments {
            while index + 1 < bytes.count, bytes[index] == 0xFF, bytes[index + 1] == 0xFF { index += 1 }
            guard index + 1 < bytes.count, bytes[index] == 0xFF else {
                throw MetadataError("a JPEG marker is expected at byte \(index)", offset: index)
            }
            let code = bytes[index + 1]
            if code == 0xDA || code == 0xD9 { start = index; break }
            if code == 0x01 || (0xD0 ... 0xD7).contains(code) {
                segments.append(Segment(code: code, start: index, end: index + 2, kind: .picture, payload: index + 2 ..< index + 2))
                index += 2
                continue
            }
            // A segment cut short by the end of the file is read by nobody: from there on the
            // bytes are copied as they are, like the scans.
            guard index + 4 <= bytes.count, index + 2 + bytes.be16(index + 2) <= bytes.count else { start = index; break }
            let length = bytes.be16(index + 2)
            guard length >= 2 else {
                throw MetadataError("the JPEG segment at byte \(index) declares \(length) bytes, fewer than its length field", offset: index)
            }
            segments.append(Self.segment(code, bytes: bytes, start: index, end: index + 2 + length))
            index += 2 + length
        }
        guard let start else { throw MetadataError("the JPEG has more than \(Self.maximumSegments) segments before its scan") }
        scanStart = start
    }

    /// Just after the end-of-image marker, when there is one: found by walking the scans, so
    /// only a strip that changes something asks.
    var imageEnd: Int? { Self.endOfImage(bytes, from: scanStart) }

    private static func segment(_ code: UInt8, bytes: [UInt8], start: Int, end: Int) -> Segment {
        let body = start + 4 ..< end
        func has(_ prefix: [UInt8]) -> Bool { bytes[body].starts(with: prefix) }
        func after(_ count: Int) -> Range<Int> { min(body.upperBound, body.lowerBound + count) ..< body.upperBound }
        let kind: Kind
        var payload = body
        switch code {
        case 0xE1 where has(exifPrefix): (kind, payload) = (.exif, after(exifPrefix.count))
        case 0xE1 where has(xmpPrefix): (kind, payload) = (.xmp, after(xmpPrefix.count))
        case 0xE1 where has(extendedPrefix): (kind, payload) = (.extendedXMP, after(extendedHeader))
        case 0xED where has(PhotoshopResources.signature): kind = .photoshop
        case 0xFE: kind = .comment
        case 0xE0 where has(Array("JFIF".utf8)) || has(Array("JFXX".utf8)): kind = .essential
        case 0xE2 where has(Array("ICC_PROFILE\0".utf8)): kind = .essential
        case 0xEE where has(Array("Adobe".utf8)): kind = .essential
        case 0xE0 ... 0xEF: kind = .otherApplication
        default: kind = .picture
        }
        return Segment(code: code, start: start, end: end, kind: kind, payload: payload)
    }

    /// Just after the end-of-image marker: entropy-coded data is skipped to the next real marker.
    private static func endOfImage(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let code = bytes[index + 1]
            if code == 0xFF { index += 1; continue }
            if code == 0xD9 { return index + 2 }
            if code == 0x01 || (0xD0 ... 0xD7).contains(code) { index += 2; continue }
            guard index + 3 < bytes.count else { return nil }
            index += 2 + bytes.be16(index + 2)
            guard code == 0xDA else { continue }
            while index + 1 < bytes.count {
                guard let found = nextFF(bytes, from: index) else { return nil }
                index = found
                let next = bytes[index + 1]
                if next != 0x00 && !(0xD0 ... 0xD7).contains(next) && next != 0xFF { break }
                index += 1
            }
        }
        return nil
    }

    /// The first 0xFF at or after `start` before the last byte, by memchr: entropy-coded data
    /// is most of a photo.
    private static func nextFF(_ bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count - 1 else { return nil }
        return bytes.withUnsafeBytes { buffer in
            memchr(buffer.baseAddress! + start, 0xFF, bytes.count - 1 - start).map { buffer.baseAddress!.distance(to: UnsafeRawPointer($0)) }
        }
    }

    /// Bytes after the end of the image at `end` other than zero padding: a motion photo's
    /// video, a multi-picture file's further images, a phone's trailer.
    func trailingBytes(after end: Int?) -> Int {
        guard let end, end < bytes.count else { return 0 }
        return bytes[end...].contains { $0 != 0 } ? bytes.count - end : 0
    }

    /// The extended XMP chunks joined in offset order (bounded like a packet).
    var extendedXMP: [UInt8] {
        var parts: [(Int, ArraySlice<UInt8>)] = []
        var total = 0
        for segment in segments where segment.kind == .extendedXMP {
            let offsetAt = segment.payload.lowerBound - 4
            parts.append((Int(bytes.be32(offsetAt)), bytes[segment.payload]))
            total += segment.payload.count
            if total > XMPPacket.maximumBytes { break }
        }
        return parts.sorted { $0.0 < $1.0 }.flatMap(\.1)
    }
}

extension JPEGLayout {
    func report(into privacy: inout ImagePrivacy) {
        for segment in segments {
            let payload = Array(bytes[segment.payload])
            switch segment.kind {
            case .exif: MetadataPayload.reportExif(payload, at: segment.start, into: &privacy)
            case .xmp: MetadataPayload.reportXMP(payload, at: segment.start, into: &privacy)
            case .photoshop: MetadataPayload.reportPhotoshop(payload, at: segment.start, into: &privacy)
            default: break
            }
        }
        if segments.contains(where: { $0.kind == .extendedXMP }) {
            MetadataPayload.reportXMP(extendedXMP, at: segments.first { $0.kind == .extendedXMP }!.start, into: &privacy)
        }
    }

    /// The file without what `scope` names, or nil when nothing changes.
    func stripped(_ scope: MetadataScope) throws -> [UInt8]? {
        let all = scope.contains(.allMetadata)
        let extendedGone = segments.contains { $0.kind == .extendedXMP }
            && (all || MetadataPayload.xmpHolds(extendedXMP, scope: scope))
        var edits: [PayloadEdit] = []
        for segment in segments {
            let payload = Array(bytes[segment.payload])
            switch segment.kind {
            case .exif: edits.append(try MetadataPayload.editExif(payload, at: segment.start, scope: scope))
            case .xmp:
                edits.append(try MetadataPayload.editXMP(payload, at: segment.start, scope: scope, extendedGone: extendedGone))
            case .extendedXMP: edits.append(extendedGone ? .drop : .keep)
            case .photoshop: edits.append(try MetadataPayload.editPhotoshop(payload, at: segment.start, scope: scope))
            case .comment, .otherApplication: edits.append(all ? .drop : .keep)
            case .essential, .picture: edits.append(.keep)
            }
        }
        guard edits.contains(where: { $0 != .keep }) else { return nil }
        let imageEnd = self.imageEnd
        let trailing = trailingBytes(after: imageEnd)
        if trailing > 0, let imageEnd {
            throw MetadataError("\(trailing) bytes follow the image's end at byte \(imageEnd) (a motion photo's video, "
                                + "or a multi-picture file's further images), which may hold metadata of their own", offset: imageEnd)
        }
        var output = Array(bytes[0 ..< 2])
        output.reserveCapacity(bytes.count)
        for (segment, edit) in zip(segments, edits) {
            switch edit {
            case .keep: output += bytes[segment.start ..< segment.end]
            case .drop: break
            case .replace(let payload):
                let prefix = bytes[segment.start + 4 ..< segment.payload.lowerBound]
                let length = 2 + prefix.count + payload.count
                output += [0xFF, segment.code, UInt8(length >> 8), UInt8(length & 0xFF)] + prefix + payload
            }
        }
        output += bytes[scanStart...]
        return output
    }

    /// A JPEG (an EXIF thumbnail) without its application segments but JFIF, the ICC profile
    /// and Adobe's, and without comments; nil when it has none or cannot be read.
    static func withoutApplicationSegments(_ bytes: [UInt8]) -> [UInt8]? {
        guard let layout = try? JPEGLayout(bytes) else { return nil }
        let kept = layout.segments.filter { $0.kind == .essential || $0.kind == .picture }
        guard kept.count < layout.segments.count else { return nil }
        return Array(bytes[0 ..< 2]) + kept.flatMap { bytes[$0.start ..< $0.end] } + bytes[layout.scanStart...]
    }
}
