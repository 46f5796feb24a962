// AVIF and HEIC (HEIF, ISO/IEC 23008-12, in ISOBMFF boxes): the image is the primary item of
// the `meta` box (`pitm`). Its size is its `ispe` property and its turn and mirror are `irot`
// and `imir` (`ipco` holds the properties, `ipma` ties them to items). A `grid` item is made of
// tiles it references with `dimg`; the tiles must be coded images of one codec, never grids,
// which also rules out the reference loops that crash libheif 1.15. The codec of the primary
// item, not the brands, decides the type: `av01` is AVIF, `hvc1` is HEIC.
extension ImageGeometry {
    /// The coding of a HEIF image's primary item.
    package enum HEIFCodec: String, Sendable {
        case av1 = "av01", hevc = "hvc1"
    }

    package static func heif(size: UInt64, limits: HeaderLimits = HeaderLimits(),
                             read: @escaping (UInt64, Int) throws -> [UInt8]) throws -> (ImageGeometry, HEIFCodec) {
        var walk = BoxWalk(source: HeaderSource(size: size, read: read), limits: limits)
        let top = try walk.children(from: 0, to: size)
        guard let ftyp = top.first, ftyp.type == "ftyp" else { throw ImageHeaderError("the first box is not ftyp", offset: 0) }
        let brands = try walk.brands(ftyp)
        let metas = top.filter { $0.type == "meta" }
        guard metas.count == 1 else { throw ImageHeaderError("\(metas.count) meta boxes at the top level, not one", offset: 0) }
        let meta = try walk.meta(metas[0])

        guard let primary = meta.primary else { throw ImageHeaderError("no primary item (pitm)", offset: metas[0].start) }
        guard let type = meta.itemTypes[primary] else {
            throw ImageHeaderError("the primary item \(primary) is not in iinf", offset: metas[0].start)
        }
        let codec: HEIFCodec
        if type == "grid" {
            let tiles = meta.derived[primary] ?? []
            guard !tiles.isEmpty else { throw ImageHeaderError("the grid has no tiles (dimg)", offset: metas[0].start) }
            guard tiles.count <= limits.tiles else {
                throw ImageHeaderError("a grid of \(tiles.count) tiles, more than \(limits.tiles)", offset: metas[0].start)
            }
            let tileTypes = Set(tiles.map { meta.itemTypes[$0] ?? "none" })
            guard tileTypes.count == 1, let tileType = tileTypes.first, let tileCodec = HEIFCodec(rawValue: tileType) else {
                throw ImageHeaderError("the grid's tiles are of type \(tileTypes.sorted().joined(separator: ", ")), "
                                       + "not all av01 or all hvc1 (a grid of grids, or a missing item)", offset: metas[0].start)
            }
            codec = tileCodec
        } else if let itemCodec = HEIFCodec(rawValue: type) {
            codec = itemCodec
        } else {
            throw ImageHeaderError("the primary item is of type \(type), not av01, hvc1 or grid", offset: metas[0].start)
        }
        // Brands that name one codec and not the other contradict an item of the other.
        let (avif, hevc) = (!Set(brands).isDisjoint(with: ["avif", "avis"]),
                            !Set(brands).isDisjoint(with: ["heic", "heix", "heim", "heis", "hevc", "hevx"]))
        if codec == .hevc, avif, !hevc { throw ImageHeaderError("the brands say AVIF, the primary item is HEVC", offset: 8) }
        if codec == .av1, hevc, !avif { throw ImageHeaderError("the brands say HEIC, the primary item is AV1", offset: 8) }

        // The items behind the header hold together (IG-BLB-017: ImageGeometry+HEIFItems.swift).
        try walk.checkItems(of: primary, type: type, in: meta, box: metas[0])
        var geometry: ImageGeometry?
        for property in meta.properties(of: primary) {
            switch property.type {
            case "ispe":
                let body = try walk.source.bytes(at: property.payload, count: 12, "the ispe property")
                geometry = ImageGeometry(width: Int(body.be32(4)), height: Int(body.be32(8)))
            case "irot":
                geometry?.quarterTurns = Int(try walk.source.bytes(at: property.payload, count: 1, "the irot property")[0] & 3)
            case "imir":
                let axis = try walk.source.bytes(at: property.payload, count: 1, "the imir property")[0] & 1
                let turned = geometry?.quarterTurns ?? 0
                geometry?.mirror = axis == 0 ? .vertical : .horizontal
                geometry?.mirroredFirst = turned == 0
            default:
                break
            }
        }
        guard var found = geometry else { throw ImageHeaderError("the primary item has no ispe property", offset: metas[0].start) }
        // An AVIF's alpha is an AV1 item of its own, decoded beside the image's.
        let coded = (type == "grid" ? meta.derived[primary] ?? [] : [primary]) + (codec == .av1 ? meta.alphaItems(of: primary) : [])
        found.bitsPerSample = try walk.bitsPerSample(of: coded, codec: codec, in: meta)
        if codec == .hevc { found.chromaFormat = try walk.chromaFormat(of: coded, in: meta) }
        guard (1 ... limits.dimension).contains(found.width), (1 ... limits.dimension).contains(found.height) else {
            throw ImageHeaderError("the ispe size \(found.width) × \(found.height) is not 1 to \(limits.dimension) on a side",
                                   offset: metas[0].start)
        }
        // The declared size against the coded image's own headers (IG-BLB-019: ImageGeometry+CodedSize.swift).
        try walk.checkCodedSize(of: primary, type: type, codec: codec, declared: found, in: meta, box: metas[0])
        found.hasAlpha = try meta.alphaItems(of: primary).contains { item in
            try meta.properties(of: item).contains { property in
                guard property.type == "auxC", property.end > property.payload + 4 else { return false }
                let urn = try walk.source.bytes(at: property.payload + 4, count: Int(min(property.end - property.payload - 4, 64)), "auxC")
                let text = String(decoding: urn.prefix { $0 != 0 }, as: UTF8.self)
                return text == "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha" || text == "urn:mpeg:hevc:2015:auxid:1"
            }
        }
        return (found, codec)
    }
}

