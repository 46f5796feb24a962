import GalleryFormat
import GalleryImageHeaders

/// Images made small: decoded at the smallest size that still covers the target (DCT scaling
/// for JPEG, rows streamed for PNG, libwebp's scaling for a still WebP; the other types whole),
/// filtered down, and turned upright.
public enum Thumbnailer {
    /// The longer side of a rendition shown in place of an image browsers cannot show (HEIC):
    /// by the editor's detail view and the web gallery's image pages.
    public static let displayLongSide = 4096

    /// A bitmap whose longer side is at most `longSide`, upright (EXIF orientation applied).
    /// Never enlarges.
    /// The pixels are sRGB: an image that describes its colour otherwise (an ICC profile, code
    /// points, gamma) is converted, and one whose description cannot be used is read as sRGB.
    public static func thumbnail(of bytes: [UInt8], longSide: Int, limits: DecodeLimits = DecodeLimits()) throws -> Bitmap {
        try thumbnail(of: bytes, longSide: longSide, limits: limits, colourNotice: nil)
    }

    /// The same, telling `colourNotice` why an image's colour description was not (or not
    /// wholly) honoured.
    package static func thumbnail(of bytes: [UInt8], longSide: Int, limits: DecodeLimits,
                                  colourNotice: ((String) -> Void)?) throws -> Bitmap {
        precondition(longSide > 0)
        let kind = ImageKind.identify(bytes.prefix(ImageKind.identifyingBytes))
        guard case .supported(let type) = kind else { throw ImageDecodeError(.corrupt, kind.refusal ?? ImageKind.notAnImage) }
        let colour = ColourPlan.of(bytes, as: type)
        if let problem = colour.problem { colourNotice?(problem) }
        // A CMYK JPEG's profile is applied by the decoder, to the ink it decodes; the others'
        // after filtering, before rounding (the resampler's output), so the conversion costs the
        // thumbnail's pixels, not the photo's, as vipsthumbnail does it.
        let cmykProfile = colour.transform?.layout == .invertedCMYK ? colour.transform : nil
        let convert = cmykProfile == nil ? colour.transform : nil
        return switch type {
        case .jpeg: try jpeg(bytes, longSide: longSide, limits: limits, cmykProfile: cmykProfile, colour: convert)
        case .png: try png(bytes, longSide: longSide, limits: limits, colour: convert)
        default: try formatTwo(bytes, longSide: longSide, limits: limits, colour: convert)
        }
    }

    /// `bitmap` at `width` × `height` and in sRGB: filtered (and converted as it is rounded)
    /// when its size differs, else converted as it is.
    static func fitted(_ bitmap: Bitmap, width: Int, height: Int, colour: ColourTransform?, limits: DecodeLimits) -> Bitmap {
        guard bitmap.width == width && bitmap.height == height else {
            return Resampler.resize(bitmap, width: width, height: height, colour: colour, partsAllowed: limits.filtersInParts)
        }
        var converted = bitmap
        colour?.apply(to: &converted)
        return converted
    }

