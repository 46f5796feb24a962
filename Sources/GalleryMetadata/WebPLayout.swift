// A WebP's RIFF chunks: `EXIF` and `XMP ` after the image, flagged in `VP8X`. A strip rewrites
// or drops those two, clears the flag of a dropped one, and fixes the RIFF size.

/// A WebP's chunks.
struct WebPLayout {
    struct Chunk {
        var type: String
        var start: Int
        var data: Range<Int>
        /// With the pad byte an odd size takes.
        var end: Int
    }

    static let maximumChunks = 1 << 16
    static let exifFlag: UInt8 = 0x08
    static let xmpFlag: UInt8 = 0x04

    let bytes: [UInt8]
    private(set) var chunks: [Chunk] = []
    /// The end of what the RIFF header covers, and where the chunks stop being whole (a chunk
    /// cut short, copied as it is by a strip).
    private(set) var riffEnd = 0
    private(set) var wholeEnd = 0

    init(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        guard bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8 ..< 12].elementsEqual("WEBP".utf8) else {
            throw MetadataError("not a WebP (no RIFF WEBP header)", offset: 0)
        }
        riffEnd = min(bytes.count, 8 + Int(bytes.le32(4)))
        var index = 12
        while index + 8 <= riffEnd {
            guard chunks.count < Self.maximumChunks else { throw MetadataError("more than \(Self.maximumChunks) WebP chunks") }
            let size = Int(bytes.le32(index + 4))
            guard size <= riffEnd - index - 8 else { break }
            let data = index + 8 ..< index + 8 + size
            chunks.append(Chunk(type: String(decoding: bytes[index ..< index + 4], as: UTF8.self), start: index,
                                data: data, end: min(riffEnd, data.upperBound + (size & 1))))
            index = chunks.last!.end
        }
        wholeEnd = index
    }

    /// The EXIF chunk's TIFF structure, after the `Exif\0\0` some writers put first.
    private func exifPayload(_ chunk: Chunk) -> (prefix: [UInt8], tiff: [UInt8]) {
        let data = Array(bytes[chunk.data])
        return data.starts(with: JPEGLayout.exifPrefix) ? (JPEGLayout.exifPrefix, Array(data.dropFirst(6))) : ([], data)
    }

    func report(into privacy: inout ImagePrivacy) {
        for chunk in chunks {
            switch chunk.type {
            case "EXIF": MetadataPayload.reportExif(exifPayload(chunk).tiff, at: chunk.start, into: &privacy)
            case "XMP ": MetadataPayload.reportXMP(Array(bytes[chunk.data]), at: chunk.start, into: &privacy)
            default: break
            }
        }
    }

    func stripped(_ scope: MetadataScope) throws -> [UInt8]? {
        var body: [UInt8] = []
        body.reserveCapacity(bytes.count)
        var (changed, clearedFlags): (Bool, UInt8) = (false, 0)
        for chunk in chunks {
            var edit = PayloadEdit.keep
            var prefix: [UInt8] = []
            if chunk.type == "EXIF" {
                let payload = exifPayload(chunk)
                prefix = payload.prefix
                edit = try MetadataPayload.editExif(payload.tiff, at: chunk.start, scope: scope)
                if edit == .drop { clearedFlags |= Self.exifFlag }
            } else if chunk.type == "XMP " {
                edit = try MetadataPayload.editXMP(Array(bytes[chunk.data]), at: chunk.start, scope: scope)
                if edit == .drop { clearedFlags |= Self.xmpFlag }
            }
            switch edit {
            case .keep: body += bytes[chunk.start ..< chunk.end]
            case .drop: changed = true
            case .replace(let data):
                changed = true
                let payload = prefix + data
                body += Array(chunk.type.utf8) + littleEndian32(payload.count) + payload
                if payload.count & 1 == 1 { body.append(0) }
            }
        }
        guard changed else { return nil }
        body += bytes[wholeEnd ..< max(wholeEnd, riffEnd)]
        if let vp8x = chunks.first, vp8x.type == "VP8X", vp8x.data.count >= 1 {
            body[vp8x.data.lowerBound - 12] &= ~clearedFlags
        }
        return Array("RIFF".utf8) + littleEndian32(body.count + 4) + Array("WEBP".utf8) + body + bytes[max(wholeEnd, riffEnd)...]
    }
}

func littleEndian32(_ value: Int) -> [UInt8] {
    [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
}
