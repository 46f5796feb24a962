import GalleryFormat

// A PNG's chunks, all of them up to IEND: metadata may follow the image data (`eXIf` after
// `IDAT` is allowed). A strip rewrites `eXIf`, the XMP `iTXt` and the text chunks and copies
// every other chunk byte for byte, each rewritten chunk with its new CRC.

/// A PNG's chunks.
struct PNGLayout {
    struct Chunk {
        var type: String
        var start: Int
        var data: Range<Int>
        var end: Int { data.upperBound + 4 }
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let xmpKeyword = "XML:com.adobe.xmp"
    static let maximumChunks = 1 << 16
    /// Text and time chunks: what all metadata includes besides `eXIf`.
    static let textTypes: Set<String> = ["tEXt", "zTXt", "iTXt", "tIME"]

    let bytes: [UInt8]
    private(set) var chunks: [Chunk] = []
    /// Where a chunk cut short by the end of the file starts: no reader reads it, and a strip
    /// copies it as it is.
    private(set) var cutShortAt: Int?

    init(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        guard bytes.starts(with: Self.signature) else { throw MetadataError("not a PNG (no signature)", offset: 0) }
        var index = 8
        while index < bytes.count {
            guard chunks.count < Self.maximumChunks else { throw MetadataError("more than \(Self.maximumChunks) PNG chunks") }
            guard index + 12 <= bytes.count, Int(bytes.be32(index)) <= bytes.count - index - 12 else {
                cutShortAt = index
                break
            }
            let length = Int(bytes.be32(index))
            let chunk = Chunk(type: String.shownFourCC(bytes[index + 4 ..< index + 8]), start: index,
                              data: index + 8 ..< index + 8 + length)
            chunks.append(chunk)
            index = chunk.end
            if chunk.type == "IEND" { break }
        }
    }

    /// A text chunk's keyword, and for `iTXt` whether its text is compressed and where it starts.
    func text(_ chunk: Chunk) -> (keyword: String, compressed: Bool, text: Range<Int>)? {
        let data = bytes[chunk.data]
        guard let zero = data.firstIndex(of: 0), zero - chunk.data.lowerBound <= 79 else { return nil }
        let keyword = String(decoding: bytes[chunk.data.lowerBound ..< zero], as: UTF8.self)
        switch chunk.type {
        case "tEXt": return (keyword, false, zero + 1 ..< chunk.data.upperBound)
        case "zTXt": return (keyword, true, zero + 1 ..< chunk.data.upperBound)
        case "iTXt":
            // Compression flag, method, language tag, translated keyword, then the text.
            guard zero + 3 <= chunk.data.upperBound else { return nil }
            var index = zero + 3
            for _ in 0 ..< 2 {
                guard let end = bytes[index ..< chunk.data.upperBound].firstIndex(of: 0) else { return nil }
                index = end + 1
            }
            return (keyword, bytes[zero + 1] != 0, index ..< chunk.data.upperBound)
        default: return nil
        }
    }

    func report(into privacy: inout ImagePrivacy) {
        for chunk in chunks {
            if chunk.type == "eXIf" {
                MetadataPayload.reportExif(Array(bytes[chunk.data]), at: chunk.start, into: &privacy)
            }
            guard let text = text(chunk) else { continue }
            if text.keyword == Self.xmpKeyword {
                if text.compressed {
                    privacy.problems.append("the XMP at byte \(chunk.start) is compressed, and not read")
                } else {
                    MetadataPayload.reportXMP(Array(bytes[text.text]), at: chunk.start, into: &privacy)
                }
            } else if MetadataPayload.identityKeywords.contains(text.keyword) {
                privacy.add("PNG text \(text.keyword)", .identity)
            } else if MetadataPayload.isLegacyProfile(text.keyword) {
                privacy.problems.append("the text \"\(text.keyword)\" at byte \(chunk.start) is a legacy copy of "
                                        + "metadata, not read")
            }
        }
    }

    /// The file without what `scope` names, or nil when nothing changes.
    func stripped(_ scope: MetadataScope) throws -> [UInt8]? {
        let all = scope.contains(.allMetadata)
        var output = Self.signature
        output.reserveCapacity(bytes.count)
        var changed = false
        for chunk in chunks {
            var edit = PayloadEdit.keep
            if chunk.type == "eXIf" {
                edit = try MetadataPayload.editExif(Array(bytes[chunk.data]), at: chunk.start, scope: scope)
            } else if all, Self.textTypes.contains(chunk.type) {
                edit = .drop
            } else if let text = text(chunk) {
                if text.keyword == Self.xmpKeyword {
                    // A compressed packet is not read here: a strip removes it whole.
                    edit = text.compressed ? .drop : try MetadataPayload.editXMP(Array(bytes[text.text]), at: chunk.start, scope: scope)
                    if case .replace(let packet) = edit {
                        edit = .replace(Array(bytes[chunk.data.lowerBound ..< text.text.lowerBound]) + packet)
                    }
                } else if scope.removesIdentity && MetadataPayload.identityKeywords.contains(text.keyword)
                            || MetadataPayload.isLegacyProfile(text.keyword) && (scope.removesLocation || scope.removesIdentity) {
                    edit = .drop
                }
            }
            switch edit {
            case .keep: output += bytes[chunk.start ..< chunk.end]
            case .drop: changed = true
            case .replace(let data):
                changed = true
                output += Self.chunk(Array(bytes[chunk.start + 4 ..< chunk.start + 8]), data)
            }
        }
        guard changed else { return nil }
        output += bytes[(cutShortAt ?? chunks.last?.end ?? bytes.count)...]
        return output
    }

    static func chunk(_ type: [UInt8], _ data: [UInt8]) -> [UInt8] {
        bigEndian32(data.count) + type + data + bigEndian32(Int(CRC32.of(type + data)))
    }
}