    /// WebP, GIF, AVIF and HEIC: the first frame (WebP decoded whole, scaled while decoding; the
    /// others a row at a time), filtered down, then turned upright by its `irot` and `imir`.
    static func formatTwo(_ bytes: [UInt8], longSide: Int, limits: DecodeLimits, colour: ColourTransform? = nil) throws -> Bitmap {
        let header = try ImageHeaderError.asDecodeError { try ImageHeader.parse(bytes) }
        let fitted = Resampler.fitting(width: header.width, height: header.height, longSide: longSide)
        // The filtered and turned copies and the PNG made from them live beside the decoded frame.
        let copies = Resampler.bytesNeeded(sourceWidth: header.width, sourceHeight: header.height,
                                           width: fitted.width, height: fitted.height)
            + fitted.width * fitted.height * 4 * 2 + pngBytes(fitted.width, fitted.height)
        if header.mediaType != .webp {
            // Rows into the filter as they come: a large AVIF or HEIC is never held as RGBA
            // whole, nor a GIF whose first frame covers its screen. The filter runs on a second
            // thread beside the decoder.
            let resampler = Resampler(sourceWidth: header.width, sourceHeight: header.height, width: fitted.width,
                                      height: fitted.height)
            resampler.colour = colour
            // A GIF's indices may cross instead, a row of RGBA made of them on the far side.
            let indexRow = header.mediaType == .gif ? header.width * 4 : 0
            let rest = try limits.less(copies + RowPipeline.bytesNeeded(rowBytes: header.width * 4) + indexRow)
            let indexed = header.mediaType == .gif
                ? try gifFromIndices(bytes, width: header.width, height: header.height, limits: rest, resampler: resampler) : nil
            let decoded = try indexed ?? RowPipeline.run(rowBytes: header.width * 4, consume: { resampler.push($0) }) { rows in
                try DecodedFrame.decodeRows(bytes, as: header.mediaType, limits: rest, rows: rows)
            }
            guard let geometry = decoded else { throw ImageDecodeError(.corrupt, "no decoder for \(header.mediaType.rawValue)") }
            guard resampler.isComplete else { throw ImageDecodeError(.corrupt, "the \(header.mediaType.name) image's rows are incomplete") }
            return resampler.finish().upright(geometry)
        }
        guard let frame = try DecodedFrame.decode(bytes, as: header.mediaType, covering: fitted, limits: try limits.less(copies)) else {
            throw ImageDecodeError(.corrupt, "no decoder for \(header.mediaType.rawValue)")
        }
        let upright = frame.geometry.uprightSize
        let wanted = Resampler.fitting(width: upright.width, height: upright.height, longSide: longSide)
        let stored = frame.geometry.quarterTurns % 2 == 1 ? (wanted.height, wanted.width) : (wanted.width, wanted.height)
        return Self.fitted(frame.bitmap, width: stored.0, height: stored.1, colour: colour, limits: limits).upright(frame.geometry)
    }

    static func jpeg(_ bytes: [UInt8], longSide: Int, limits: DecodeLimits, cmykProfile: ColourTransform? = nil,
                     colour: ColourTransform? = nil) throws -> Bitmap {
        let structure = try JPEGStructure.decodingFrame(size: UInt64(bytes.count), read: bytes.bytes(at:count:))
        let turned = structure.orientation.swapsDimensions
        let upright = turned ? (structure.height, structure.width) : (structure.width, structure.height)
        let fitted = Resampler.fitting(width: upright.0, height: upright.1, longSide: longSide)
        let stored = turned ? (fitted.height, fitted.width) : (fitted.width, fitted.height)
        // The resampled (and turned) copies live beside the decode, within one budget, as do
        // the PNG made from the result and the rows on their way to the filter.
        let copies = Resampler.bytesNeeded(sourceWidth: structure.width, sourceHeight: structure.height,
                                           width: stored.0, height: stored.1)
            + (structure.orientation == .up ? 0 : fitted.width * fitted.height * 4)
            + pngBytes(fitted.width, fitted.height)
        return try bytes.withUnsafeBytes { bytes in
            let rest = try limits.less(copies + RowPipeline.bytesNeeded(rowBytes: structure.width * 4))
            let plan = try JPEGDecoder.Plan(bytes, covering: (stored.0, stored.1), limits: rest, holdsOutput: false)
            guard plan.width != stored.0 || plan.height != stored.1 else {
                // Decoded at the very size (a small photo, or a scale that fits exactly): nothing to filter.
                let decoded = try JPEGDecoder.decode(bytes, covering: (stored.0, stored.1), limits: try limits.less(copies),
                                                     cmykProfile: cmykProfile)
                return Self.fitted(decoded, width: stored.0, height: stored.1, colour: colour, limits: limits)
                    .oriented(structure.orientation)
            }
            // Rows into the filter as they decode, the filter on a second thread when it is worth one:
            // the decoded image is never held whole.
            let resampler = Resampler(sourceWidth: plan.width, sourceHeight: plan.height, width: stored.0, height: stored.1)
            resampler.colour = colour
            let threaded = limits.filtersInParts && plan.width * plan.height >= Resampler.pixelsWorthParts
            // A JPEG's pixels are opaque, so its PNG is RGB; a turned one is written once turned.
            let png = threaded && limits.writesPNG && structure.orientation == .up
                ? Bitmap.opaquePNGWriter(width: stored.0, height: stored.1) : nil
            if let png { resampler.rowDone = { png.append($0) } }
            try RowPipeline.run(rowBytes: plan.width * 4, threaded: threaded, consume: { resampler.push($0) }) { rows in
                try plan.decodeRows(bytes, cmykProfile: cmykProfile, rows: rows)
            }
            guard resampler.isComplete else { throw ImageDecodeError(.corrupt, "the JPEG's rows are incomplete") }
            var thumbnail = resampler.finish().oriented(structure.orientation)
            // Kept only if `png()` would write the same: RGB for pixels all opaque.
            if let png, thumbnail.isOpaque { thumbnail.madePNG = png.finish() }
            return thumbnail
        }
    }

