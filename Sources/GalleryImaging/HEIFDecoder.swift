internal import CHEIF
import GalleryFormat

/// HEIC through libheif 1.15.1 (libde265 for HEVC): our own box reader first (no reference
/// loops, on which this libheif crashes; at most 1,024 tiles), then libheif with its size limit
/// set, strict decoding (its warnings are errors), tiles decoded on the calling thread, and its
/// own transforms off: the caller turns the image with the geometry, as for AVIF, so that both
/// read `irot` and `imir` the one way.
package enum HEIFDecoder {
    package static func decode(_ bytes: [UInt8], limits: DecodeLimits = DecodeLimits()) throws -> DecodedFrame {
        let geometry = try HEIFBoxes.geometry(of: bytes, expecting: .hevc)
        let (width, height) = (geometry.width, geometry.height)
        try limits.admit("HEIC image", width: width, height: height, bytes: memory(width: width, height: height, byteCount: bytes.count))
        try FormatTwoLibrary.require(.heic)
        guard let context = heif_context_alloc() else { throw ImageDecodeError(.pastLimit, "libheif could not start") }
        defer { heif_context_free(context) }
        heif_context_set_maximum_image_size_limit(context, Int32(min(limits.maxSide, 65_535)))
        heif_context_set_max_decoding_threads(context, 0)
        let bitmap = try bytes.withUnsafeBufferPointer { buffer -> Bitmap in
            try check(heif_context_read_from_memory_without_copy(context, buffer.baseAddress, buffer.count, nil), "read")
            var handle: OpaquePointer?
            try check(heif_context_get_primary_image_handle(context, &handle), "find the primary image in")
            defer { heif_image_handle_release(handle) }
            guard let options = heif_decoding_options_alloc() else { throw ImageDecodeError(.pastLimit, "libheif could not start") }
            defer { heif_decoding_options_free(options) }
            options.pointee.ignore_transformations = 1
            options.pointee.convert_hdr_to_8bit = 1
            options.pointee.strict_decoding = 1
            var image: OpaquePointer?
            try check(heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options), "decode")
            defer { heif_image_release(image) }
            let (decodedWidth, decodedHeight) = (Int(heif_image_get_width(image, heif_channel_interleaved)),
                                                 Int(heif_image_get_height(image, heif_channel_interleaved)))
            guard decodedWidth == width, decodedHeight == height else {
                throw ImageDecodeError(.corrupt, "the HEIC image decodes to \(decodedWidth)×\(decodedHeight), "
                                       + "not the \(width)×\(height) its ispe property states")
            }
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride), Int(stride) >= width * 4 else {
                throw ImageDecodeError(.corrupt, "libheif gave no RGBA plane")
            }
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            pixels.withUnsafeMutableBytes { output in
                for row in 0 ..< height {
                    (output.baseAddress! + row * width * 4).copyMemory(from: plane + row * Int(stride), byteCount: width * 4)
                }
            }
            return Bitmap(width: width, height: height, pixels: pixels)
        }
        return DecodedFrame(bitmap: bitmap, geometry: geometry)
    }

    /// What a decode holds at most: our copy, libheif's RGBA image and the HEVC decoder's YUV
    /// planes (16 bits a sample at most).
    static func memory(width: Int, height: Int, byteCount: Int) -> Int { byteCount + width * height * (4 + 4 + 6) }

    private static func check(_ error: heif_error, _ step: String) throws {
        guard error.code != heif_error_Ok else { return }
        let reason = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        throw ImageDecodeError(error.code == heif_error_Memory_allocation_error ? .pastLimit : .corrupt,
                               "libheif could not \(step) it: \(reason)")
    }
}
