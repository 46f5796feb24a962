internal import CAVIF
import GalleryFormat
import GalleryImageHeaders

/// AVIF through libavif 0.11.1 (dav1d or aom for AV1): our own box reader first
/// (`ImageGeometry.heif`: no box past its parent, no grid of grids, at most 1,024 tiles), then
/// libavif with its own limits set (`imageSizeLimit`, `imageDimensionLimit`, strict parsing,
/// dav1d on both cores for a whole image and on one for a grid's tile) and the decoded size checked against the `ispe` the header gave. libavif does
/// not apply `irot` or `imir`; the caller turns the image with the geometry, as for HEIC.
package enum AVIFDecoder {
    package static func decode(_ bytes: [UInt8], limits: DecodeLimits = DecodeLimits(),
                               threads: Int32 = wholeImageThreads) throws -> DecodedFrame {
        let geometry = try HEIFBoxes.geometry(of: bytes, expecting: .av1)
        let (width, height) = (geometry.width, geometry.height)
        try limits.admit(DecodeWork(.avif, "AVIF image", declared: (width, height), codedBytes: bytes.count,
                                    bytes: memory(width: width, height: height, bitsPerSample: geometry.bitsPerSample,
                                                  byteCount: bytes.count)))
        try FormatTwoLibrary.require(.avif)
        guard let decoder = avifDecoderCreate() else { throw ImageDecodeError(.pastLimit, "libavif could not start") }
        defer { avifDecoderDestroy(decoder) }
        configure(decoder, limits: limits, threads: threads)
        let bitmap = try bytes.withUnsafeBufferPointer { buffer -> Bitmap in
            let image = try decodeFirst(decoder, buffer, width: width, height: height)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            try pixels.withUnsafeMutableBufferPointer { output in
                try convert(image, into: output.baseAddress!, rowBytes: width * 4)
            }
            return Bitmap(width: width, height: height, pixels: pixels)
        }
        return DecodedFrame(bitmap: bitmap, geometry: geometry)
    }

    /// The first frame's rows, upright-less (as stored), handed to `rows` a band at a time: the
    /// decoder's YUV planes are converted to RGBA a band of rows at a time through a view of
    /// them, so a 24 MP photo is never held as RGBA whole (a thumbnail filters the rows down as
    /// they come, as PNG rows are).
    package static func decodeRows(_ bytes: [UInt8], limits: DecodeLimits = DecodeLimits(),
                                   rows: (_ row: UnsafeBufferPointer<UInt8>) -> Void) throws -> ImageGeometry {
        let geometry = try HEIFBoxes.geometry(of: bytes, expecting: .av1)
        let (width, height) = (geometry.width, geometry.height)
        // A grid is decoded a row of tiles at a time (AVIFDecoder+Grid).
        if let grid = try gridLayout(of: bytes, geometry: geometry) {
            try limits.admit(DecodeWork(.avif, "AVIF image", declared: (width, height), codedBytes: bytes.count, held: width * grid.tileHeight,
                                        bytes: gridMemory(grid, bitsPerSample: geometry.bitsPerSample, byteCount: bytes.count)))
            try decodeGridRows(bytes, grid: grid, limits: limits, rows: rows)
            return geometry
        }
        // The whole image's work, though a band of it is held as RGBA at a time.
        try limits.admit(DecodeWork(.avif, "AVIF image", declared: (width, height), codedBytes: bytes.count, held: width * min(height, band),
                                    bytes: bandedMemory(width: width, height: height, bitsPerSample: geometry.bitsPerSample,
                                                        byteCount: bytes.count)))
        try FormatTwoLibrary.require(.avif)
        guard let decoder = avifDecoderCreate() else { throw ImageDecodeError(.pastLimit, "libavif could not start") }
        defer { avifDecoderDestroy(decoder) }
        configure(decoder, limits: limits, threads: wholeImageThreads)
        try bytes.withUnsafeBufferPointer { buffer in
            let image = try decodeFirst(decoder, buffer, width: width, height: height)
            var info = avifPixelFormatInfo()
            avifGetPixelFormatInfo(image.pointee.yuvFormat, &info)
            let shift = Int(info.chromaShiftY)
            var pixels = [UInt8](repeating: 0, count: width * band * 4)
            var start = 0
            while start < height {
                let count = min(band, height - start)
                var view = image.pointee
                view.height = UInt32(count)
                view.imageOwnsYUVPlanes = AVIF_FALSE
                view.imageOwnsAlphaPlane = AVIF_FALSE
                view.yuvPlanes.0 = view.yuvPlanes.0.map { $0 + start * Int(view.yuvRowBytes.0) }
                view.yuvPlanes.1 = view.yuvPlanes.1.map { $0 + (start >> shift) * Int(view.yuvRowBytes.1) }
                view.yuvPlanes.2 = view.yuvPlanes.2.map { $0 + (start >> shift) * Int(view.yuvRowBytes.2) }
                view.alphaPlane = view.alphaPlane.map { $0 + start * Int(view.alphaRowBytes) }
                try pixels.withUnsafeMutableBufferPointer { output in
                    try convert(&view, into: output.baseAddress!, rowBytes: width * 4)
                    for row in 0 ..< count {
                        rows(UnsafeBufferPointer(rebasing: UnsafeBufferPointer(output)[row * width * 4 ..< (row + 1) * width * 4]))
                    }
                }
                start += count
            }
        }
        return geometry
    }

    /// Converts `image` (or a view of part of it) to 8-bit RGBA at `pixels`, `rowBytes` apart.
    static func convert(_ image: UnsafeMutablePointer<avifImage>, into pixels: UnsafeMutablePointer<UInt8>,
                        rowBytes: Int) throws {
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.depth = 8
        rgb.rowBytes = UInt32(rowBytes)
        rgb.pixels = pixels
        try check(avifImageYUVToRGB(image, &rgb), "convert")
    }

    /// What a banded decode holds at most: our copy of the file, the codec's planes (4:4:4 at
    /// most, with alpha: four samples a pixel, of two bytes past 8 bits, as `av1C` says) and
    /// one band of RGBA.
    static func bandedMemory(width: Int, height: Int, bitsPerSample: Int, byteCount: Int) -> Int {
        byteCount + width * height * 4 * (bitsPerSample > 8 ? 2 : 1) + width * band * 4
    }

    /// Rows converted at once: even, so that a 4:2:0 band starts on a chroma row.
    static let band = 64

    /// dav1d's worker threads for one whole image: with libavif's frame delay of 1 they share
    /// one frame's reconstruction and loop filters, which halved the wall time of a 24 MP grain
    /// AVIF (`avifdec -j 2`) at the same peak memory (RESULTS ac.4.7). A grid's tiles are small
    /// and decoded one after another, so each keeps one thread rather than start two for it.
    /// Their stacks (about 1 MiB each) fall within the 32 MiB an address-space limit keeps back
    /// for stacks (`GalleryThumbnail.readingLimitsFittingAddressSpace`). A fixed count, as for
    /// the PNG's deflate helpers: the confined thumbnailer may not read the files that tell the
    /// processors.
    static let wholeImageThreads: Int32 = 2

    static func configure(_ decoder: UnsafeMutablePointer<avifDecoder>, limits: DecodeLimits, threads: Int32 = 1) {
        decoder.pointee.maxThreads = threads
        decoder.pointee.imageSizeLimit = UInt32(min(limits.maxWorkPixels, 16384 * 16384))
        decoder.pointee.imageDimensionLimit = UInt32(min(limits.maxSide, 65_535))
        decoder.pointee.strictFlags = AVIF_STRICT_ENABLED.rawValue
        decoder.pointee.ignoreExif = AVIF_TRUE
        decoder.pointee.ignoreXMP = AVIF_TRUE
    }

    /// Parses and decodes the first image, which must have the size the `ispe` states.
    static func decodeFirst(_ decoder: UnsafeMutablePointer<avifDecoder>, _ buffer: UnsafeBufferPointer<UInt8>,
                                    width: Int, height: Int) throws -> UnsafeMutablePointer<avifImage> {
        try check(avifDecoderSetIOMemory(decoder, buffer.baseAddress, buffer.count), "read")
        try check(avifDecoderParse(decoder), "parse")
        try check(avifDecoderNextImage(decoder), "decode")
        guard let image = decoder.pointee.image else { throw ImageDecodeError(.corrupt, "libavif gave no image") }
        guard Int(image.pointee.width) == width, Int(image.pointee.height) == height else {
            throw ImageDecodeError(.corrupt, "the AVIF image decodes to \(image.pointee.width)×\(image.pointee.height), "
                                   + "not the \(width)×\(height) its ispe property states")
        }
        return image
    }

    /// What a whole decode holds at most: the banded decode's planes and the RGBA output.
    static func memory(width: Int, height: Int, bitsPerSample: Int, byteCount: Int) -> Int {
        bandedMemory(width: width, height: height, bitsPerSample: bitsPerSample, byteCount: byteCount) + width * height * 4
    }

    static func check(_ result: avifResult, _ step: String) throws {
        guard result != AVIF_RESULT_OK else { return }
        let reason = libraryMessage(avifResultToString(result))
        throw ImageDecodeError(result == AVIF_RESULT_OUT_OF_MEMORY ? .pastLimit : .corrupt,
                               "libavif could not \(step) it: \(reason)")
    }
}

