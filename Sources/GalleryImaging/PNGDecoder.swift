internal import CImageCodecs
import GalleryFormat
import GalleryImageHeaders

/// A streaming PNG decoder (libpng's progressive reader behind a C shim): bytes go in as they
/// are read, rows come out as soon as they are final. Without a row handler the pixels are
/// checked and dropped, in the memory of one row, however large the image.
public final class PNGDecoder {
    /// Called with each final row of the image (its index from the top) as RGBA, 4 bytes a pixel;
    /// the buffer is valid only during the call, so a handler that keeps the row copies it.
    public typealias RowHandler = (_ row: Int, _ pixels: UnsafeBufferPointer<UInt8>) -> Void

    private let decoder: OpaquePointer
    /// What the shim calls back with; owned here so that it outlives every callback.
    private let sink: RowSink?

    private final class RowSink {
        let onRow: RowHandler
        /// The decoder whose rows these are, to ask their layout of.
        var decoder: OpaquePointer?
        init(_ onRow: @escaping RowHandler) { self.onRow = onRow }
    }

    /// `keepsRows`: the handler keeps every row, so the whole image must fit `limits.maxBytes`.
    public convenience init(limits: DecodeLimits = DecodeLimits(), keepsRows: Bool = false, onRow: RowHandler? = nil) throws {
        try self.init(limits: limits, keepsRows: keepsRows, keepsSixteenBits: false, onRow: onRow)
    }

    /// With `keepsSixteenBits`, a 16-bit image's rows come as 16-bit RGBA in the machine's byte
    /// order, 8 bytes a pixel (``pixelBytes``): for a colour conversion that must not lose the
    /// precision first (issue 31). An 8-bit image's rows are as always.
    package init(limits: DecodeLimits, keepsRows: Bool, keepsSixteenBits: Bool, onRow: RowHandler?) throws {
        let cLimits = ig_png_limits(
            max_width: UInt32(clamping: limits.maxSide), max_height: UInt32(clamping: limits.maxSide),
            max_pixels: UInt64(limits.maxPixels), max_work_pixels: UInt64(limits.workPixels(for: .png)),
            keeps_rows: keepsRows ? 1 : 0, max_bytes: UInt64(limits.maxBytes),
            max_chunk_bytes: UInt64(min(limits.maxBytes, 8 << 20)),
            max_output_bytes: keepsRows ? UInt64(limits.maxBytes) : .max, keeps_16_bits: keepsSixteenBits ? 1 : 0)
        sink = onRow.map(RowSink.init)
        let callback: ig_png_row_callback? = sink == nil ? nil : { context, row, width, pixels in
            let sink = Unmanaged<RowSink>.fromOpaque(context!).takeUnretainedValue()
            let pixelBytes = sink.decoder.map { Int(ig_png_decoder_pixel_bytes($0)) } ?? 4
            sink.onRow(Int(row), UnsafeBufferPointer(start: pixels, count: Int(width) * pixelBytes))
        }
        let context = sink.map { Unmanaged.passUnretained($0).toOpaque() }
        guard let created = ig_png_decoder_create(cLimits, callback, context) else {
            throw ImageDecodeError(.pastLimit, "libpng could not start (out of memory)")
        }
        decoder = created
        sink?.decoder = created
    }

    /// The bytes of a pixel in the rows handed over: 4, or 8 for a 16-bit image kept at 16 bits.
    package var pixelBytes: Int { Int(ig_png_decoder_pixel_bytes(decoder)) }

    deinit { ig_png_decoder_destroy(decoder) }

