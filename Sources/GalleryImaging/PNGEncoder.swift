internal import CZlib
import GalleryFormat

/// A small, deterministic PNG writer: 8-bit greyscale, RGB or RGBA, no interlace, filter 0.
public enum PNGEncoder {
    /// The colour type written, and the bytes a pixel in the input (its raw value).
    public enum Layout: Int, Sendable {
        /// Greyscale, RGB or RGB with alpha: 1, 3 or 4 bytes a pixel. A thumbnail with no transparent
        /// pixel is written as RGB, a quarter smaller.
        case grey = 1, rgb = 3, rgba = 4

        var colourType: UInt8 {
            switch self {
            case .grey: 0
            case .rgb: 2
            case .rgba: 6
            }
        }
    }

    /// The row filter. `none` with level 9 is the canonical form of flat images (the
    /// placeholder). Photos compress a quarter smaller with `sub`, and zlib is fastest on it:
    /// for a 1,024 px photo, level 1 takes 35 ms for 1.26 MB where unfiltered level 9 takes
    /// 103 ms for 1.73 MB (see Bitmap.png()).
    public enum Filter: UInt8, Sendable { case none = 0, sub = 1 }

    /// Encodes `pixels` (rows top to bottom, no padding), with optional tEXt chunks.
    public static func encode(width: Int, height: Int, layout: Layout, pixels: [UInt8],
                              text: [(keyword: String, value: String)] = [], filter: Filter = .none,
                              level: Int32 = 9) -> [UInt8] {
        precondition(width > 0 && height > 0 && pixels.count == width * height * layout.rawValue)
        return encode(width: width, height: height, layout: layout, pixels: pixels, sourceChannels: layout.rawValue,
                      text: text, filter: filter, level: level)
    }

    /// Encodes rows of `sourceChannels` bytes a pixel into `layout` (RGBA into RGB drops the
    /// alpha). Rows are filtered and deflated one at a time: the memory is the image and its
    /// compressed form, never a second filtered copy of it (a 4,096 px thumbnail would need
    /// 50 MB more).
    static func encode(width: Int, height: Int, layout: Layout, pixels: [UInt8], sourceChannels: Int,
                       text: [(keyword: String, value: String)], filter: Filter, level: Int32) -> [UInt8] {
        precondition(pixels.count == width * height * sourceChannels && sourceChannels >= layout.rawValue)
        let writer = RowWriter(width: width, height: height, layout: layout, sourceChannels: sourceChannels, text: text,
                               filter: filter, level: level)
        pixels.withUnsafeBufferPointer { pixels in
            let rowBytes = width * sourceChannels
            for y in 0 ..< height { writer.append(UnsafeBufferPointer(rebasing: pixels[y * rowBytes ..< (y + 1) * rowBytes])) }
        }
        return writer.finish()
    }

