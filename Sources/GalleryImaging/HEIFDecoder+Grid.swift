internal import CHEIF
internal import COnDemand
import GalleryFormat
import GalleryImageHeaders

/// A HEIC grid (how phones store their photos: 12 to 48 MP as tiles of 512 × 512) decoded one
/// row of tiles at a time, so that memory is bounded by a row of tiles, not by the image
/// (issue 28). libheif 1.15 decodes a grid whole, into one image of the output's size, and has
/// no call for one tile (1.19 added `heif_image_handle_decode_image_tile`); nor does its
/// `heif_context_get_image_handle` find an item that is not top-level, and tiles are hidden
/// items. So the tiles are walked here, from our own reader's layout
/// (`ImageGeometry.heifGrid`: the grid's rows, columns and output size, its tiles in `dimg`
/// order, each tile's extents and properties), and each tile is handed to libheif as a file of
/// its own: an `ftyp`, a `meta` whose one item is the tile (its own `hvcC`, `ispe`, `colr` and
/// `pixi`, nothing else), and an `mdat` of its coded bytes.
/// libheif never sees the grid item, its references or the other tiles. Each tile is decoded
/// with the settings of a whole image (size limit, strict, no transforms), two at a time, checked
/// against the grid's tile size, and turned into RGBA rows by `HEIFPlanes`, cropped to the
/// output size at the right and bottom edges. The grid's own `irot` and `imir` are applied by
/// the caller from the geometry, as for any image.
extension HEIFDecoder {
    /// The primary item's grid, when it is one this walk decodes (`HEIFBoxes.walkableGrid`).
    static func gridLayout(of bytes: [UInt8], geometry: ImageGeometry) throws -> HEIFGridLayout? {
        try HEIFBoxes.walkableGrid(of: bytes, geometry: geometry)
    }

    /// What a tile-by-tile decode holds at most: our copy of the file; a row of decoded tiles
    /// (libheif's planes: four samples a pixel at most, of two bytes past 8 bits); while
    /// `TileRow.tilesAtOnce` tiles decode, each one's codec planes and libheif's as for a whole image
    /// of the tile's size, and the one-item file made for it; and one row of RGBA.
    static func gridMemory(_ layout: HEIFGridLayout, bitsPerSample: Int, byteCount: Int) -> Int {
        let sample = bitsPerSample > 8 ? 2 : 1
        let tileArea = layout.tileWidth * layout.tileHeight
        let columns = min(layout.columns, (layout.width + layout.tileWidth - 1) / layout.tileWidth)
        let largestTile = layout.tiles.map { $0.extents.reduce(0) { $0 + $1.count } + 4096 }.max() ?? 0
        return byteCount + columns * tileArea * 4 * sample + TileRow.tilesAtOnce * (tileArea * 8 * sample + largestTile) + layout.width * 4
    }

    /// The grid's rows, top to bottom, as RGBA of the output's width: each row of tiles
    /// decoded, its rows handed out, then released before the next.
    static func decodeGridRows(_ bytes: [UInt8], grid: HEIFGridLayout, limits: DecodeLimits,
                               rows: (_ row: UnsafeBufferPointer<UInt8>) -> Void) throws {
        try FormatTwoLibrary.require(.heic)
        let (tileWidth, tileHeight) = (grid.tileWidth, grid.tileHeight)
        var output = [UInt8](repeating: 255, count: grid.width * 4)
        for tileRow in 0 ..< grid.rows where tileRow * tileHeight < grid.height {
            // Tiles wholly past the output's right edge are never decoded.
            let row = (0 ..< grid.columns).filter { $0 * tileWidth < grid.width }.map { grid.tiles[tileRow * grid.columns + $0] }
            let tiles = try decodeTiles(bytes, row, width: tileWidth, height: tileHeight, limits: limits)
            let top = tileRow * tileHeight
            for y in 0 ..< min(tileHeight, grid.height - top) {
                output.withUnsafeMutableBufferPointer { out in
                    for (column, tile) in tiles.enumerated() {
                        let left = column * tileWidth
                        let count = min(tileWidth, grid.width - left)
                        tile.planes.fill(row: y, into: UnsafeMutableBufferPointer(rebasing: out[left * 4 ..< (left + count) * 4]),
                                         count: count)
                    }
                }
                output.withUnsafeBufferPointer { rows($0) }
            }
        }
    }

    /// A row's tiles, decoded two at a time (`TileRow`), each by a decoder of ours without
    /// worker threads when both threads work: libde265 shares a picture between its workers
    /// only where the stream is cut for it, which a phone's tile is not.
    private static func decodeTiles(_ bytes: [UInt8], _ tiles: [HEIFGridLayout.Tile], width: Int, height: Int,
                                    limits: DecodeLimits) throws -> [DecodedTile] {
        try TileRow.decode(tiles.count) { index, shared in
            if shared { ig_hevc_decoder_threads(0) }
            defer { ig_hevc_decoder_threads(-1) }
            return try decodeTile(bytes, tiles[index], width: width, height: height, limits: limits)
        }
    }

    /// One tile, decoded by libheif from a file of its own.
    private static func decodeTile(_ bytes: [UInt8], _ tile: HEIFGridLayout.Tile, width: Int, height: Int,
                                   limits: DecodeLimits) throws -> DecodedTile {
        let file = tile.file(in: bytes, codec: .hevc)
        return try file.withUnsafeBufferPointer { buffer -> DecodedTile in
            let image = try decodePrimaryImage(buffer, limits: limits, tile: tile.id)
            do {
                return DecodedTile(image: image, planes: try HEIFPlanes(image, width: width, height: height))
            } catch {
                heif_image_release(image)
                throw error
            }
        }
    }
}

/// A decoded tile: libheif's image, released with this, and its planes.
private final class DecodedTile {
    let image: OpaquePointer?
    let planes: HEIFPlanes

    init(image: OpaquePointer?, planes: HEIFPlanes) {
        self.image = image
        self.planes = planes
    }

    deinit { heif_image_release(image) }
}
