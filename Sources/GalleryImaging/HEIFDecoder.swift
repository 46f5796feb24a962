internal import CHEIF
internal import COnDemand
import GalleryFormat
import GalleryImageHeaders

/// HEIC through libheif 1.15.1 (libde265 for HEVC): our own box reader first (no reference
/// loops, on which this libheif crashes; at most 1,024 tiles), then libheif with its size limit
/// set, strict decoding (its warnings are errors), tiles decoded on the calling thread, and its
/// own transforms off: the caller turns the image with the geometry, as for AVIF, so that both
/// read `irot` and `imir` the one way.
///
/// libheif is asked for no particular layout, not RGBA: it gives planar RGB, which
/// `HEIFPlanes` turns into RGBA a row at a time, so that a 24 MP photo's thumbnail never holds
/// it as RGBA whole.
package enum HEIFDecoder {
    package static func decode(_ bytes: [UInt8], limits: DecodeLimits = DecodeLimits()) throws -> DecodedFrame {
        let geometry = try HEIFBoxes.geometry(of: bytes, expecting: .hevc)
        let (width, height) = (geometry.width, geometry.height)
        try limits.admit(DecodeWork(.heic, "HEIC image", declared: (width, height), codedBytes: bytes.count,
                                    bytes: memory(geometry, byteCount: bytes.count)))
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        try pixels.withUnsafeMutableBufferPointer { output in
            var offset = 0
            try decodePlanes(bytes, geometry: geometry, limits: limits) { row in
                UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(output)[offset ..< offset + row.count])
                    .copyMemory(from: UnsafeRawBufferPointer(row))
                offset += row.count
            }
        }
        return DecodedFrame(bitmap: Bitmap(width: width, height: height, pixels: pixels), geometry: geometry)
    }

    /// The image's rows as stored (not yet turned), top to bottom, as RGBA; only the codec's
    /// planes and one row of RGBA are held.
    package static func decodeRows(_ bytes: [UInt8], limits: DecodeLimits = DecodeLimits(),
                                   rows: (_ row: UnsafeBufferPointer<UInt8>) -> Void) throws -> ImageGeometry {
        let geometry = try HEIFBoxes.geometry(of: bytes, expecting: .hevc)
        let (width, height) = (geometry.width, geometry.height)
        // A grid (a phone's photo) is decoded a row of tiles at a time (HEIFDecoder+Grid).
        if let grid = try gridLayout(of: bytes, geometry: geometry) {
            try limits.admit(DecodeWork(.heic, "HEIC image", declared: (width, height), codedBytes: bytes.count, held: width * grid.tileHeight,
                                        bytes: gridMemory(grid, bitsPerSample: geometry.bitsPerSample, byteCount: bytes.count)))
            try decodeGridRows(bytes, grid: grid, limits: limits, rows: rows)
            return geometry
        }
        // The whole image's work, though a row of it is held as RGBA at a time.
        try limits.admit(DecodeWork(.heic, "HEIC image", declared: (width, height), codedBytes: bytes.count, held: width,
                                    bytes: bandedMemory(geometry, byteCount: bytes.count)))
        try decodePlanes(bytes, geometry: geometry, limits: limits, rows: rows)
        return geometry
    }

    /// What a banded decode holds at most: our copy of the file, one row of RGBA and, a pixel,
    /// twice the codec's samples (libde265's picture and our plugin's copy of it, which libheif
    /// converts), three for libheif's RGB planes and two for alpha (its picture and plane), in
    /// bytes of two past 8 bits; at most the eight samples of 4:4:4 with alpha, the figure
    /// before the `hvcC`'s chroma was read. Measured peaks (RESULTS ac.4.11): a 24 MP photo,
    /// 4:2:0, about 5.1 bytes a pixel (6 counted), 4:4:4 6.8 (8 counted). The chroma is the
    /// `hvcC`'s, which our HEVC decoder holds the stream to (`ig_hevc_decoder_expect`).
    static func bandedMemory(width: Int, height: Int, bitsPerSample: Int, chromaFormat: Int = 3, hasAlpha: Bool = true,
                             byteCount: Int) -> Int {
        // In half samples: grey 2, 4:2:0 3, 4:2:2 4, 4:4:4 6.
        let codecHalves = [2, 3, 4, 6][min(max(chromaFormat, 0), 3)]
        let halves = min(16, 2 * codecHalves + 6 + (hasAlpha ? 4 : 0))
        return byteCount + width * height * halves / 2 * (bitsPerSample > 8 ? 2 : 1) + width * 4
    }

    static func bandedMemory(_ geometry: ImageGeometry, byteCount: Int) -> Int {
        bandedMemory(width: geometry.width, height: geometry.height, bitsPerSample: geometry.bitsPerSample,
                     chromaFormat: geometry.chromaFormat, hasAlpha: geometry.hasAlpha, byteCount: byteCount)
    }

    /// What a whole decode holds at most: the banded decode and the RGBA output.
    static func memory(_ geometry: ImageGeometry, byteCount: Int) -> Int {
        bandedMemory(geometry, byteCount: byteCount) + geometry.width * geometry.height * 4
    }

    private static func decodePlanes(_ bytes: [UInt8], geometry: ImageGeometry, limits: DecodeLimits,
                                     rows: (_ row: UnsafeBufferPointer<UInt8>) -> Void) throws {
        let (width, height) = (geometry.width, geometry.height)
        try FormatTwoLibrary.require(.heic)
        try bytes.withUnsafeBufferPointer { buffer in
            let image = try decodePrimaryImage(buffer, limits: limits, declared: geometry)
            defer { heif_image_release(image) }
            let planes = try HEIFPlanes(image, width: width, height: height)
            planes.convert(rows: rows)
        }
    }

    /// The primary image of the HEIF in `buffer`, decoded as every decode here is: libheif's size
    /// limit set, tiles decoded on the calling thread, strict (its warnings are errors), its own
    /// transforms off (the caller turns the image by the geometry), and no colourspace or
    /// chroma asked for, so that libheif 1.15 gives planar RGB for `HEIFPlanes`. `declared` is
    /// the geometry whose chroma and bits the memory was admitted for; `tile` names the grid
    /// tile the file holds, for messages. The caller releases the image.
    static func decodePrimaryImage(_ buffer: UnsafeBufferPointer<UInt8>, limits: DecodeLimits, declared: ImageGeometry? = nil,
                                   tile: UInt64? = nil) throws -> OpaquePointer? {
        let of = tile.map { " tile \($0) of" } ?? ""
        guard let context = heif_context_alloc() else { throw ImageDecodeError(.pastLimit, "libheif could not start") }
        defer { heif_context_free(context) }
        heif_context_set_maximum_image_size_limit(context, Int32(min(limits.maxSide, 65_535)))
        heif_context_set_max_decoding_threads(context, 0)
        try check(heif_context_read_from_memory_without_copy(context, buffer.baseAddress, buffer.count, nil), "read" + of)
        var handle: OpaquePointer?
        try check(heif_context_get_primary_image_handle(context, &handle), tile == nil ? "find the primary image in" : "find" + of)
        defer { heif_image_handle_release(handle) }
        guard let options = heif_decoding_options_alloc() else { throw ImageDecodeError(.pastLimit, "libheif could not start") }
        defer { heif_decoding_options_free(options) }
        options.pointee.ignore_transformations = 1
        options.pointee.strict_decoding = 1
        var image: OpaquePointer?
        // Our HEVC decoder refuses a picture with more chroma or bits than the memory admitted
        // (a grid's tiles are admitted at the most there is, and pass `declared` nil).
        ig_hevc_decoder_expect(Int32(declared?.chromaFormat ?? -1), Int32(declared?.bitsPerSample ?? -1))
        defer { ig_hevc_decoder_expect(-1, -1) }
        try check(heif_decode_image(handle, &image, heif_colorspace_undefined, heif_chroma_undefined, options), "decode" + of)
        return image
    }

    static func check(_ error: heif_error, _ step: String) throws {
        guard error.code != heif_error_Ok else { return }
        let reason = error.message.map(libraryMessage) ?? "error \(error.code.rawValue)"
        let pastLimit = isPastLimit(memory: error.code == heif_error_Memory_allocation_error,
                                    securityLimit: error.subcode == heif_suberror_Security_limit_exceeded, reason)
        throw ImageDecodeError(pastLimit ? .pastLimit : .corrupt, "libheif could not \(step) it: \(reason)")
    }

    /// Whether libheif stopped at a limit an image may rightly pass (an allocation, or the image
    /// size we set), not at damage. Its "security limit" code (a memory allocation error with
    /// subcode 1000) also covers lies about the file (an `iloc` extent of 4 GiB in a file of
    /// 7 KB, too many references): those are corrupt, as libavif reports its twin (issue 28).
    /// `memory`: libheif's code is a memory allocation error; `securityLimit`: its subcode is
    /// "security limit exceeded"; `reason`: its message.
    static func isPastLimit(memory: Bool, securityLimit: Bool, _ reason: String) -> Bool {
        memory && (!securityLimit || reason.contains("maximum image size"))
    }
}
