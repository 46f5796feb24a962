/// The items of an AVIF or HEIC file and where their data lies in the file: what a metadata
/// strip needs to find the `Exif` and XMP items and rewrite them in place. Read with the same
/// bounded box walk as the header, so the same hostile files are refused the same way.
package struct HEIFItemMap: Sendable {
    package struct Item: Sendable {
        package var id: UInt64
        package var type: String
        /// A `mime` item's content type.
        package var contentType: String?
        /// Absolute ranges in the file, in the order `iloc` gives them (`idat` data included).
        package var extents: [Range<Int>]
        /// Data in another file or built from other items.
        package var external: Bool
    }

    package var items: [Item] = []
    /// The `meta` box: no item's data may lie in it but `idat`'s.
    package var metaBox: Range<Int>
    /// The `idat` box's payload, when there is one.
    package var itemData: Range<Int>?

    /// The item map of `bytes`; throws ``ImageHeaderError`` when the boxes do not hold together.
    package static func read(_ bytes: [UInt8]) throws -> HEIFItemMap {
        let size = UInt64(bytes.count)
        var walk = BoxWalk(source: HeaderSource(size: size) { bytes.bytes(at: $0, count: $1) }, limits: HeaderLimits())
        let metas = try walk.children(from: 0, to: size).filter { $0.type == "meta" }
        guard metas.count == 1 else { throw ImageHeaderError("\(metas.count) meta boxes at the top level, not one", offset: 0) }
        let box = metas[0]
        let meta = try walk.meta(box)
        let children = try walk.children(from: box.payload + 4, to: box.end)
        guard let iloc = children.first(where: { $0.type == "iloc" }) else {
            throw ImageHeaderError("the meta box has no iloc box", offset: box.start)
        }
        let idat = children.first { $0.type == "idat" }
        var map = HEIFItemMap(metaBox: Int(box.start) ..< Int(box.end), itemData: idat.map { Int($0.payload) ..< Int($0.end) })
        for (id, location) in try walk.itemLocations(iloc, idat: idat).sorted(by: { $0.key < $1.key }) {
            let base = location.method == 1 ? Int(idat?.payload ?? 0) : 0
            map.items.append(Item(id: id, type: meta.itemTypes[id] ?? "none", contentType: meta.contentTypes[id],
                                  extents: location.extents.map { base + Int($0.offset) ..< base + Int($0.offset + $0.length) },
                                  external: location.external))
        }
        return map
    }
}
