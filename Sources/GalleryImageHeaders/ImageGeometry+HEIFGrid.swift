// A HEIF grid's layout, for a decoder that walks its tiles itself (issue 28): libheif 1.15
// decodes a grid whole, every tile into one image, so a phone's 24 MP HEIC needs more memory
// than a thumbnailer has, and it has no call for one tile (1.19 added one) and finds no hidden
// item by its id. This reader gives what a tile-by-tile decode needs: the rows, columns and
// output size of the grid item's data (in `idat` or the file, through `iloc`), its tiles in
// `dimg` order, and each tile's coded bytes and properties, from which a decoder makes a
// one-item file of each tile for libheif.

/// A grid item and its tiles, each tile checked to lie within the file.
package struct HEIFGridLayout: Sendable {
    /// One tile: its coded bytes (the extents of its `iloc` entry, in order) and the property
    /// boxes, whole, that decoding it needs (its configuration, `ispe`, `colr` and `pixi`). Not
    /// the grid's `colr`: libheif 1.15 converts each tile of a grid it decodes whole with the
    /// tile's own colour description (a grid-only nclx changes none of heif-convert's pixels),
    /// and a tile decoded alone must come out as it does there.
    package struct Tile: Sendable {
        package var id: UInt64
        package var extents: [Range<Int>]
        package var properties: [[UInt8]]
        /// Which of `properties` are essential (the codec configuration).
        package var essential: [Bool]
    }

    package var rows: Int
    package var columns: Int
    /// The size the grid's data gives, to which the tiles are cropped.
    package var width: Int
    package var height: Int
    /// The tiles' size (every tile's `ispe` must state it).
    package var tileWidth: Int
    package var tileHeight: Int
    /// Row by row, left to right, as `dimg` lists them.
    package var tiles: [Tile]
}

extension HEIFGridLayout.Tile {
    /// A HEIF file whose one item is this tile, for a library that decodes whole images: an
    /// `ftyp` (heic or avif), a `meta` (hdlr, pitm, iloc, iinf, iprp with the tile's properties)
    /// and an `mdat` of the tile's coded bytes, taken from `bytes`, the grid's file.
    package func file(in bytes: [UInt8], codec: ImageGeometry.HEIFCodec) -> [UInt8] {
        let data = extents.flatMap { bytes[$0] }
        func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func be32(_ value: Int) -> [UInt8] { be16(value >> 16 & 0xFFFF) + be16(value & 0xFFFF) }
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(8 + payload.count) + Array(type.utf8) + payload }
        func fullBox(_ type: String, version: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] { box(type, [version, 0, 0, 0] + payload) }
        let brand = codec == .hevc ? "heic" : "avif"
        let ftyp = box("ftyp", Array(brand.utf8) + be32(0) + Array(("mif1" + brand + "miaf").utf8))
        let hdlr = fullBox("hdlr", be32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
        let pitm = fullBox("pitm", be16(1))
        let infe = fullBox("infe", version: 2, be16(1) + be16(0) + Array(codec.rawValue.utf8) + [0])
        let iinf = fullBox("iinf", be16(1) + infe)
        let indices = essential.enumerated().map { UInt8($0.offset + 1) | ($0.element ? 0x80 : 0) }
        let ipma = fullBox("ipma", be32(1) + be16(1) + [UInt8(indices.count)] + indices)
        let iprp = box("iprp", box("ipco", properties.flatMap { $0 }) + ipma)
        func meta(_ offset: Int) -> [UInt8] {
            // iloc: offsets and lengths of 4 bytes; item 1, data reference 0, one extent.
            let entry: [UInt8] = be16(1) + be16(0) + be16(1) + be32(offset) + be32(data.count)
            let iloc = fullBox("iloc", [0x44, 0x00] + be16(1) + entry)
            return fullBox("meta", hdlr + pitm + iloc + iinf + iprp)
        }
        return ftyp + meta(ftyp.count + meta(0).count + 8) + box("mdat", data)
    }
}