extension BoxWalk {
    /// The most bits a sample of the coded items has (luma, chroma or an AVIF's alpha), from
    /// each one's configuration: an `hvcC`'s bytes 17 and 18 (the bit depths less 8), an
    /// `av1C`'s byte 2 (`high_bitdepth`, then `twelve_bit`). 16 when an item has none that
    /// says, as a decoder's buffers might then hold.
    mutating func bitsPerSample(of items: [UInt64], codec: ImageGeometry.HEIFCodec, in meta: HEIFMeta) throws -> Int {
        let (type, length): (String, UInt64) = codec == .hevc ? ("hvcC", 19) : ("av1C", 4)
        var bits = 8
        for item in items {
            guard let configuration = meta.properties(of: item).first(where: { $0.type == type }),
                  configuration.end >= configuration.payload + length else { return 16 }
            switch codec {
            case .hevc:
                let depths = try source.bytes(at: configuration.payload + 17, count: 2, "the hvcC property")
                bits = max(bits, Int(depths[0] & 7) + 8, Int(depths[1] & 7) + 8)
            case .av1:
                let flags = try source.bytes(at: configuration.payload + 2, count: 1, "the av1C property")[0]
                bits = max(bits, flags & 0x40 == 0 ? 8 : flags & 0x20 == 0 ? 10 : 12)
            }
        }
        return bits
    }
}

extension BoxWalk {
    /// The most chroma an HEVC item carries, from each one's `hvcC` (byte 16's low two bits,
    /// `chroma_format_idc`); 3, the most there is, when an item has none that says.
    mutating func chromaFormat(of items: [UInt64], in meta: HEIFMeta) throws -> Int {
        var chroma = 0
        guard !items.isEmpty else { return 3 }
        for item in items {
            guard let configuration = meta.properties(of: item).first(where: { $0.type == "hvcC" }),
                  configuration.end >= configuration.payload + 19 else { return 3 }
            chroma = max(chroma, Int(try source.bytes(at: configuration.payload + 16, count: 1, "the hvcC property")[0] & 3))
        }
        return chroma
    }
}

/// One ISOBMFF box: its type, where it starts, where its payload starts and where it ends.
struct HEIFBox {
    var type: String
    var start: UInt64
    var payload: UInt64
    var end: UInt64
}

