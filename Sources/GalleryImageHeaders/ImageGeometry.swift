/// What the header of a format 2.0 image type says, read without decoding a pixel: the size
/// as stored, the turn and mirror that make it upright, the frames, and whether it has alpha.
///
/// Format 2.0 (issue 18, in progress) gives WebP, GIF, AVIF and HEIC the rule JPEG already has:
/// the manifest's `width` and `height` are the stored ones, before any transform, and a
/// thumbnail applies the transform. These readers run before any library sees the bytes, so
/// that a file the library would choke on (a box loop, a grid of thousands of tiles, a canvas
/// of gigapixels) is refused with a message that names what is wrong and where.
package struct ImageGeometry: Sendable, Hashable {
    /// Mirror axes, as ISOBMFF's `imir` names them.
    package enum Mirror: Sendable, Hashable {
        /// About the vertical axis: left and right swap.
        case vertical
        /// About the horizontal axis: top and bottom swap.
        case horizontal
    }

    package var width: Int
    package var height: Int
    /// Anticlockwise quarter turns (`irot`), 0 to 3; applied before the mirror, as HEIF orders them.
    package var quarterTurns = 0
    package var mirror: Mirror?
    /// HEIF applies transforms in the order `ipma` lists them: true when `imir` came before `irot`.
    package var mirroredFirst = false
    /// 1 for a still image.
    package var frameCount = 1
    package var hasAlpha = false
    /// Bits a sample of the coded image holds (HEIC: from its `hvcC`), which sizes a decoder's
    /// buffers; 8 where the reader does not look.
    package var bitsPerSample = 8
    /// The most chroma the coded image's planes carry, as H.265's `chroma_format_idc` numbers
    /// it: 0 grey, 1 4:2:0, 2 4:2:2, 3 4:4:4 (HEIC: from its `hvcC`s); 3 where the reader does
    /// not look.
    package var chromaFormat = 3
    /// Pixels a decoder works through for the first frame where that is more than the stored
    /// size: a GIF frame that reaches past its logical screen is decoded whole by its LZW, every
    /// row and column of it, though only what falls on the screen is shown.
    package var firstFrameArea: Int?

    /// Pixels a decode of the first frame works through, whatever it keeps.
    package var workPixels: Int { max(width * height, firstFrameArea ?? 0) }

    /// The size once upright.
    package var uprightSize: (width: Int, height: Int) {
        quarterTurns % 2 == 1 ? (height, width) : (width, height)
    }
}

/// The bounds every header reader keeps, whatever the file says.
package struct HeaderLimits: Sendable {
    /// Frames of an animation (GIF image descriptors, WebP `ANMF` chunks).
    package var frames = 10_000
    /// Tiles of an AVIF or HEIC grid: an iPhone's 12 MP photo has 48.
    package var tiles = 1_024
    /// Items of an ISOBMFF `meta` box, and properties of its `ipco`.
    package var items = 10_000
    /// Boxes read in all.
    package var boxes = 100_000
    /// Width or height, as for JPEG and PNG (format section 10).
    package var dimension = 65_535

    package init() {}
}

/// A bounded, buffered view of an image through the `read(offset, count)` that header parsers
/// take: a walk over thousands of small chunks costs a few large reads.
struct HeaderSource {
    let size: UInt64
    let read: (UInt64, Int) throws -> [UInt8]
    private var window: [UInt8] = []
    private var windowStart: UInt64 = 0

    init(size: UInt64, read: @escaping (UInt64, Int) throws -> [UInt8]) {
        self.size = size
        self.read = read
    }

    /// Exactly `count` bytes at `offset`, or an error naming the type and the offset.
    mutating func bytes(at offset: UInt64, count: Int, _ what: String) throws -> [UInt8] {
        guard count >= 0, offset.addingSaturating(UInt64(count)) <= size else {
            throw ImageHeaderError("\(what) runs past the end of the image (\(size) bytes)", offset: offset)
        }
        if offset < windowStart || offset + UInt64(count) > windowStart + UInt64(window.count) {
            window = try read(offset, max(count, 65_536))
            windowStart = offset
            guard window.count >= count else {
                throw ImageHeaderError("\(what) runs past the end of the image", offset: offset)
            }
        }
        let start = Int(offset - windowStart)
        return Array(window[start ..< start + count])
    }
}
