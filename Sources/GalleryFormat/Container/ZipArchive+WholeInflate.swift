internal import CDeflate
internal import GallerySystem

extension ZipArchive {
    /// Inflates a deflated entry whole into `output` (exactly its declared size) by one call of
    /// libdeflate, and checks it as `read(_:sink:)` does: the sizes, the stream's end, the
    /// CRC-32, the data descriptor. False for a stored entry, and whenever anything is amiss:
    /// the streaming read then reads the entry again and says what is wrong, in its own words.
    ///
    /// Only for an entry the caller reads whole anyway, of a bounded size: zlib inflates in
    /// pieces, as it streams, and takes two thirds longer over the 3.7 MB manifest of 10,000
    /// photos (5.3 against 3.1 ms; Benchmarks/RESULTS.md, ac.3.8).
    func inflateWhole(_ entry: ZipEntry, into output: UnsafeMutableRawBufferPointer) -> Bool {
        // A sound deflate stream is never much larger than what it inflates to (stored blocks
        // cost 5 bytes in 65,535); a longer one is left to the streaming read.
        guard entry.method == .deflated, entry.uncompressedSize > 0, output.count == Int(entry.uncompressedSize),
              entry.compressedSize <= entry.uncompressedSize + entry.uncompressedSize / 1024 + 64,
              let local = try? localHeader(of: entry),
              let compressed = try? file.readUninitialized(at: local.dataOffset, count: Int(entry.compressedSize)),
              compressed.count == Int(entry.compressedSize),
              let decompressor = libdeflate_alloc_decompressor()
        else { return false }
        defer { libdeflate_free_decompressor(decompressor) }
        var used = 0
        var produced = 0
        let result = compressed.withUnsafeBytes { input in
            libdeflate_deflate_decompress_ex(decompressor, input.baseAddress, input.count,
                                             output.baseAddress, output.count, &used, &produced)
        }
        guard result == LIBDEFLATE_SUCCESS, used == compressed.count, produced == output.count else { return false }
        var crc = CRC32()
        crc.update(UnsafeRawBufferPointer(output))
        guard crc.value == entry.crc32 else { return false }
        if entry.usesDataDescriptor {
            guard (try? checkDataDescriptor(entry, at: local.dataOffset + entry.compressedSize)) != nil else { return false }
        }
        return true
    }

    /// A deflated entry inflated whole (`inflateWhole`), or nil.
    func inflatedWhole(_ entry: ZipEntry) -> [UInt8]? {
        var sound = false
        let inflated = [UInt8](unsafeUninitializedCapacity: Int(entry.uncompressedSize)) { output, count in
            guard inflateWhole(entry, into: UnsafeMutableRawBufferPointer(output)) else { return }
            count = output.count
            sound = true
        }
        return sound ? inflated : nil
    }
}