/// The box reader's verdict on an AVIF or HEIC file, and the codec it must have.
enum HEIFBoxes {
    /// The primary item's grid, when it is one the tile-by-tile walks decode: no alpha (an alpha
    /// grid is decoded whole), the grid's output size the `ispe` size, and every tile with the
    /// property `tilesNeed` names, if any. Nil otherwise.
    static func walkableGrid(of bytes: [UInt8], geometry: ImageGeometry, tilesNeed property: String? = nil) throws -> HEIFGridLayout? {
        guard !geometry.hasAlpha else { return nil }
        let layout = try ImageHeaderError.asDecodeError {
            try ImageGeometry.heifGrid(size: UInt64(bytes.count), read: bytes.bytes(at:count:))
        }
        guard let layout, layout.width == geometry.width, layout.height == geometry.height else { return nil }
        if let property {
            let type = Array(property.utf8)
            guard layout.tiles.allSatisfy({ $0.properties.contains { Array($0[4 ..< 8]) == type } }) else { return nil }
        }
        return layout
    }

    static func geometry(of bytes: [UInt8], expecting codec: ImageGeometry.HEIFCodec) throws -> ImageGeometry {
        let (geometry, found) = try ImageHeaderError.asDecodeError {
            try ImageGeometry.heif(size: UInt64(bytes.count), read: bytes.bytes(at:count:))
        }
        guard found == codec else {
            throw ImageDecodeError(.corrupt, "the primary item is coded \(found.rawValue), not \(codec.rawValue)")
        }
        return geometry
    }
}
