import GalleryFormat
import GalleryImageHeaders

/// Bounds on what decoding one image may cost, checked from the header before any pixel
/// buffer is allocated. Every image is hostile until decoded.
public struct DecodeLimits: Sendable, Hashable {
    /// Pixels a decode holds at once: a JPEG's output at the DCT scale it is decoded at (1/8
    /// of each side for a small thumbnail) when it is kept whole, else the few rows on their
    /// way to a thumbnail's filter; a PNG's whole image only when it is kept or assembled
    /// (interlaced), else one row. So a 108-megapixel photo, decoded at 1/8 and kept whole,
    /// holds 1.7 megapixels (format spec, section 10).
    public var maxPixels: Int
    /// Width × height of the image: bounds the work of a decode, which reads every pixel's
    /// data whatever it keeps. A row or band path is admitted as the whole image.
    public var maxWorkPixels: Int
    /// Memory one decode may use: the compressed bytes held, the decoder's own buffers and the
    /// output.
    public var maxBytes: Int
    /// Either side, in pixels (libpng's user limits; JPEG cannot exceed 65,535).
    public var maxSide: Int
    /// JPEG scans: a crafted progressive file can make every scan cost a full pass.
    public var maxScans: Int
    /// CPU time one decode may take, estimated from the header with each codec's measured cost
    /// per pixel (`DecodeCost`), or nil for no bound but ``maxWorkPixels``. Pixels alone do not
    /// bound time: a 0.99-gigapixel GIF passes a 1-gigapixel limit and its LZW still costs 15 s,
    /// where a JPEG of that size costs a tenth of it at 1/8 scale. The thumbnail paths set it.
    public var cpuBudget: Duration?
    /// Whether a whole decoded bitmap may be filtered in two parts on two threads
    /// (`Resampler+Parts`), and a JPEG's rows filtered on a second thread as they decode: for
    /// one thumbnail that a person waits for, yes; for renditions
    /// already made one per core (the editor's), no, since a second thread each adds only
    /// contention.
    package var filtersInParts = true
    /// Whether a thumbnailer that filters a JPEG's rows on a second thread also writes its
    /// `png()` there, as the rows come (`Bitmap.madePNG`): for a caller that will save the
    /// thumbnail as that PNG, and only for it, since the writing costs as much as the filter.
    package var writesPNG = false

    /// Limits for one decode. The defaults (100 megapixels held, a gigapixel worked through,
    /// 256 MiB, no CPU bound) bound a whole image's decode; the thumbnail paths add a CPU budget
    /// (``GalleryThumbnail/limits``).
    public init(maxPixels: Int = 100_000_000, maxWorkPixels: Int = 1_000_000_000, maxBytes: Int = 256 << 20,
                maxSide: Int = 1 << 20, maxScans: Int = 500, cpuBudget: Duration? = nil) {
        self.maxPixels = maxPixels
        self.maxWorkPixels = maxWorkPixels
        self.maxBytes = maxBytes
        self.maxSide = maxSide
        self.maxScans = maxScans
        self.cpuBudget = cpuBudget
    }
}

/// Why an image did not decode.
public struct ImageDecodeError: Error, Sendable, DetailedError {
    /// Whether the image is broken or only too big for these limits: a validator reports the two
    /// differently (a damaged blob is an error; one past a limit may be fine elsewhere).
    public enum Kind: Sendable, CaseIterable {
        /// The data is not a decodable image: truncated, corrupt, a decoder warning.
        case corrupt
        /// The image may be fine but is past a ``DecodeLimits`` bound.
        case pastLimit
    }

    /// Corrupt data or a bound passed.
    public var kind: Kind
    /// What went wrong, in words for the user (the decoder's complaint, or the limit passed and
    /// by how much), and the error underneath (the header reader's refusal). No place: the
    /// caller names the image (its path or blob) around it, so it prints as the message alone.
    public var detail: ErrorDetail

    /// An error of `kind`, explained by `message`; `underlying` is the error that caused it,
    /// when one did.
    public init(_ kind: Kind, _ message: String, underlying: (any Error)? = nil) {
        self.kind = kind
        self.detail = ErrorDetail(message, underlying: underlying)
    }
}

extension DecodeLimits {
    /// These limits with `bytes` of the budget already spent elsewhere (a resampled copy that
    /// lives beside the decoded image, say); refused when nothing would be left.
    func less(_ bytes: Int) throws -> DecodeLimits {
        guard bytes < maxBytes else {
            throw ImageDecodeError(.pastLimit, "the thumbnail would take \(bytes) bytes, past the memory limit of \(maxBytes)")
        }
        var rest = self
        rest.maxBytes -= bytes
        return rest
    }