    /// A PNG written as its rows come, top to bottom: a thumbnail's rows as its filter gives
    /// them, while the rest of the picture decodes.
    package final class RowWriter {
        private let width: Int
        private let height: Int
        private let channels: Int
        private let sourceChannels: Int
        private let filter: Filter
        private var out: [UInt8] = []
        private let idat: Int
        private let rows: RowStream
        private var row: [UInt8]
        private var buffer = [UInt8](repeating: 0, count: 1 << 16)
        private var rowsIn = 0

        /// Starts the file: `sourceChannels` bytes a pixel in each row given, `layout` in the file.
        package init(width: Int, height: Int, layout: Layout, sourceChannels: Int,
                     text: [(keyword: String, value: String)], filter: Filter, level: Int32) {
            precondition(width > 0 && height > 0 && sourceChannels >= layout.rawValue)
            self.width = width
            self.height = height
            self.channels = layout.rawValue
            self.sourceChannels = sourceChannels
            self.filter = filter
            let rowBytes = width * channels
            // Room for the most deflate can make of the rows (zlib's bound, or a stored block of
            // five bytes a row at level 0), so that the file is never copied as it grows; pages
            // that stay unused are never touched.
            let filtered = height * (rowBytes + 1)
            out.reserveCapacity(64 + text.reduce(0) { $0 + 12 + $1.keyword.utf8.count + 1 + $1.value.unicodeScalars.count }
                                + filtered + max((filtered >> 12) + (filtered >> 14), height * 5 + (filtered >> 16) * 5) + 64)
            out += [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            var header: [UInt8] = []
            header.appendBigEndian(UInt32(width))
            header.appendBigEndian(UInt32(height))
            header += [8, layout.colourType, 0, 0, 0]
            PNGEncoder.appendChunk("IHDR", header, to: &out)
            for entry in text {
                PNGEncoder.appendChunk("tEXt", Array(entry.keyword.utf8) + [0] + Array(entry.value.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }),
                            to: &out)
            }
            idat = out.count
            out += [0, 0, 0, 0] + Array("IDAT".utf8)
            rows = RowStream(level: level, filteredBytes: filtered)
            row = [UInt8](repeating: 0, count: rowBytes + 1)
        }

        /// The next row: `width` × `sourceChannels` bytes.
        package func append(_ line: UnsafeBufferPointer<UInt8>) {
            precondition(line.count == width * sourceChannels && rowsIn < height)
            let (width, channels, sourceChannels, rowBytes) = (width, channels, sourceChannels, width * channels)
            let line = line.baseAddress!
            row.withUnsafeMutableBufferPointer { row in
                row[0] = filter.rawValue
                for x in 0 ..< width {
                    for c in 0 ..< channels { row[1 + x * channels + c] = line[x * sourceChannels + c] }
                }
                if filter == .sub {
                    // Each byte minus the same channel of the pixel to its left, right to left.
                    var index = rowBytes - 1
                    while index >= channels {
                        row[1 + index] = row[1 + index] &- row[1 + index - channels]
                        index -= 1
                    }
                }
            }
            rowsIn += 1
            rows.append(row, last: rowsIn == height, buffer: &buffer, into: &out)
        }

        /// The file, once every row is in.
        package func finish() -> [UInt8] {
            precondition(rowsIn == height, "the PNG needs all \(height) rows")
            let length = UInt32(out.count - idat - 8)
            out[idat] = UInt8(truncatingIfNeeded: length >> 24)
            out[idat + 1] = UInt8(truncatingIfNeeded: length >> 16)
            out[idat + 2] = UInt8(truncatingIfNeeded: length >> 8)
            out[idat + 3] = UInt8(truncatingIfNeeded: length)
            var crc = CRC32()
            out.withUnsafeBytes { crc.update(UnsafeRawBufferPointer(rebasing: $0[(idat + 4)...])) }
            out.appendBigEndian(crc.value)
            PNGEncoder.appendChunk("IEND", [], to: &out)
            return out
        }
    }

    /// The filtered rows of a large image are deflated in pieces of this size, side by side on
    /// two cores (`PieceDeflater`): a 1,024 px photo's 2 MB took a quarter of its thumbnail's
    /// time on one. An image of less than two pieces (a 256 px thumbnail) is one zlib stream.
    static let deflatePieceSize = 256 << 10
    /// One thread beside the caller's: a thumbnail's PNG is at most 64 MiB of rows, and a fixed
    /// count keeps its memory known without asking the system for its processors, which the
    /// confined thumbnailer may no longer do (it reads files to tell).
    static let deflateHelpers = 1

    /// Where the filtered rows go. At level 0 the zlib stream is written here, as stored blocks
    /// (a two-byte header, each block's five-byte header and its bytes, then the Adler-32):
    /// zlib would allocate its 256 KB of tables and copy every row through its window first,
    /// which on the thumbnailer's path cost more than the rest of the encoding. A large image
    /// is deflated in pieces, its zlib header and Adler-32 written here.
    private final class RowStream {
        private var stream = z_stream()
        private let stored: Bool
        private let pieces: PieceDeflater?
        private let level: Int32
        private var adler = adler32(0, nil, 0)
        private var started = false