    /// The most a PNG of a thumbnail takes while it is made (`Bitmap.png()`): deflate cannot
    /// grow RGBA rows by more than a small fraction, nothing else is copied, and a large one's
    /// pieces are deflated on every core.
    static func pngBytes(_ width: Int, _ height: Int) -> Int {
        let pieces = height * (width * 4 + 1) >= 2 * PNGEncoder.deflatePieceSize
            ? PieceDeflater.bytesHeld(pieceSize: PNGEncoder.deflatePieceSize, helpers: PNGEncoder.deflateHelpers) : 0
        return width * height * 4 + (height + 1) * 64 + (1 << 20) + pieces
    }

    static func png(_ bytes: [UInt8], longSide: Int, limits: DecodeLimits, colour: ColourTransform? = nil) throws -> Bitmap {
        // A PNG already within the size (an embedded thumbnail, say) is decoded as it is.
        if let header = try? ImageHeader.parse(bytes), max(header.width, header.height) <= longSide {
            var bitmap = try PNGDecoder.decode(bytes, limits: limits)
            colour?.apply(to: &bitmap)
            return bitmap
        }
        var limits = limits
        if let header = try? ImageHeader.parse(bytes) {
            let fitted = Resampler.fitting(width: header.width, height: header.height, longSide: longSide)
            limits = try limits.less(Resampler.bytesNeeded(sourceWidth: header.width, sourceHeight: header.height,
                                                           width: fitted.width, height: fitted.height)
                                     + pngBytes(fitted.width, fitted.height))
        }
        let reference = PNGDecoder.Reference()
        var resampler: Resampler?
        // Rows go straight into the filter: a huge PNG is never held whole (unless interlaced,
        // which libpng must assemble first, within `limits.maxBytes`). A 16-bit PNG to be
        // converted keeps its 16 bits into the filter, so the conversion starts from them.
        let decoder = try PNGDecoder(limits: limits, keepsRows: false, keepsSixteenBits: colour?.convertsFloats == true) { _, row in
            if resampler == nil, let header = reference.decoder?.header {
                let fitted = Resampler.fitting(width: header.width, height: header.height, longSide: longSide)
                resampler = Resampler(sourceWidth: header.width, sourceHeight: header.height,
                                      width: fitted.width, height: fitted.height)
                resampler?.colour = colour
            }
            if reference.decoder?.pixelBytes == 8 {
                row.withMemoryRebound(to: UInt16.self) { resampler?.push(sixteenBit: $0) }
            } else {
                resampler?.push(row)
            }
        }
        reference.decoder = decoder
        try decoder.feed(bytes)
        try decoder.finish()
        guard let resampler, resampler.isComplete else { throw ImageDecodeError(.corrupt, "the PNG's rows are incomplete") }
        return resampler.finish()
    }
}