/// What the `meta` box says about items.
struct HEIFMeta {
    var primary: UInt64?
    var itemTypes: [UInt64: String] = [:]
    /// The content type of each `mime` item (XMP's is `application/rdf+xml`).
    var contentTypes: [UInt64: String] = [:]
    /// `dimg` references: a derived item (a grid) and the items it is made of, in order.
    var derived: [UInt64: [UInt64]] = [:]
    /// `auxl` references: auxiliary items (alpha, depth) and the items they belong to.
    var auxiliary: [UInt64: [UInt64]] = [:]
    var propertyBoxes: [HEIFBox] = []
    /// Item → 1-based indices into `propertyBoxes`, in the order `ipma` lists them.
    var associations: [UInt64: [Int]] = [:]

    func properties(of item: UInt64) -> [HEIFBox] {
        (associations[item] ?? []).compactMap { $0 >= 1 && $0 <= propertyBoxes.count ? propertyBoxes[$0 - 1] : nil }
    }

    func alphaItems(of item: UInt64) -> [UInt64] {
        auxiliary.filter { $0.value.contains(item) }.map(\.key)
    }
}

/// Reads boxes within their parents' bounds, counting them against the limit.
struct BoxWalk {
    var source: HeaderSource
    let limits: HeaderLimits
    private var count = 0

    init(source: HeaderSource, limits: HeaderLimits) {
        self.source = source
        self.limits = limits
    }

    /// The boxes between `start` and `end`, each checked to lie within them.
    mutating func children(from start: UInt64, to end: UInt64) throws -> [HEIFBox] {
        var boxes: [HEIFBox] = []
        var offset = start
        while offset < end {
            count += 1
            guard count <= limits.boxes else { throw ImageHeaderError("more than \(limits.boxes) boxes", offset: offset) }
            guard end - offset >= 8 else { throw ImageHeaderError("\(end - offset) stray bytes where a box should start", offset: offset) }
            let header = try source.bytes(at: offset, count: 8, "a box header")
            let type = header.fourCC(4)
            var (size, payload) = (header.be32(0), offset + 8)
            if size == 1 {
                size = try source.bytes(at: offset + 8, count: 8, "a box's 64-bit size").be64(0)
                payload += 8
            } else if size == 0 {
                // To the end of the file: for the last box (mdat). A meta box so sized takes the
                // boxes after it inside it, and libheif then reports "No 'meta' box" for a file
                // that has one: our finding is the one that says what is wrong.
                guard type != "meta" else {
                    throw ImageHeaderError("the meta box's size is 0 (to the end of the file), so the boxes after it "
                                           + "lie inside it", offset: offset)
                }
                size = end - offset  // to the end of its parent
            }
            guard size >= payload - offset, offset.addingSaturating(size) <= end else {
                let shown = String.shownFourCC(header[4 ..< 8])
                if size >= payload - offset, offset.addingSaturating(size) > source.size {
                    throw ImageHeaderError("the \(shown) box's size (\(size)) runs past the end of the file "
                                           + "(\(source.size) bytes)", offset: offset)
                }
                throw ImageHeaderError("the \(shown) box's size (\(size)) does not fit in its parent", offset: offset)
            }
            boxes.append(HEIFBox(type: type, start: offset, payload: payload, end: offset + size))
            offset += size
        }
        return boxes
    }

    /// The major brand and the compatible ones.
    mutating func brands(_ ftyp: HEIFBox) throws -> [String] {
        let length = Int(min(ftyp.end - ftyp.payload, 4 * 64))
        guard length >= 8 else { throw ImageHeaderError("the ftyp box is too short", offset: ftyp.start) }
        let body = try source.bytes(at: ftyp.payload, count: length, "the ftyp box")
        return [body.fourCC(0)] + stride(from: 8, to: length - 3, by: 4).map { body.fourCC($0) }
    }