        init(level: Int32, filteredBytes: Int) {
            self.level = level
            stored = level == 0
            pieces = !stored && filteredBytes >= 2 * PNGEncoder.deflatePieceSize
                ? PieceDeflater(level: level, context: "the PNG's image data", pieceSize: PNGEncoder.deflatePieceSize,
                                helpers: PNGEncoder.deflateHelpers) : nil
            if !stored && pieces == nil {
                precondition(deflateInit_(&stream, level, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK,
                             "zlib deflateInit failed")
            }
        }

        deinit { if !stored && pieces == nil { deflateEnd(&stream) } }

        func append(_ row: [UInt8], last: Bool, buffer: inout [UInt8], into out: inout [UInt8]) {
            if let pieces {
                appendInPieces(row, last: last, pieces: pieces, into: &out)
                return
            }
            guard stored else {
                PNGEncoder.deflateAll(&stream, row, flush: last ? Z_FINISH : Z_NO_FLUSH, buffer: &buffer, into: &out)
                return
            }
            if !started {
                out += [0x78, 0x01]  // deflate, 32 KB window, no dictionary, the fastest level
                started = true
            }
            row.withUnsafeBufferPointer { row in
                adler = adler32(adler, row.baseAddress, UInt32(row.count))
                var start = 0
                repeat {
                    let count = min(row.count - start, 0xFFFF)
                    let final: UInt8 = last && start + count == row.count ? 1 : 0
                    out += [final, UInt8(truncatingIfNeeded: count), UInt8(truncatingIfNeeded: count >> 8),
                            ~UInt8(truncatingIfNeeded: count), ~UInt8(truncatingIfNeeded: count >> 8)]
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: row[start ..< start + count]))
                    start += count
                } while start < row.count
            }
            if last { out.appendBigEndian(UInt32(truncatingIfNeeded: adler)) }
        }

        private func appendInPieces(_ row: [UInt8], last: Bool, pieces: PieceDeflater, into out: inout [UInt8]) {
            if !started {
                out += PNGEncoder.zlibHeader(level: level)
                started = true
            }
            row.withUnsafeBytes { bytes in
                adler = adler32(adler, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(bytes.count))
                do {
                    try pieces.compress(bytes) { out.append(contentsOf: $0) }
                    if last { try pieces.finish { out.append(contentsOf: $0) } }
                } catch {
                    preconditionFailure("zlib could not deflate the PNG's image data: \(error)")
                }
            }
            if last { out.appendBigEndian(UInt32(truncatingIfNeeded: adler)) }
        }
    }

    /// The zlib stream's header as zlib writes it for `level`: deflate with a 32 KiB window,
    /// no dictionary, the level's class in FLEVEL, and the check bits.
    static func zlibHeader(level: Int32) -> [UInt8] {
        let levelClass: UInt16 = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3
        let header: UInt16 = 0x7800 | levelClass << 6
        let checked = header + 31 - header % 31
        return [UInt8(truncatingIfNeeded: checked >> 8), UInt8(truncatingIfNeeded: checked)]
    }

    /// Feeds `input` to the stream, appending what it produces to `out`.
    private static func deflateAll(_ stream: inout z_stream, _ input: [UInt8], flush: Int32,
                                   buffer: inout [UInt8], into out: inout [UInt8]) {
        input.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            buffer.withUnsafeMutableBufferPointer { buffer in
                while true {
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    let status = deflate(&stream, flush)
                    precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR,
                                 "zlib deflate failed with \(status)")
                    out.append(contentsOf: buffer[..<(buffer.count - Int(stream.avail_out))])
                    if flush == Z_FINISH ? status == Z_STREAM_END : (stream.avail_in == 0 && stream.avail_out != 0) { break }
                }
            }
        }
    }

    fileprivate static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        out.appendBigEndian(UInt32(data.count))
        let typeAndData = Array(type.utf8) + data
        out += typeAndData
        out.appendBigEndian(CRC32.of(typeAndData))
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value >> 24))
        append(UInt8(truncatingIfNeeded: value >> 16))
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }
}
