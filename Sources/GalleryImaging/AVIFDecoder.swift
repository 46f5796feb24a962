internal import CAVIF
import GalleryFormat

/// AVIF through libavif 0.11.1 (dav1d or aom for AV1): our own box reader first
/// (`ImageGeometry.heif`: no box past its parent, no grid of grids, at most 1,024 tiles), then
/// libavif with its own limits set (`imageSizeLimit`, `imageDimensionLimit`, strict parsing,
/// one thread) and the decoded size checked against the `ispe` the header gave. libavif does
/// not apply `irot` or `imir`; the caller turns the image with the geometry, as for HEIC.
package enum AVIFDecoder {
    package static func decode(_ bytes: [UInt8], limits: DecodeLimits = DecodeLimits()) throws -> DecodedFrame {
        let geometry = try HEIFBoxes.geometry(of: bytes, expecting: .av1)
        let (width, height) = (geometry.width, geometry.height)
        try limits.admit("AVIF image", width: width, height: height, bytes: memory(width: width, height: height, byteCount: bytes.count))
        try FormatTwoLibrary.require(.avif)
        guard let decoder = avifDecoderCreate() else { throw ImageDecodeError(.pastLimit, "libavif could not start") }
        defer { avifDecoderDestroy(decoder) }
        decoder.pointee.maxThreads = 1
        decoder.pointee.imageSizeLimit = UInt32(min(limits.maxPixels, limits.maxWorkPixels, 16384 * 16384))
        decoder.pointee.imageDimensionLimit = UInt32(min(limits.maxSide, 65_535))
        decoder.pointee.strictFlags = AVIF_STRICT_ENABLED.rawValue
        decoder.pointee.ignoreExif = AVIF_TRUE
        decoder.pointee.ignoreXMP = AVIF_TRUE
        let bitmap = try bytes.withUnsafeBufferPointer { buffer -> Bitmap in
            try check(avifDecoderSetIOMemory(decoder, buffer.baseAddress, buffer.count), "read")
            try check(avifDecoderParse(decoder), "parse")
            try check(avifDecoderNextImage(decoder), "decode")
            guard let image = decoder.pointee.image else { throw ImageDecodeError(.corrupt, "libavif gave no image") }
            guard Int(image.pointee.width) == width, Int(image.pointee.height) == height else {
                throw ImageDecodeError(.corrupt, "the AVIF image decodes to \(image.pointee.width)×\(image.pointee.height), "
                                       + "not the \(width)×\(height) its ispe property states")
            }
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, image)
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.depth = 8
            rgb.rowBytes = UInt32(width * 4)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            try pixels.withUnsafeMutableBufferPointer { output in
                rgb.pixels = output.baseAddress
                try check(avifImageYUVToRGB(image, &rgb), "convert")
            }
            return Bitmap(width: width, height: height, pixels: pixels)
        }
        return DecodedFrame(bitmap: bitmap, geometry: geometry)
    }

    /// What a decode holds at most: the output, the decoder's YUV and alpha planes (16 bits a
    /// sample at most) and its RGB conversion's rows.
    static func memory(width: Int, height: Int, byteCount: Int) -> Int { byteCount + width * height * (4 + 8) }

    private static func check(_ result: avifResult, _ step: String) throws {
        guard result != AVIF_RESULT_OK else { return }
        let reason = String(cString: avifResultToString(result))
        throw ImageDecodeError(result == AVIF_RESULT_OUT_OF_MEMORY ? .pastLimit : .corrupt,
                               "libavif could not \(step) it: \(reason)")
    }
}

/// The box reader's verdict on an AVIF or HEIC file, and the codec it must have.
enum HEIFBoxes {
    static func geometry(of bytes: [UInt8], expecting codec: ImageGeometry.HEIFCodec) throws -> ImageGeometry {
        do {
            let (geometry, found) = try ImageGeometry.heif(size: UInt64(bytes.count), read: bytes.bytes(at:count:))
            guard found == codec else {
                throw ImageDecodeError(.corrupt, "the primary item is coded \(found.rawValue), not \(codec.rawValue)")
            }
            return geometry
        } catch let error as ImageHeaderError {
            throw error.decodeError
        }
    }
}