    mutating func meta(_ box: HEIFBox) throws -> HEIFMeta {
        var meta = HEIFMeta()
        for child in try children(from: box.payload + 4, to: box.end) {
            let version = try source.bytes(at: child.payload, count: 4, "a full box header")[0]
            let body = child.payload + 4
            switch child.type {
            case "hdlr":
                let handler = try source.bytes(at: body + 4, count: 4, "the hdlr box").fourCC(0)
                guard handler == "pict" else { throw ImageHeaderError("the meta handler is \(handler), not pict", offset: child.start) }
            case "pitm":
                let id = try source.bytes(at: body, count: version == 0 ? 2 : 4, "the pitm box")
                meta.primary = version == 0 ? UInt64(id.be16(0)) : id.be32(0)
            case "iinf":
                let countBytes = try source.bytes(at: body, count: version == 0 ? 2 : 4, "the iinf box")
                let entries = version == 0 ? UInt64(countBytes.be16(0)) : countBytes.be32(0)
                guard entries <= UInt64(limits.items) else {
                    throw ImageHeaderError("\(entries) items, more than \(limits.items)", offset: child.start)
                }
                for infe in try children(from: body + (version == 0 ? 2 : 4), to: child.end) where infe.type == "infe" {
                    let head = try source.bytes(at: infe.payload, count: 12, "an infe box")
                    guard head[0] >= 2 else { continue }  // versions 0 and 1 name no item type
                    let (id, typeAt) = head[0] == 2 ? (UInt64(head.be16(4)), 8) : (head.be32(4), 10)
                    let type = try source.bytes(at: infe.payload + UInt64(typeAt), count: 4, "an infe item type").fourCC(0)
                    if type == "mime" {
                        // The item's name, then its content type, each ending in a zero byte.
                        let start = infe.payload + UInt64(typeAt + 4)
                        let text = try source.bytes(at: start, count: Int(min(infe.end - start, 512)), "an infe box")
                        let fields = text.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
                        if fields.count >= 2 { meta.contentTypes[id] = String(decoding: fields[1], as: UTF8.self) }
                    }
                    guard meta.itemTypes.updateValue(type, forKey: id) == nil else {
                        throw ImageHeaderError("item \(id) is declared twice", offset: infe.start)
                    }
                }
            case "iref":
                let idSize = version == 0 ? 2 : 4
                for reference in try children(from: body, to: child.end) where ["dimg", "auxl"].contains(reference.type) {
                    let head = try source.bytes(at: reference.payload, count: idSize + 2, "an iref reference")
                    let from = idSize == 2 ? UInt64(head.be16(0)) : head.be32(0)
                    let count = head.be16(idSize)
                    let ids = try source.bytes(at: reference.payload + UInt64(idSize + 2), count: count * idSize, "an iref reference")
                    let targets = (0 ..< count).map { idSize == 2 ? UInt64(ids.be16($0 * 2)) : ids.be32($0 * 4) }
                    if reference.type == "dimg" {
                        guard meta.derived[from] == nil else {
                            throw ImageHeaderError("item \(from) has two dimg references", offset: reference.start)
                        }
                        meta.derived[from] = targets
                    } else {
                        meta.auxiliary[from, default: []] += targets
                    }
                }
            case "iprp":
                for part in try children(from: child.payload, to: child.end) {
                    if part.type == "ipco" {
                        meta.propertyBoxes = try children(from: part.payload, to: part.end)
                        guard meta.propertyBoxes.count <= limits.items else {
                            throw ImageHeaderError("more than \(limits.items) properties", offset: part.start)
                        }
                    } else if part.type == "ipma" {
                        meta.associations = try associations(part)
                    }
                }
            default:
                break
            }
        }
        return meta
    }

    private mutating func associations(_ ipma: HEIFBox) throws -> [UInt64: [Int]] {
        let head = try source.bytes(at: ipma.payload, count: 8, "the ipma box")
        let (version, wide) = (head[0], head[3] & 1 == 1)
        let entries = head.be32(4)
        guard entries <= UInt64(limits.items) else { throw ImageHeaderError("ipma lists \(entries) items", offset: ipma.start) }
        var result: [UInt64: [Int]] = [:]
        var offset = ipma.payload + 8
        for _ in 0 ..< entries {
            let idSize = version < 1 ? 2 : 4
            let entry = try source.bytes(at: offset, count: idSize + 1, "an ipma entry")
            let item = idSize == 2 ? UInt64(entry.be16(0)) : entry.be32(0)
            let count = Int(entry[idSize])
            let size = wide ? 2 : 1
            let list = try source.bytes(at: offset + UInt64(idSize + 1), count: count * size, "an ipma entry")
            result[item, default: []] += (0 ..< count).map { wide ? list.be16($0 * 2) & 0x7FFF : Int(list[$0] & 0x7F) }
            offset += UInt64(idSize + 1 + count * size)
            guard offset <= ipma.end else { throw ImageHeaderError("the ipma entries run past the box", offset: ipma.start) }
        }
        return result
    }
}
