extension GIFDecoder {
    /// The first frame's LZW (GIF89a, appendix F), decoded here rather than by giflib's
    /// `DGifGetLine`: on a grain GIF, giflib's LZW was most of the decoding thread and slower
    /// than libnsgif's in vipsthumbnail (RESULTS ac.4.1). giflib still reads every record up to
    /// the frame's data; this reads the data's sub-blocks where they lie in the file.
    ///
    /// Each table entry keeps its length and its first index, so a code's string is written
    /// straight into the row, last byte first, along its prefixes; one that runs past the row
    /// waits in `pending` for the next. Codes, widths and the full table (no entry past 4,095,
    /// codes kept at 12 bits until a clear) follow giflib's reading, so a valid stream gives its
    /// indices. A stream giflib reads as garbage is an error here: a code past the next entry,
    /// a string code before any root, an end code or the data's end before the last row.
    final class LZW {
        private let data: UnsafeRawBufferPointer
        private var at: Int
        /// Bytes left in the sub-block being read.
        private var blockLeft = 0
        private var bits: UInt64 = 0
        private var bitCount = 0
        private let rootBits: Int
        private var codeBits: Int
        private let clear: Int
        private var next: Int
        private var previous = -1
        // Entry `code`'s string is entry `prefix[code]`'s string followed by `suffix[code]`;
        // it is `length[code]` long and begins with `first[code]`.
        private let prefix = UnsafeMutablePointer<UInt16>.allocate(capacity: 4096)
        private let suffix = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
        private let first = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
        private let length = UnsafeMutablePointer<UInt16>.allocate(capacity: 4096)
        /// The rest of a string that ran past the last row, from `pendingAt` to its end.
        private let pending = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
        private var pendingAt = 0, pendingEnd = 0

        /// The stream whose first sub-block begins at `offset` of `data`, coded with roots of
        /// `rootBits` bits (the byte before it; giflib has refused 12 and more).
        init(_ data: UnsafeRawBufferPointer, from offset: Int, rootBits: Int) throws {
            guard (0 ... 11).contains(rootBits), offset <= data.count else {
                throw ImageDecodeError(.corrupt, "the GIF's first image has an LZW code size of \(rootBits)")
            }
            self.data = data
            at = offset
            self.rootBits = rootBits
            clear = 1 << rootBits
            codeBits = rootBits + 1
            next = clear + 2
            for root in 0 ..< clear {
                suffix[root] = UInt8(truncatingIfNeeded: root)
                first[root] = UInt8(truncatingIfNeeded: root)
                length[root] = 1
            }
        }

        deinit {
            for table in [prefix, length] { table.deallocate() }
            for table in [suffix, first, pending] { table.deallocate() }
        }

        private static func damaged(_ what: String) -> ImageDecodeError {
            ImageDecodeError(.corrupt, "the GIF's first image's data \(what)")
        }

        /// Fills `row` with the next indices. The state is worked on in locals, written back
        /// once: stores through `out` would otherwise make every field a reload.
        func fill(_ row: UnsafeMutableBufferPointer<UInt8>) throws {
            guard var out = row.baseAddress else { return }
            var left = row.count
            if pendingAt < pendingEnd {
                let taken = min(left, pendingEnd - pendingAt)
                out.update(from: pending + pendingAt, count: taken)
                (pendingAt, out, left) = (pendingAt + taken, out + taken, left - taken)
            }
            let (data, prefix, suffix, first, length, clear) = (data, prefix, suffix, first, length, clear)
            var (at, blockLeft, bits, bitCount) = (at, blockLeft, bits, bitCount)
            var (codeBits, next, previous) = (codeBits, next, previous)
            defer {
                (self.at, self.blockLeft, self.bits, self.bitCount) = (at, blockLeft, bits, bitCount)
                (self.codeBits, self.next, self.previous) = (codeBits, next, previous)
            }
            while left > 0 {
                if bitCount < codeBits {
                    // Seven bytes at once where the sub-block has them, else a byte at a time.
                    if blockLeft >= 8, data.count - at >= 8 {
                        let taken = (63 - bitCount) >> 3
                        let word = UInt64(littleEndian: data.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                        bits |= (word & ((1 << UInt64(taken * 8)) - 1)) << UInt64(bitCount)
                        (at, blockLeft, bitCount) = (at + taken, blockLeft - taken, bitCount + taken * 8)
                    } else {
                        while bitCount < codeBits {
                            if blockLeft == 0 {
                                guard at < data.count else { throw Self.damaged("ends before its last row") }
                                (blockLeft, at) = (Int(data[at]), at + 1)
                                guard blockLeft > 0 else { throw Self.damaged("ends before its last row") }
                            }
                            guard at < data.count else { throw Self.damaged("ends before its last row") }
                            bits |= UInt64(data[at]) << UInt64(bitCount)
                            (at, blockLeft, bitCount) = (at + 1, blockLeft - 1, bitCount + 8)
                        }
                    }
                }
                let code = Int(bits & ((1 << UInt64(codeBits)) - 1))
                bits >>= UInt64(codeBits)
                bitCount -= codeBits
                if code == clear {
                    (codeBits, next, previous) = (rootBits + 1, clear + 2, -1)
                    continue
                }
                guard code != clear + 1 else { throw Self.damaged("ends (an end code) before its last row") }
                if previous < 0 {
                    guard code < clear else { throw Self.damaged("begins with string \(code) before any colour") }
                } else if next < 4096 {
                    guard code <= next else { throw Self.damaged("has code \(code) past the table's \(next)") }
                    // code == next: the string just added, the previous one and its first index.
                    prefix[next] = UInt16(previous)
                    suffix[next] = code < next ? first[code] : first[previous]
                    first[next] = first[previous]
                    length[next] = length[previous] + 1
                    next += 1
                } else {
                    guard code < next else { throw Self.damaged("has code \(code) past the table's \(next)") }
                }
                // giflib widens the codes as it reads them, also on a clear's first code.
                if next >= 1 << codeBits, codeBits < 12 { codeBits += 1 }
                previous = code
                let count = Int(length[code])
                // The string, last index first, into the row, or past its end into `pending`.
                let target = count <= left ? out : pending
                var (string, place) = (code, count - 1)
                while place > 0 {
                    target[place] = suffix[string]
                    (string, place) = (Int(prefix[string]), place - 1)
                }
                target[0] = suffix[string]
                if count <= left {
                    (out, left) = (out + count, left - count)
                } else {
                    out.update(from: pending, count: left)
                    (pendingAt, pendingEnd, left) = (left, count, 0)
                }
            }
        }

        /// Reads past the frame's remaining sub-blocks to its terminator, as giflib does after
        /// the last row: data that ends first is damage.
        func finish() throws {
            at += blockLeft
            blockLeft = 0
            while true {
                guard at < data.count else { throw Self.damaged("ends without its terminator") }
                let size = Int(data[at])
                at += 1 + size
                if size == 0 { return }
            }
        }
    }
}
