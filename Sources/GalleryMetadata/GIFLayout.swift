// A GIF's blocks: extensions (XMP's application extension, comments, ICC's, Netscape's loop),
// image descriptors with their data, and the trailer. XMP rides in an application extension
// "XMP DataXMP" written raw, followed by a 258-byte "magic trailer" that makes a reader who
// walks it as sub-blocks land on the terminator (XMP Specification Part 3, 1.1.2).

/// A GIF's extension blocks.
struct GIFLayout {
    struct Block {
        var start: Int
        var end: Int
        var kind: Kind
    }

    enum Kind: Equatable { case xmp, comment, other }

    static let xmpIdentifier = Array("XMP DataXMP".utf8)
    static let magicTrailer: [UInt8] = [0x01] + (0 ... 255).reversed().map { UInt8($0) } + [0x00]
    static let maximumBlocks = 1 << 20

    let bytes: [UInt8]
    private(set) var blocks: [Block] = []
    /// Where a block cut short by the end of the file starts (no trailer): a strip copies what
    /// follows as it is, as decoders stop there.
    private(set) var cutShortAt: Int?

    init(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        guard bytes.count >= 13, bytes.starts(with: Array("GIF8".utf8)) else { throw MetadataError("not a GIF", offset: 0) }
        var index = 13
        if bytes[10] & 0x80 != 0 { index += 3 << (Int(bytes[10] & 7) + 1) }
        for _ in 0 ..< Self.maximumBlocks {
            guard index < bytes.count else { cutShortAt = index; return }
            switch bytes[index] {
            case 0x3B:
                return
            case 0x21:
                guard index + 2 < bytes.count, let end = Self.subBlocksEnd(bytes, from: index + 2) else { cutShortAt = index; return }
                let label = bytes[index + 1]
                let isXMP = label == 0xFF && bytes[index + 2] == 11 && bytes[index + 3 ..< min(end, index + 14)].elementsEqual(Self.xmpIdentifier)
                blocks.append(Block(start: index, end: end, kind: isXMP ? .xmp : label == 0xFE ? .comment : .other))
                index = end
            case 0x2C:
                guard index + 10 <= bytes.count else { cutShortAt = index; return }
                var data = index + 10
                if bytes[index + 9] & 0x80 != 0 { data += 3 << (Int(bytes[index + 9] & 7) + 1) }
                guard let end = Self.subBlocksEnd(bytes, from: data + 1) else { cutShortAt = index; return }
                index = end
            default:
                throw MetadataError("the GIF has the byte 0x\(String(bytes[index], radix: 16)) at \(index), where a block should start",
                                    offset: index)
            }
        }
        throw MetadataError("the GIF has more than \(Self.maximumBlocks) blocks")
    }

    /// Just after the zero-length sub-block that ends a run of sub-blocks starting at `start`;
    /// nil when the file ends first.
    private static func subBlocksEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            let length = Int(bytes[index])
            index += 1 + length
            if length == 0 { return index <= bytes.count ? index : nil }
        }
        return nil
    }

    /// The raw packet of an XMP extension: between its identifier and the magic trailer.
    private func packet(_ block: Block) throws -> [UInt8] {
        let start = block.start + 14
        guard block.end - start >= Self.magicTrailer.count, bytes[block.end - Self.magicTrailer.count ..< block.end]
            .elementsEqual(Self.magicTrailer) else {
            throw MetadataError("the GIF's XMP extension at byte \(block.start) does not end with XMP's magic trailer",
                                offset: block.start)
        }
        return Array(bytes[start ..< block.end - Self.magicTrailer.count])
    }

    func report(into privacy: inout ImagePrivacy) {
        for block in blocks where block.kind == .xmp {
            do {
                MetadataPayload.reportXMP(try packet(block), at: block.start, into: &privacy)
            } catch {
                privacy.problems.append(MetadataPayload.message(error))
            }
        }
    }

    func stripped(_ scope: MetadataScope) throws -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var (cursor, changed) = (0, false)
        for block in blocks {
            var replacement: [UInt8]?
            switch block.kind {
            case .xmp:
                switch try MetadataPayload.editXMP(try packet(block), at: block.start, scope: scope) {
                case .keep: continue
                case .drop: replacement = []
                case .replace(let packet):
                    // A zero byte would end the raw packet early, read as sub-blocks.
                    replacement = Array(bytes[block.start ..< block.start + 14]) + packet.filter { $0 != 0 } + Self.magicTrailer
                }
            case .comment where scope.contains(.allMetadata): replacement = []
            default: continue
            }
            output += bytes[cursor ..< block.start] + (replacement ?? [])
            cursor = block.end
            changed = true
        }
        return changed ? output + bytes[cursor...] : nil
    }
}