extension ImageGeometry {
    /// The primary item's grid layout; nil when the primary item is not a grid, or is one that a
    /// tile-by-tile decode does not take (tiles of different sizes, data built other than from
    /// the file or `idat`, tiles that do not cover the output), which is then decoded whole.
    /// Throws where the file is unsound (an extent past the end, a grid's data cut short, a
    /// tile count that is not rows × columns).
    package static func heifGrid(size: UInt64, limits: HeaderLimits = HeaderLimits(),
                                 read: @escaping (UInt64, Int) throws -> [UInt8]) throws -> HEIFGridLayout? {
        var walk = BoxWalk(source: HeaderSource(size: size, read: read), limits: limits)
        let top = try walk.children(from: 0, to: size)
        guard let metaBox = top.first(where: { $0.type == "meta" }) else { return nil }
        let meta = try walk.meta(metaBox)
        guard let primary = meta.primary, meta.itemTypes[primary] == "grid", let tileIDs = meta.derived[primary],
              !tileIDs.isEmpty, tileIDs.count <= limits.tiles else { return nil }
        var locations: [UInt64: GridItemLocation] = [:]
        var idat: HEIFBox?
        for child in try walk.children(from: metaBox.payload + 4, to: metaBox.end) {
            if child.type == "iloc" { locations = try walk.gridItemLocations(child) }
            if child.type == "idat" { idat = child }
        }
        // The grid's own data: version, flags, rows - 1, columns - 1, output size (16 or 32 bits).
        guard let gridData = try walk.gridItemBytes(locations[primary], idat: idat, fileSize: size, max: 12),
              gridData.count >= 8, gridData[0] == 0 else { return nil }
        let wide = gridData[1] & 1 == 1
        guard gridData.count >= (wide ? 12 : 8) else { throw ImageHeaderError("the grid's data is cut short", offset: metaBox.start) }
        let rows = Int(gridData[2]) + 1, columns = Int(gridData[3]) + 1
        let width = wide ? Int(gridData.be32(4)) : gridData.be16(4)
        let height = wide ? Int(gridData.be32(8)) : gridData.be16(6)
        guard rows * columns == tileIDs.count else {
            throw ImageHeaderError("the grid is \(rows) × \(columns) tiles, but dimg lists \(tileIDs.count)", offset: metaBox.start)
        }
        var tiles: [HEIFGridLayout.Tile] = []
        var tileSize: (Int, Int)?
        for id in tileIDs {
            guard let location = locations[id], location.method == 0 else { return nil }
            var extents: [Range<Int>] = []
            for extent in location.extents {
                let start = location.base.addingSaturating(extent.offset)
                guard extent.length > 0, start.addingSaturating(extent.length) <= size else {
                    throw ImageHeaderError("tile \(id)'s data runs past the end of the file", offset: metaBox.start)
                }
                extents.append(Int(start) ..< Int(start + extent.length))
            }
            guard !extents.isEmpty else { return nil }
            var properties: [[UInt8]] = [], essential: [Bool] = []
            var ispe: (Int, Int)?
            for property in meta.properties(of: id) where ["hvcC", "av1C", "ispe", "colr", "pixi"].contains(property.type) {
                guard property.end - property.start <= 1 << 20 else { return nil }
                let whole = try walk.source.bytes(at: property.start, count: Int(property.end - property.start), "a tile's property")
                if property.type == "ispe" {
                    guard whole.count >= 20 else { return nil }
                    ispe = (Int(whole.be32(12)), Int(whole.be32(16)))
                }
                properties.append(whole)
                essential.append(property.type == "hvcC" || property.type == "av1C")
            }
            guard let ispe, ispe.0 > 0, ispe.1 > 0, tileSize == nil || tileSize! == ispe else { return nil }
            tileSize = ispe
            tiles.append(HEIFGridLayout.Tile(id: id, extents: extents, properties: properties, essential: essential))
        }
        // Each tile's bytes are copied into a file of its own: a grid whose tiles add up to more
        // than the file several times over (one item listed as every tile, extents that overlap)
        // is left to the whole decode, whose cost it then is, as before.
        let copied = tiles.reduce(0) { total, tile in tile.extents.reduce(total) { $0 + $1.count } }
        guard copied <= 8 * Int(clamping: size) else { return nil }
        guard let tileSize, tileSize.0 * columns >= width, tileSize.1 * rows >= height, width > 0, height > 0 else { return nil }
        return HEIFGridLayout(rows: rows, columns: columns, width: width, height: height, tileWidth: tileSize.0,
                              tileHeight: tileSize.1, tiles: tiles)
    }
}

