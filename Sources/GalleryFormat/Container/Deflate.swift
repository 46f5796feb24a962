internal import CZlib

/// Raw DEFLATE (no zlib header), as ZIP method 8 stores it.
enum Deflate {
    /// Compresses in memory: an entry of bounded size (`ZipWriter.add`; the manifest where ZIP64
    /// is tested), in the pieces a streamed entry is compressed in, so that both give the same
    /// bytes.
    static func compress(_ input: [UInt8], level: Int32, context: String) throws -> [UInt8] {
        let deflater = PieceDeflater(level: level, context: context)
        // A 37 MB manifest deflates to a fifth of that: the output grows as it comes.
        var output: [UInt8] = []
        try input.withUnsafeBytes { bytes in try deflater.compress(bytes) { output += $0 } }
        try deflater.finish { output += $0 }
        return output
    }
}

/// A raw-DEFLATE encoder fed piece by piece: the bytes are those of one call with all the
/// input, since zlib's output does not depend on how the input is cut when nothing is flushed.
final class Deflater {
    private var stream = z_stream()
    private let context: String
    private let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: Deflater.bufferSize)
    private static let bufferSize = 256 << 10

    init(level: Int32, context: String) throws {
        self.context = context
        // windowBits -15: raw deflate; memLevel 8 and the default strategy, as zlib's own defaults,
        // so other implementations with the same zlib produce the same bytes.
        guard deflateInit2_(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            buffer.deallocate()
            throw GalleryError(.corruptDeflate, "zlib could not start a deflate stream", location: Location(entry: context))
        }
    }

    deinit {
        deflateEnd(&stream)
        buffer.deallocate()
    }

    /// Primes the stream with text that came before its input (a piece of a longer entry), so
    /// that its first matches may reach back into it.
    func setDictionary(_ dictionary: [UInt8]) throws {
        let status = dictionary.withUnsafeBufferPointer { deflateSetDictionary(&stream, $0.baseAddress, UInt32($0.count)) }
        guard status == Z_OK else {
            throw GalleryError(.corruptDeflate, "zlib could not take the previous piece's text (status \(status))",
                               location: Location(entry: context))
        }
    }

    /// Compresses `input`, handing each piece of output to `output`; `finishing` ends the stream,
    /// `flushing` (when not finishing) ends the output on a byte boundary, where another
    /// stream's output may follow.
    func compress(_ input: UnsafeRawBufferPointer, finishing: Bool, flushing: Bool = false,
                  output: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        // zlib never writes through next_in.
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(input.count)
        while true {
            stream.next_out = buffer
            stream.avail_out = UInt32(Self.bufferSize)
            let status = deflate(&stream, finishing ? Z_FINISH : flushing ? Z_SYNC_FLUSH : Z_NO_FLUSH)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw GalleryError(.corruptDeflate, "zlib could not compress the entry (status \(status))",
                                   location: Location(entry: context))
            }
            let produced = Self.bufferSize - Int(stream.avail_out)
            if produced > 0 { try output(UnsafeBufferPointer(start: buffer, count: produced)) }
            if finishing ? status == Z_STREAM_END : (stream.avail_in == 0 && stream.avail_out > 0) { return }
        }
    }
}

/// A raw-DEFLATE decoder that refuses to produce more than the entry declares; or, with
/// `zlibWrapped`, one for a zlib stream (PNG's `iCCP`), checked against its Adler-32.
final class Inflater {
    private var stream = z_stream()
    private(set) var finished = false
    private let entry: String

    init(entry: String, zlibWrapped: Bool = false) throws {
        self.entry = entry
        guard inflateInit2_(&stream, zlibWrapped ? 15 : -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw GalleryError(.corruptDeflate, "zlib could not start an inflate stream", location: Location(entry: entry))
        }
    }

    deinit { inflateEnd(&stream) }

    /// Compressed bytes left unused in the last input once the stream ended.
    var unusedInput: Int { Int(stream.avail_in) }

    /// Feeds `input`, calling `sink` with each decoded chunk. Stops at the stream's end.
    func inflate(_ input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer,
                 sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(input.count)
        while !finished {
            stream.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
            stream.avail_out = UInt32(output.count)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            let produced = output.count - Int(stream.avail_out)
            if produced > 0 { try sink(UnsafeRawBufferPointer(rebasing: output[0 ..< produced])) }
            switch status {
            case Z_STREAM_END:
                finished = true
            case Z_OK:
                if stream.avail_in == 0 && stream.avail_out > 0 { return }
            case Z_BUF_ERROR:
                return
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "status \(status)"
                throw GalleryError(.corruptDeflate, "the deflate data is corrupt", location: Location(entry: entry),
                                   cause: message)
            }
        }
    }
}
