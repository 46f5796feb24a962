/// Widening a central directory record's sizes, offset and disk through its ZIP64 extra field.
extension ZipArchive {
    /// A central directory header's sizes, local header offset and starting disk, each taken from
    /// the ZIP64 extra where its classic field holds the marker (0xFFFFFFFF; 0xFFFF for the disk).
    struct CentralValues: Equatable {
        var uncompressed: UInt64
        var compressed: UInt64
        var localOffset: UInt64
        var diskStart: UInt32
    }

    /// The one widening of a central directory header, used by the quick scan and the full parse
    /// alike so that the two cannot disagree about an entry. Nil when a marker has no value behind
    /// it: no ZIP64 extra, one too short, or extra records that run past the extra field.
    /// Without a marker the extra field is not looked at (foreign extras are ignored, section 9.1).
    static func centralValues(of header: CentralFileHeader, extra: UnsafeRawBufferPointer) -> CentralValues? {
        var values = CentralValues(uncompressed: UInt64(header.uncompressedSize), compressed: UInt64(header.compressedSize),
                                   localOffset: UInt64(header.localHeaderOffset), diskStart: UInt32(header.diskNumberStart))
        let wideUncompressed = values.uncompressed == ZipLimit.max32
        let wideCompressed = values.compressed == ZipLimit.max32
        let wideOffset = values.localOffset == ZipLimit.max32
        let wideDisk = UInt64(header.diskNumberStart) == ZipLimit.max16
        guard wideUncompressed || wideCompressed || wideOffset || wideDisk else { return values }
        guard let wide = zip64Values(in: extra, uncompressed: wideUncompressed, compressed: wideCompressed,
                                     offset: wideOffset, diskStart: wideDisk)
        else { return nil }
        values.uncompressed = wide.uncompressed ?? values.uncompressed
        values.compressed = wide.compressed ?? values.compressed
        values.localOffset = wide.offset ?? values.localOffset
        values.diskStart = wide.diskStart ?? values.diskStart
        return values
    }

    /// Reads the ZIP64 extended information extra field (0x0001): only the fields whose
    /// classic value overflowed are present, in this order.
    static func zip64Fields(in extra: UnsafeRawBufferPointer, uncompressed: Bool, compressed: Bool, offset: Bool)
        -> (uncompressed: UInt64?, compressed: UInt64?, offset: UInt64?)? {
        zip64Values(in: extra, uncompressed: uncompressed, compressed: compressed, offset: offset, diskStart: false)
            .map { ($0.uncompressed, $0.compressed, $0.offset) }
    }

    /// The ZIP64 extra's values in APPNOTE 4.5.3's order: uncompressed size, compressed size,
    /// local header offset (8 bytes each), disk start (4 bytes), each present only when asked for.
    private static func zip64Values(in extra: UnsafeRawBufferPointer, uncompressed: Bool, compressed: Bool, offset: Bool,
                                    diskStart: Bool)
        -> (uncompressed: UInt64?, compressed: UInt64?, offset: UInt64?, diskStart: UInt32?)? {
        var reader = LittleEndianReader(extra)
        while reader.remaining >= 4 {
            let id = reader.u16()
            let length = Int(reader.u16())
            guard reader.remaining >= length else { return nil }
            guard id == ZipLimit.zip64ExtraID else { reader.skip(length); continue }
            var field = LittleEndianReader(reader.take(length))
            var result: (uncompressed: UInt64?, compressed: UInt64?, offset: UInt64?, diskStart: UInt32?) = (nil, nil, nil, nil)
            if uncompressed { guard field.remaining >= 8 else { return nil }; result.uncompressed = field.u64() }
            if compressed { guard field.remaining >= 8 else { return nil }; result.compressed = field.u64() }
            if offset { guard field.remaining >= 8 else { return nil }; result.offset = field.u64() }
            if diskStart { guard field.remaining >= 4 else { return nil }; result.diskStart = field.u32() }
            return result
        }
        return uncompressed || compressed || offset || diskStart ? nil : (nil, nil, nil, nil)
    }
}