/// An item's `iloc` entry: how its data is built (0 from the file, 1 from `idat`, -1 in another
/// file), its base offset and its extents.
struct GridItemLocation {
    var method: Int
    var base: UInt64
    var extents: [(offset: UInt64, length: UInt64)]
}

extension BoxWalk {
    /// Every item's location in an `iloc` box (versions 0 to 2), bounded by the box.
    mutating func gridItemLocations(_ iloc: HEIFBox) throws -> [UInt64: GridItemLocation] {
        let head = try source.bytes(at: iloc.payload, count: 6, "the iloc box")
        let version = head[0]
        guard version <= 2 else { throw ImageHeaderError("iloc version \(version)", offset: iloc.start) }
        let (offsetSize, lengthSize) = (Int(head[4] >> 4), Int(head[4] & 15))
        let (baseSize, indexSize) = (Int(head[5] >> 4), version >= 1 ? Int(head[5] & 15) : 0)
        guard [offsetSize, lengthSize, baseSize, indexSize].allSatisfy({ [0, 4, 8].contains($0) }) else {
            throw ImageHeaderError("iloc field sizes other than 0, 4 and 8 bytes", offset: iloc.start)
        }
        var offset = iloc.payload + 6
        func read(_ count: Int) throws -> UInt64 {
            guard count > 0 else { return 0 }
            guard offset.addingSaturating(UInt64(count)) <= iloc.end else {
                throw ImageHeaderError("the iloc entries run past the box", offset: iloc.start)
            }
            let bytes = try source.bytes(at: offset, count: count, "an iloc entry")
            offset += UInt64(count)
            return bytes.reduce(0) { $0 << 8 | UInt64($1) }
        }
        let count = try read(version < 2 ? 2 : 4)
        guard count <= UInt64(limits.items) else { throw ImageHeaderError("iloc lists \(count) items", offset: iloc.start) }
        var result: [UInt64: GridItemLocation] = [:]
        for _ in 0 ..< count {
            let item = try read(version < 2 ? 2 : 4)
            let method = version >= 1 ? Int(try read(2) & 15) : 0
            let reference = try read(2)  // 0: this file
            let base = try read(baseSize)
            let extentCount = try read(2)
            var extents: [(offset: UInt64, length: UInt64)] = []
            for _ in 0 ..< extentCount {
                _ = try read(indexSize)
                let extentOffset = try read(offsetSize)
                extents.append((extentOffset, try read(lengthSize)))
            }
            result[item] = GridItemLocation(method: reference == 0 ? method : -1, base: base, extents: extents)
        }
        return result
    }

    /// At most `max` bytes of an item's data from the file or `idat`; nil for other methods.
    mutating func gridItemBytes(_ location: GridItemLocation?, idat: HEIFBox?, fileSize: UInt64, max: Int) throws -> [UInt8]? {
        guard let location else { return nil }
        var bytes: [UInt8] = []
        for extent in location.extents where bytes.count < max {
            var start = location.base.addingSaturating(extent.offset), end = fileSize
            switch location.method {
            case 0: break
            case 1:
                guard let idat else { return nil }
                start = idat.payload.addingSaturating(start)
                end = idat.end
            default: return nil
            }
            let length = extent.length == 0 ? (end > start ? end - start : 0) : extent.length
            guard start.addingSaturating(length) <= end else {
                throw ImageHeaderError("the grid's data runs past \(location.method == 1 ? "idat" : "the end of the file")",
                                       offset: start)
            }
            bytes += try source.bytes(at: start, count: Int(min(length, UInt64(max - bytes.count))), "the grid's data")
        }
        return bytes
    }
}
