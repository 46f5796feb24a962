internal import CZlib

/// Raw DEFLATE (no zlib header), as ZIP method 8 stores it.
enum Deflate {
    /// Compresses in memory; only used for `manifest.json`, whose size is bounded.
    static func compress(_ input: [UInt8], level: Int32, context: String) throws -> [UInt8] {
        var stream = z_stream()
        // windowBits -15: raw deflate; memLevel 8 and the default strategy, as zlib's own defaults,
        // so other implementations with the same zlib produce the same bytes.
        guard deflateInit2_(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw GalleryError(.corruptDeflate, "zlib could not start a deflate stream", location: Location(entry: context)) }
        defer { deflateEnd(&stream) }
        // Room for the worst case, but only the pages written are touched (a 37 MB manifest
        // deflates to a fifth of that), and the input is read in place (zlib never writes to
        // it): a zeroed output and a copy of the input were 70 MB at the height of a save.
        let bound = Int(deflateBound(&stream, UInt(input.count))) + 16
        var status: Int32 = Z_OK
        let output = [UInt8](unsafeUninitializedCapacity: bound) { outBuffer, written in
            status = input.withUnsafeBufferPointer { inBuffer in
                stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
                stream.avail_in = UInt32(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = UInt32(outBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
            written = status == Z_STREAM_END ? Int(stream.total_out) : 0
        }
        guard status == Z_STREAM_END else {
            throw GalleryError(.corruptDeflate, "zlib could not compress the entry (status \(status))",
                               location: Location(entry: context))
        }
        return output
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
