// The items of an AVIF or HEIC image, held together before any library sees them (issue 28):
// what the box reader can find without decoding a pixel, and what libheif and libavif found
// only at `validate --deep` before. Every problem here is IG-BLB-017.
//
// - Each item's data (`iloc`, ISO/IEC 14496-12 8.11.3) lies inside the file (construction
//   method 0) or the `idat` box (method 1), and no item holds more bytes in all than the file:
//   an extent of 4 GiB in a file of 7 KB is a lie, whatever a library's "security limit" says
//   of it. Every item the image is decoded from (the primary item, a grid's tiles, an AVIF's
//   alpha) has data.
// - Every property association (`ipma`) names a property that `ipco` holds (0 names none).
// - A grid (ISO/IEC 23008-12 6.6.2.3) lists one tile (`dimg`) for each of its rows × columns.
// - The primary item's `irot` and `imir` hold their one byte.
extension BoxWalk {
    /// Refuses, with IG-BLB-017, the first problem of the items `primary` (of item type `type`)
    /// is made of, in the `meta` box `box` that `meta` was read from. `size` is the file's.
    mutating func checkItems(of primary: UInt64, type: String, in meta: HEIFMeta, box: HEIFBox) throws {
        var (iloc, idat, ipma): (HEIFBox?, HEIFBox?, HEIFBox?) = (nil, nil, nil)
        for child in try children(from: box.payload + 4, to: box.end) {
            switch child.type {
            case "iloc": iloc = iloc ?? child
            case "idat": idat = idat ?? child
            case "iprp":
                ipma = try children(from: child.payload, to: child.end).first { $0.type == "ipma" }
            default: break
            }
        }

        // Associations first: a property past ipco is how a file hides what it asks for.
        for (item, indices) in meta.associations.sorted(by: { $0.key < $1.key }) {
            if let index = indices.first(where: { $0 > meta.propertyBoxes.count }) {
                throw Self.broken("ipma associates item \(item) with property \(index), but ipco holds "
                                  + "\(meta.propertyBoxes.count)", at: ipma?.start ?? box.start)
            }
        }

        guard let iloc else { throw Self.broken("the meta box has no iloc box: no item has data", at: box.start) }
        let locations = try itemLocations(iloc, idat: idat)

        // The items the image is decoded from.
        let tiles = type == "grid" ? meta.derived[primary] ?? [] : []
        let alpha = meta.alphaItems(of: primary).sorted()
        let decoded = [(primary, "the primary item \(primary)")] + tiles.map { ($0, "tile \($0)") }
            + alpha.map { ($0, "alpha item \($0)") }
        for (item, name) in decoded {
            guard let location = locations[item], location.length > 0 else {
                throw Self.broken("\(name) has no data (no iloc extent)", at: iloc.start)
            }
            guard location.external == false else {
                throw Self.broken("item \(item)'s data is in another file (data reference \(location.dataReference))",
                                  at: iloc.start)
            }
        }

        if type == "grid", let location = locations[primary] {
            let descriptor = try itemBytes(location, idat: idat, count: 12)
            guard descriptor.count >= 8, descriptor[0] == 0 else {
                throw Self.broken("the grid item \(primary)'s description is malformed (\(descriptor.count) bytes, version "
                                  + "\(descriptor.first.map { "\($0)" } ?? "none"))", at: iloc.start)
            }
            let wide = descriptor[1] & 1 == 1
            guard descriptor.count >= (wide ? 12 : 8) else {
                throw Self.broken("the grid item \(primary)'s description is cut short", at: iloc.start)
            }
            let (rows, columns) = (Int(descriptor[2]) + 1, Int(descriptor[3]) + 1)
            guard tiles.count == rows * columns else {
                throw Self.broken("the grid of \(rows) × \(columns) tiles lists \(tiles.count) in its dimg reference"
                                  + (tiles.count < rows * columns ? ": tiles are missing" : ""), at: box.start)
            }
        }

        for property in meta.properties(of: primary) where property.type == "irot" || property.type == "imir" {
            let length = property.end - property.payload
            guard length == 1 else {
                throw Self.broken("the primary item's \(property.type) property holds \(length) bytes, not 1"
                                  + (length == 0 ? " (it is empty)" : ""), at: property.start)
            }
        }
    }

    /// An IG-BLB-017 refusal.
    static func broken(_ message: String, at offset: UInt64) -> ImageHeaderError {
        ImageHeaderError(message, offset: offset, problem: .heifItemsBroken)
    }

