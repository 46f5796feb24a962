internal import CTurboJPEG
import GalleryFormat

/// JPEG encoding through TurboJPEG: renditions for display (an image type a browser cannot
/// show), never the images a gallery keeps, which stay byte for byte as they came.
public enum JPEGEncoder {
    /// A baseline JPEG of `bitmap` at `quality` (1 to 100), 4:2:0 chroma. Alpha is composed
    /// over white first: JPEG has none, and a transparent pixel's colour is arbitrary.
    ///
    /// - Throws: ``ImageDecodeError`` when TurboJPEG cannot start or fails.
    public static func encode(_ bitmap: Bitmap, quality: Int = 88) throws -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: bitmap.width * bitmap.height * 3)
        bitmap.pixels.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                for pixel in 0 ..< bitmap.width * bitmap.height {
                    let alpha = UInt32(source[pixel * 4 + 3])
                    for channel in 0 ..< 3 {
                        let value = UInt32(source[pixel * 4 + channel])
                        target[pixel * 3 + channel] = UInt8((value * alpha + 255 * (255 - alpha) + 127) / 255)
                    }
                }
            }
        }
        guard let handle = tjInitCompress() else { throw ImageDecodeError(.pastLimit, "TurboJPEG could not start") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = rgb.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(bitmap.width), 0, Int32(bitmap.height), Int32(TJPF_RGB.rawValue),
                        &output, &size, Int32(TJSAMP_420.rawValue), Int32(max(1, min(100, quality))), 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            throw ImageDecodeError(.corrupt, "TurboJPEG could not encode: " + libraryMessage(tjGetErrorStr2(handle)))
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