    /// The first chunk whose declared length runs past the end of `size` bytes, as a corrupt
    /// image error; nil when every chunk header up to IEND (or the end) fits. Reads 8 bytes
    /// per chunk.
    public static func chunkPastEnd(size: UInt64, read: (UInt64, Int) throws -> [UInt8]) throws -> ImageDecodeError? {
        var offset: UInt64 = 8
        while offset + 8 <= size {
            let head = try read(offset, 8)
            guard head.count == 8 else { return nil }
            let length = head[0 ..< 4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let type = String(decoding: head[4 ..< 8], as: UTF8.self)
            let end = offset + 12 + length
            if end > size {
                return ImageDecodeError(.corrupt, "the \(type) chunk at byte \(offset) declares \(length) bytes, "
                                        + "past the end of the image's \(size)")
            }
            if type == "IEND" { return nil }
            offset = end
        }
        return nil
    }

    /// The header, once IHDR has been read.
    public var header: ImageHeader? {
        guard ig_png_decoder_has_header(decoder) != 0 else { return nil }
        return ImageHeader(mediaType: .png, width: Int(ig_png_decoder_width(decoder)),
                           height: Int(ig_png_decoder_height(decoder)),
                           bitDepth: Int(ig_png_decoder_bit_depth(decoder)),
                           interlaced: ig_png_decoder_interlaced(decoder) != 0)
    }

    /// True once IEND has been read: later bytes are ignored.
    public var isFinished: Bool { ig_png_decoder_finished(decoder) != 0 }

    /// Gives the decoder the next bytes of the PNG, in order, in pieces of any size; rows that
    /// become final are handed to the row handler before it returns. Throws as soon as the data is
    /// corrupt or passes a limit, so a hostile file costs no more than the bytes fed so far.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        try check(ig_png_decoder_feed(decoder, base.assumingMemoryBound(to: UInt8.self), bytes.count))
    }

    /// The same, from an array (a chunk read from a file or a blob).
    public func feed(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try feed($0) }
    }

    /// Ends the input: throws unless the whole image, up to IEND, has been decoded.
    public func finish() throws {
        try check(ig_png_decoder_feed(decoder, nil, 0))
        if isFinished, let header, Int(ig_png_decoder_rows_done(decoder)) < header.height {
            throw ImageDecodeError(.corrupt, "the PNG's image data ends after \(ig_png_decoder_rows_done(decoder)) of its "
                                   + "\(header.height) rows")
        }
        guard isFinished else {
            if let header {
                let rows = Int(ig_png_decoder_rows_done(decoder))
                throw ImageDecodeError(.corrupt, "the PNG ends after \(rows) of its \(header.height) rows")
            }
            throw ImageDecodeError(.corrupt, "the PNG ends before its image data")
        }
    }

    private func check(_ status: Int32) throws {
        switch Int(status) {
        case IG_PNG_OK: return
        case IG_PNG_LIMIT, IG_PNG_NOMEM:
            throw ImageDecodeError(.pastLimit, message)
        default:
            throw ImageDecodeError(.corrupt, message)
        }
    }

    private var message: String { libraryMessage(ig_png_decoder_message(decoder)) }
}

extension PNGDecoder {
    /// The decoder as its own row handler sees it, for the header once rows come: set after the
    /// decoder is made, and weak, since the decoder holds the handler.
    final class Reference { weak var decoder: PNGDecoder? }

    /// Decodes a whole PNG held in memory, refusing before any row is kept when the image
    /// would pass `limits.maxBytes`.
    public static func decode(_ bytes: [UInt8], limits: DecodeLimits = DecodeLimits()) throws -> Bitmap {
        let reference = Reference()
        var pixels: [UInt8] = []
        let decoder = try PNGDecoder(limits: limits, keepsRows: true) { _, row in
            // Sized once, when the first row comes (the limits have passed the image by then):
            // grown by doubling it touched twice the pages and copied each row again.
            if pixels.isEmpty, let header = reference.decoder?.header { pixels.reserveCapacity(header.width * header.height * 4) }
            pixels.append(contentsOf: row)
        }
        reference.decoder = decoder
        try decoder.feed(bytes)
        try decoder.finish()
        guard let header = decoder.header, pixels.count == header.width * header.height * 4 else {
            throw ImageDecodeError(.corrupt, "the PNG decoded to an unexpected number of pixels")
        }
        return Bitmap(width: header.width, height: header.height, pixels: pixels)
    }
}