    /// The `iloc` box read and checked: every extent of construction method 0 inside the file,
    /// of method 1 inside `idat`, and no item longer in all than the file.
    mutating func itemLocations(_ iloc: HEIFBox, idat: HEIFBox?) throws -> [UInt64: HEIFItemLocation] {
        var cursor = iloc.payload
        func next(_ count: Int) throws -> UInt64 {
            guard count > 0 else { return 0 }
            guard cursor.addingSaturating(UInt64(count)) <= iloc.end else {
                throw Self.broken("the iloc box's entries run past the box", at: iloc.start)
            }
            let bytes = try source.bytes(at: cursor, count: count, "the iloc box")
            cursor += UInt64(count)
            return bytes.reduce(0) { $0 << 8 | UInt64($1) }
        }
        let version = try next(1)
        _ = try next(3)
        guard version <= 2 else { throw Self.broken("iloc version \(version) is not 0, 1 or 2", at: iloc.start) }
        let sizes = try next(2)
        let (offsetSize, lengthSize, baseSize) = (Int(sizes >> 12 & 15), Int(sizes >> 8 & 15), Int(sizes >> 4 & 15))
        let indexSize = version == 0 ? 0 : Int(sizes & 15)
        for field in [offsetSize, lengthSize, baseSize, indexSize] where ![0, 4, 8].contains(field) {
            throw Self.broken("iloc gives a field \(field) bytes, not 0, 4 or 8", at: iloc.start)
        }
        let itemCount = try next(version < 2 ? 2 : 4)
        guard itemCount <= UInt64(limits.items) else {
            throw ImageHeaderError("iloc lists \(itemCount) items, more than \(limits.items)", offset: iloc.start)
        }
        let (fileSize, idatSize) = (source.size, idat.map { $0.end - $0.payload })
        var extentsRead = 0
        var locations: [UInt64: HEIFItemLocation] = [:]
        for _ in 0 ..< itemCount {
            let item = try next(version < 2 ? 2 : 4)
            let method = try version == 0 ? 0 : Int(next(2) & 15)
            var location = HEIFItemLocation(method: method, dataReference: Int(try next(2)))
            let base = try next(baseSize)
            let extentCount = Int(try next(2))
            extentsRead += extentCount
            guard extentsRead <= limits.boxes else {
                throw ImageHeaderError("iloc lists more than \(limits.boxes) extents", offset: iloc.start)
            }
            for _ in 0 ..< extentCount {
                _ = try next(indexSize)
                let offset = base.addingSaturating(try next(offsetSize))
                var length = try next(lengthSize)
                if !location.external {
                    guard method == 0 || idatSize != nil else {
                        throw Self.broken("item \(item)'s data is in the idat box, which the meta box does not have",
                                          at: iloc.start)
                    }
                    let (limit, place) = method == 0 ? (fileSize, "the end of the file (\(fileSize) bytes)")
                        : (idatSize!, "the end of the idat box (\(idatSize!) bytes)")
                    // Length 0: the rest of the file (or idat).
                    if length == 0, offset <= limit { length = limit - offset }
                    guard offset.addingSaturating(length) <= limit else {
                        throw Self.broken("item \(item)'s data (iloc extent of \(length) bytes at \(offset)) runs past \(place)",
                                          at: iloc.start)
                    }
                }
                location.extents.append((offset, length))
                location.length = location.length.addingSaturating(length)
            }
            guard location.external || location.length <= fileSize else {
                throw Self.broken("item \(item)'s data (iloc extents of \(location.length) bytes in all) is longer than the "
                                  + "file (\(fileSize) bytes)", at: iloc.start)
            }
            guard locations.updateValue(location, forKey: item) == nil else {
                throw Self.broken("iloc lists item \(item) twice", at: iloc.start)
            }
        }
        return locations
    }

    /// The first `count` bytes of an item's data, or fewer when it has fewer.
    mutating func itemBytes(_ location: HEIFItemLocation, idat: HEIFBox?, count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let start = location.method == 1 ? idat?.payload ?? 0 : 0
        for extent in location.extents where bytes.count < count {
            let take = Int(min(extent.length, UInt64(count - bytes.count)))
            bytes += try source.bytes(at: start + extent.offset, count: take, "an item's data")
        }
        return bytes
    }
}

/// Where an item's data is: its extents as absolute ranges (in the file, or in `idat`'s
/// payload for construction method 1), and their total length.
struct HEIFItemLocation {
    var method: Int
    var dataReference: Int
    var extents: [(offset: UInt64, length: UInt64)] = []
    var length: UInt64 = 0
    /// Data in another file (a data reference other than 0) or built from another item
    /// (construction method 2): not in this file's bytes.
    var external: Bool { dataReference != 0 || method == 2 }
}
