internal import CAVIF
import GalleryFormat
import GalleryImageHeaders

/// An AVIF grid decoded one row of tiles at a time, as a HEIC grid is (`HEIFDecoder+Grid`,
/// issue 28): libavif 0.11 decodes a grid only whole, into one image of the output's size, and
/// has no call for one tile. Each tile is handed to libavif as a one-item AVIF made from our
/// reader's layout (`ImageGeometry.heifGrid`: the tile's `av1C`, `ispe`, `colr` and `pixi` and
/// its coded bytes), decoded with the settings of a whole image (`configure`: size limits,
/// strict, one thread), two tiles at a time (`TileRow`), checked against the tile size, and converted to RGBA straight into its
/// place in a strip of the output's width, cropped at the right and bottom edges. The grid's
/// `irot` and `imir` are applied by the caller, as for any image.
extension AVIFDecoder {
    /// The primary item's grid, when it is one this walk decodes (`HEIFBoxes.walkableGrid`), with
    /// every tile's `pixi`, which libavif's strict mode wants.
    static func gridLayout(of bytes: [UInt8], geometry: ImageGeometry) throws -> HEIFGridLayout? {
        try HEIFBoxes.walkableGrid(of: bytes, geometry: geometry, tilesNeed: "pixi")
    }

    /// What a tile-by-tile decode holds at most: our copy of the file, a strip of RGBA of the
    /// output's width and a tile's height, and for each of the `TileRow.tilesAtOnce` tiles
    /// decoding at once its codec planes (four samples a pixel, of two bytes past 8 bits) and
    /// the one-item file made for it.
    static func gridMemory(_ layout: HEIFGridLayout, bitsPerSample: Int, byteCount: Int) -> Int {
        let tileArea = layout.tileWidth * layout.tileHeight
        let largestTile = layout.tiles.map { $0.extents.reduce(0) { $0 + $1.count } + 4096 }.max() ?? 0
        return byteCount + layout.width * layout.tileHeight * 4
            + TileRow.tilesAtOnce * (tileArea * 4 * (bitsPerSample > 8 ? 2 : 1) + largestTile)
    }

    /// The grid's rows, top to bottom, as RGBA of the output's width.
    static func decodeGridRows(_ bytes: [UInt8], grid: HEIFGridLayout, limits: DecodeLimits,
                               rows: (_ row: UnsafeBufferPointer<UInt8>) -> Void) throws {
        try FormatTwoLibrary.require(.avif)
        let (tileWidth, tileHeight, width) = (grid.tileWidth, grid.tileHeight, grid.width)
        var strip = [UInt8](repeating: 0, count: width * tileHeight * 4)
        for tileRow in 0 ..< grid.rows where tileRow * tileHeight < grid.height {
            let count = min(tileHeight, grid.height - tileRow * tileHeight)
            // Two tiles at a time (`TileRow`), each converted into its own columns of the strip.
            let columns = (0 ..< grid.columns).filter { $0 * tileWidth < width }
            try strip.withUnsafeMutableBufferPointer { output in
                let shared = SharedOutput(base: output.baseAddress!)
                _ = try TileRow.decode(columns.count) { index, _ in
                    let column = columns[index]
                    let left = column * tileWidth
                    let file = grid.tiles[tileRow * grid.columns + column].file(in: bytes, codec: .av1)
                    guard let decoder = avifDecoderCreate() else { throw ImageDecodeError(.pastLimit, "libavif could not start") }
                    defer { avifDecoderDestroy(decoder) }
                    configure(decoder, limits: limits)
                    try file.withUnsafeBufferPointer { buffer in
                        let image = try decodeFirst(decoder, buffer, width: tileWidth, height: tileHeight)
                        // A view of the tile cropped to the output, converted into its place in the strip.
                        var view = image.pointee
                        view.width = UInt32(min(tileWidth, width - left))
                        view.height = UInt32(count)
                        view.imageOwnsYUVPlanes = AVIF_FALSE
                        view.imageOwnsAlphaPlane = AVIF_FALSE
                        try convert(&view, into: shared.base + left * 4, rowBytes: width * 4)
                    }
                }
            }
            strip.withUnsafeBufferPointer { output in
                for row in 0 ..< count {
                    rows(UnsafeBufferPointer(rebasing: output[row * width * 4 ..< (row + 1) * width * 4]))
                }
            }
        }
    }
}
