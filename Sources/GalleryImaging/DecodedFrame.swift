internal import COnDemand
import GalleryFormat
import GalleryImageHeaders

/// The first (or only) frame of an image of a format 2.0 type, as stored: not yet turned or
/// mirrored, so that a thumbnail is made small before it is made upright, as for JPEG.
package struct DecodedFrame: Sendable {
    /// The pixels at the stored size, or smaller when the decoder scaled while decoding (WebP).
    package var bitmap: Bitmap
    /// What the header reader found before the library saw a byte: the stored size, the
    /// transform that makes it upright, the frames.
    package var geometry: ImageGeometry
}

extension DecodedFrame {
    /// Decodes the first frame of an image of a format 2.0 type, scaled while decoding to
    /// cover `covering` where the decoder can (WebP); nil for JPEG and PNG, which have
    /// decoders of their own with DCT scaling and streamed rows.
    package static func decode(_ bytes: [UInt8], as type: MediaType, covering: (width: Int, height: Int)? = nil,
                               limits: DecodeLimits = DecodeLimits()) throws -> DecodedFrame? {
        switch type {
        case .jpeg, .png: nil
        case .webp: try WebPDecoder.decode(bytes, covering: covering, limits: limits)
        case .gif: try GIFDecoder.decode(bytes, limits: limits)
        case .avif: try AVIFDecoder.decode(bytes, limits: limits)
        case .heic: try HEIFDecoder.decode(bytes, limits: limits)
        }
    }

    /// Decodes the first frame of an AVIF, GIF or HEIC image row by row, as stored (not yet
    /// turned), handing each RGBA row to `rows` and holding none of them: what a thumbnail or a
    /// pixel check of a large photo needs. Nil for the types decoded otherwise.
    package static func decodeRows(_ bytes: [UInt8], as type: MediaType, limits: DecodeLimits = DecodeLimits(),
                                   rows: (_ row: UnsafeBufferPointer<UInt8>) -> Void) throws -> ImageGeometry? {
        switch type {
        case .jpeg, .png, .webp: nil
        case .gif: try GIFDecoder.decodeRows(bytes, limits: limits, rows: rows)
        case .avif: try AVIFDecoder.decodeRows(bytes, limits: limits, rows: rows)
        case .heic: try HEIFDecoder.decodeRows(bytes, limits: limits, rows: rows)
        }
    }

    /// The most a full decode of such an image takes, from its header: what a caller reserves
    /// of a shared budget before reading it.
    package static func memoryToDecode(_ header: ImageHeader, byteCount: Int, leading: [UInt8] = []) -> Int {
        let (width, height) = (header.width, header.height)
        return switch header.mediaType {
        case .jpeg, .png: byteCount + width * height * 4
        case .webp: WebPDecoder.memory(width: width, height: height, frames: header.frameCount,
                                       simpleLossy: WebPDecoder.isSimpleLossy(leading), output: (width, height), byteCount: byteCount)
        case .gif: GIFDecoder.memory(width: width, height: height, byteCount: byteCount)
        case .avif: AVIFDecoder.bandedMemory(width: width, height: height, bitsPerSample: header.bitDepth, byteCount: byteCount)
        case .heic: HEIFDecoder.bandedMemory(width: width, height: height, bitsPerSample: header.bitDepth, byteCount: byteCount)
        }
    }
}

extension ImageGeometry {
    /// The transform as EXIF orientations, applied in this order: HEIF's `irot` and `imir` in the
    /// order `ipma` lists them.
    package var orientations: [Orientation] {
        let turn: Orientation = switch quarterTurns % 4 {
        case 1: .left  // one anticlockwise quarter turn: the stored top-right corner goes top-left
        case 2: .down
        case 3: .right
        default: .up
        }
        let flip: Orientation = switch mirror {
        case .vertical?: .upMirrored  // about the vertical axis: left and right swap
        case .horizontal?: .downMirrored
        case nil: .up
        }
        return (mirroredFirst ? [flip, turn] : [turn, flip]).filter { $0 != .up }
    }
}

extension Bitmap {
    /// The upright image, as the geometry's transform says.
    package func upright(_ geometry: ImageGeometry) -> Bitmap {
        geometry.orientations.reduce(self) { $0.oriented($1) }
    }
}

/// A format 2.0 decoder's library, loaded when first needed (`Sources/COnDemand`).
enum FormatTwoLibrary {
    /// Loads the library of `type`'s decoder, or says why it cannot be: the image may be fine,
    /// it cannot be decoded here (a past-limit refusal, so a validator warns, IG-BLB-009).
    static func require(_ type: MediaType) throws {
        let library: ig_library = switch type {
        case .webp: IG_LIBRARY_WEBP
        case .gif: IG_LIBRARY_GIF
        case .avif: IG_LIBRARY_AVIF
        case .heic, .jpeg, .png: IG_LIBRARY_HEIF
        }
        var reason: UnsafePointer<CChar>?
        guard ig_library_load(library, &reason) == 0 else { return }
        throw ImageDecodeError(.pastLimit, "\(type.name) images cannot be decoded here: " + (reason.map { String(cString: $0) } ?? "its library is missing"))
    }
}

extension ImageHeaderError {
    /// A header the reader refused, as a decode error: the file is not a sound image. The
    /// refusal stays underneath, for a caller that wants its offset or structure problem.
    var decodeError: ImageDecodeError { ImageDecodeError(.corrupt, description, underlying: self) }

    /// Runs a header reader for a decoder: its refusal becomes the decode's error.
    static func asDecodeError<T>(_ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch let error as ImageHeaderError {
            throw error.decodeError
        }
    }
}