    /// The most pixels a decode of `type` may work through: ``maxWorkPixels``, lowered to what
    /// ``cpuBudget`` pays for at the codec's cost per pixel (at `scale`/8 for JPEG's DCT scaling),
    /// once `codedBytes` of the file are paid for.
    package func workPixels(for type: MediaType, scale: Int = 8, codedBytes: Int = 0) -> Int {
        guard let cpuBudget else { return maxWorkPixels }
        let (seconds, attoseconds) = cpuBudget.components
        let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
        let left = nanoseconds - DecodeCost.nanoseconds(type, pixels: 0, bytes: codedBytes)
        let affordable = max(0, left) / DecodeCost.nanosecondsPerPixel(type, scale: scale)
        return min(maxWorkPixels, Int(min(affordable, Double(Int.max / 2))))
    }

    /// The one rule every decode of every type passes before a library sees a byte of the image:
    /// the whole image's work (`work.worked`: never a row's or a band's, however the rows are
    /// then handed out) and its coded bytes, the pixels held at once and the memory. Messages
    /// name the image by the size its header declares.
    package func admit(_ work: DecodeWork) throws {
        let (width, height) = work.declared
        let allowed = workPixels(for: work.type, scale: work.scale, codedBytes: work.codedBytes)
        guard work.worked <= allowed else {
            if allowed < maxWorkPixels, let cpuBudget {
                let estimate = DecodeCost.nanoseconds(work.type, pixels: work.worked, bytes: work.codedBytes,
                                                      scale: work.scale) / 1e9
                throw ImageDecodeError(.pastLimit, "this \(width)×\(height) \(work.what) means decoding \(work.worked) "
                                       + "pixels from \(work.codedBytes) bytes, about \(Self.describe(seconds: estimate)) "
                                       + "of CPU at \(DecodeCost.describe(work.type, scale: work.scale)), more than the "
                                       + "\(Self.describe(cpuBudget)) a decode may take here")
            }
            throw ImageDecodeError(.pastLimit, "this \(width)×\(height) \(work.what) means decoding \(work.worked) pixels, "
                                   + "past the limit of \(maxWorkPixels) decoded pixels")
        }
        guard work.held <= maxPixels else {
            throw ImageDecodeError(.pastLimit, "this \(width)×\(height) \(work.what) would hold \(work.held) decoded pixels at once, "
                                   + "past the limit of \(maxPixels)")
        }
        guard work.bytes <= maxBytes else {
            throw ImageDecodeError(.pastLimit, "decoding this \(width)×\(height) \(work.what) needs about \(work.bytes >> 20) MiB, "
                                   + "past the memory limit of \(maxBytes >> 20) MiB")
        }
    }

    private static func describe(seconds: Double) -> String {
        seconds >= 10 ? "\(Int(seconds.rounded())) s" : "\(Double(Int(seconds * 10)) / 10) s"
    }

    private static func describe(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return describe(seconds: Double(milliseconds) / 1000)
    }
}

/// What one decode will do, from the header alone: what ``DecodeLimits/admit(_:)`` weighs.
package struct DecodeWork: Sendable {
    package var type: MediaType
    /// What is decoded, in words: "GIF image", "WebP animation's canvas".
    package var what: String
    /// The size the header declares, which messages name.
    package var declared: (width: Int, height: Int)
    /// Pixels the codec works through: the whole image (or the whole first frame), whether its
    /// rows are kept, streamed or dropped.
    package var worked: Int
    /// Pixels held at once: the output at its scale, or a band.
    package var held: Int
    /// Memory held at most.
    package var bytes: Int
    /// JPEG's DCT scale, in eighths; 8 for every other decode.
    package var scale: Int
    /// The file's bytes, which the entropy decoder reads whatever the pixels.
    package var codedBytes: Int

    package init(_ type: MediaType, _ what: String, declared: (width: Int, height: Int), codedBytes: Int,
                 worked: Int? = nil, held: Int? = nil, bytes: Int, scale: Int = 8) {
        self.type = type
        self.what = what
        self.declared = declared
        self.worked = worked ?? declared.width * declared.height
        self.held = held ?? declared.width * declared.height
        self.bytes = bytes
        self.scale = scale
        self.codedBytes = codedBytes
    }
}
