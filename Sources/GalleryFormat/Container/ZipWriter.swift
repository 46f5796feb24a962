package import GallerySystem

/// Writes a ZIP archive the way the spec's canonical form requires: no data descriptors,
/// no extra fields but ZIP64 where needed, fixed times and attributes, so that the same
/// content always gives the same bytes.
///
/// Entries are written in the order they are added. Blob data is streamed from its source in
/// chunks, with the CRC computed on the way and patched into the local header afterwards,
/// so memory use does not grow with the gallery. Package-wide for the other archives the toolkit
/// writes (CBZ comics), which gain the same determinism.
package final class ZipWriter {
    private let file: GalleryFile
    private let dateTime: DOSDateTime
    private var offset: UInt64 = 0
    private var pending: [UInt8] = []
    private var central: [UInt8] = []
    private var entryCount: UInt64 = 0
    private var needsZip64Archive = false

    /// Bytes buffered before a write; also the blob copy chunk.
    static let chunkSize = 1 << 20

    /// Where the next byte goes in the archive: what is on disk plus what is still buffered.
    /// Every offset recorded in a header is taken from here, never from `offset` alone.
    private var position: UInt64 { offset + UInt64(pending.count) }

    /// Whether to start write-back of each blob as soon as it is copied (for a save that
    /// will fsync: the final flush then has little left to do).
    private let startsWriteback: Bool
    /// Where the data not yet handed to write-back starts; it is handed over in batches of
    /// `writebackBatch`, fewer and larger requests than one per blob.
    private var writebackFrom: UInt64 = 0
    static let writebackBatch: UInt64 = 8 << 20

    /// Sizes and offsets from this value up use ZIP64. Always 0xFFFFFFFF in use; tests lower it
    /// to reach every ZIP64 path without writing 4 GiB.
    private let zip64Threshold: UInt64

    /// Every entry gets `modified` as its time, so the same entries give the same bytes.
    package convenience init(file: GalleryFile, modified: Timestamp) {
        self.init(file: file, modified: modified, startsWriteback: false, zip64Threshold: ZipLimit.max32)
    }

    init(file: GalleryFile, modified: Timestamp, startsWriteback: Bool = false, zip64Threshold: UInt64 = ZipLimit.max32) {
        self.file = file
        self.zip64Threshold = zip64Threshold
        self.startsWriteback = startsWriteback
        dateTime = DOSDateTime(modified)
        pending.reserveCapacity(Self.chunkSize)
    }

    /// Adds an entry whose bytes are in memory.
    package func add(name: String, bytes: [UInt8], method: CompressionMethod) throws {
        let crc = CRC32.of(bytes)
        let payload = method == .deflated ? try Deflate.compress(bytes, level: 6, context: name) : bytes
        let header = writeLocalHeader(name: name, method: method, crc: crc, compressedSize: UInt64(payload.count),
                                      uncompressedSize: UInt64(bytes.count))
        try append(payload)
        recordCentral(header)
    }

    /// Adds a STORED entry of exactly `size` bytes, which `produce` pushes into the sink it is
    /// given. The CRC is computed on the way and patched into the local header afterwards.
    package func addStored(
        name: String, size: UInt64,
        produce: (_ sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        var header = writeLocalHeader(name: name, method: .stored, crc: 0, compressedSize: size, uncompressedSize: size)
        try flush()
        var crc = CRC32()
        var copied: UInt64 = 0
        try produce { chunk in
            guard copied + UInt64(chunk.count) <= size else {
                throw GalleryError(.sizeMismatch, "the source grew while it was copied: more than \(size) bytes",
                                   location: Location(entry: name))
            }
            crc.update(chunk)
            try file.write(chunk, at: offset)
            offset += UInt64(chunk.count)
            copied += UInt64(chunk.count)
        }
        guard copied == size else {
            throw GalleryError(.sizeMismatch, "the source changed while it was copied: expected \(size) bytes, got \(copied)",
                               location: Location(entry: name))
        }
        // The CRC field sits 14 bytes into the local header.
        var crcBytes: [UInt8] = []
        crcBytes.appendLE(crc.value)
        try file.write(crcBytes, at: header.localOffset + 14)
        header.crc = crc.value
        recordCentral(header)
    }

    /// Adds a DEFLATED entry whose bytes `produce` pushes into the sink it is given, compressed
    /// and written as they come; the CRC and both sizes are patched into the local header
    /// afterwards. For the manifest (at most 64 MiB): an entry that reaches 4 GiB is refused.
    package func addDeflated(
        name: String,
        produce: (_ sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        var header = writeLocalHeader(name: name, method: .deflated, crc: 0, compressedSize: 0, uncompressedSize: 0)
        let deflater = PieceDeflater(level: 6, context: name)
        var crc = CRC32()
        var uncompressed: UInt64 = 0
        var compressed: UInt64 = 0
        let written: (UnsafeBufferPointer<UInt8>) throws -> Void = { piece in
            try self.append(Array(piece))
            compressed += UInt64(piece.count)
        }
        try produce { chunk in
            crc.update(chunk)
            uncompressed += UInt64(chunk.count)
            try deflater.compress(chunk, output: written)
        }
        try deflater.finish(output: written)
        guard compressed < zip64Threshold, uncompressed < zip64Threshold else {
            throw GalleryError(.sizeMismatch, "the entry reached \(uncompressed) bytes; a streamed entry stays under 4 GiB",
                               location: Location(entry: name))
        }
        // The CRC and the two sizes sit 14 bytes into the local header, one after another.
        try flush()
        var fields: [UInt8] = []
        fields.appendLE(crc.value)
        fields.appendLE(UInt32(compressed))
        fields.appendLE(UInt32(uncompressed))
        try file.write(fields, at: header.localOffset + 14)
        (header.crc, header.compressedSize, header.uncompressedSize) = (crc.value, compressed, uncompressed)
        recordCentral(header)
    }

    /// Adds a STORED entry whose CRC is already known; `place` copies the bytes into the file
    /// at the given offset and returns how many it copied.
    package func addStored(name: String, size: UInt64, crc32: UInt32,
                          place: (_ file: GalleryFile, _ offset: UInt64) throws -> UInt64) throws {
        let header = writeLocalHeader(name: name, method: .stored, crc: crc32, compressedSize: size, uncompressedSize: size)
        try flush()
        let copied = try place(file, offset)
        guard copied == size else {
            throw GalleryError(.sizeMismatch, "the source changed while it was copied: expected \(size) bytes, got \(copied)",
                               location: Location(entry: name))
        }
        offset += copied
        startWritebackIfDue()
        recordCentral(header)
    }

    /// Adds a STORED entry whose CRC is already known and whose bytes are at hand: buffered
    /// with its neighbours, so that small blobs cost one write per megabyte, not one each.
    package func addStored(name: String, crc32: UInt32, bytes: UnsafeRawBufferPointer) throws {
        let size = UInt64(bytes.count)
        let header = writeLocalHeader(name: name, method: .stored, crc: crc32, compressedSize: size, uncompressedSize: size)
        try append(bytes)
        recordCentral(header)
    }

    /// Writes the central directory and end records, then flushes.
    package func finish() throws {
        let centralOffset = position
        let centralSize = UInt64(central.count)
        try append(central)
        central = []
        let zip64 = needsZip64Archive || entryCount > ZipLimit.max16 || centralOffset >= zip64Threshold
            || centralSize >= zip64Threshold
        var tail: [UInt8] = []
        if zip64 {
            let recordOffset = position
            Zip64EndOfCentralDirectoryRecord(versionMadeBy: Self.madeBy(zip64: true), versionNeeded: 45,
                                             entries: entryCount, centralDirectorySize: centralSize,
                                             centralDirectoryOffset: centralOffset).serialize(into: &tail)
            Zip64Locator(recordOffset: recordOffset).serialize(into: &tail)
        }
        let count16 = UInt16(min(entryCount, ZipLimit.max16))
        EndOfCentralDirectoryRecord(entriesOnDisk: count16, totalEntries: count16,
                                    centralDirectorySize: centralSize >= zip64Threshold ? UInt32(ZipLimit.max32) : UInt32(centralSize),
                                    centralDirectoryOffset: centralOffset >= zip64Threshold ? UInt32(ZipLimit.max32) : UInt32(centralOffset))
            .serialize(into: &tail)
        try append(tail)
        try flush()
    }

    // MARK: - Records

    private struct PendingCentral {
        var name: [UInt8]
        var method: CompressionMethod
        var crc: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var localOffset: UInt64
    }

    private static func madeBy(zip64: Bool) -> UInt16 { 3 << 8 | (zip64 ? 45 : 20) }

    private func writeLocalHeader(name: String, method: CompressionMethod, crc: UInt32, compressedSize: UInt64,
                                  uncompressedSize: UInt64) -> PendingCentral {
        let nameBytes = Array(name.utf8)
        let zip64 = compressedSize >= zip64Threshold || uncompressedSize >= zip64Threshold
        var extra: [UInt8] = []
        if zip64 {
            extra.appendLE(ZipLimit.zip64ExtraID)
            extra.appendLE(UInt16(16))
            extra.appendLE(uncompressedSize)
            extra.appendLE(compressedSize)
        }
        var out: [UInt8] = []
        out.reserveCapacity(LocalFileHeader.size + nameBytes.count + extra.count)
        LocalFileHeader(
            versionNeeded: zip64 ? 45 : 20, flags: ZipFlag.utf8Names, method: method.rawValue,
            dosTime: dateTime.time, dosDate: dateTime.date, crc32: crc,
            compressedSize: zip64 ? UInt32(ZipLimit.max32) : UInt32(compressedSize),
            uncompressedSize: zip64 ? UInt32(ZipLimit.max32) : UInt32(uncompressedSize),
            nameLength: UInt16(nameBytes.count), extraLength: UInt16(extra.count)
        ).serialize(into: &out)
        out += nameBytes
        out += extra
        let localOffset = position
        pending += out
        return PendingCentral(name: nameBytes, method: method, crc: crc, compressedSize: compressedSize,
                              uncompressedSize: uncompressedSize, localOffset: localOffset)
    }

    private func recordCentral(_ entry: PendingCentral) {
        let sizes64 = entry.compressedSize >= zip64Threshold || entry.uncompressedSize >= zip64Threshold
        let offset64 = entry.localOffset >= zip64Threshold
        var extra: [UInt8] = []
        if sizes64 || offset64 {
            // APPNOTE 4.5.3: only the overflowing fields, in this order.
            var fields: [UInt8] = []
            if sizes64 {
                fields.appendLE(entry.uncompressedSize)
                fields.appendLE(entry.compressedSize)
            }
            if offset64 { fields.appendLE(entry.localOffset) }
            extra.appendLE(ZipLimit.zip64ExtraID)
            extra.appendLE(UInt16(fields.count))
            extra += fields
            needsZip64Archive = needsZip64Archive || offset64
        }
        let zip64 = !extra.isEmpty
        CentralFileHeader(
            versionMadeBy: Self.madeBy(zip64: zip64), versionNeeded: zip64 ? 45 : 20, flags: ZipFlag.utf8Names,
            method: entry.method.rawValue, dosTime: dateTime.time, dosDate: dateTime.date, crc32: entry.crc,
            compressedSize: sizes64 ? UInt32(ZipLimit.max32) : UInt32(entry.compressedSize),
            uncompressedSize: sizes64 ? UInt32(ZipLimit.max32) : UInt32(entry.uncompressedSize),
            nameLength: UInt16(entry.name.count), extraLength: UInt16(extra.count), commentLength: 0,
            diskNumberStart: 0, internalAttributes: 0, externalAttributes: UInt32(0o100644) << 16,
            localHeaderOffset: offset64 ? UInt32(ZipLimit.max32) : UInt32(entry.localOffset)
        ).serialize(into: &central)
        central += entry.name
        central += extra
        entryCount += 1
    }

    // MARK: - Output

    private func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try append($0) }
    }

    private func append(_ bytes: UnsafeRawBufferPointer) throws {
        if pending.count + bytes.count > Self.chunkSize { try flush() }
        if bytes.count >= Self.chunkSize {
            try file.write(bytes, at: offset)
            offset += UInt64(bytes.count)
            startWritebackIfDue()
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    private func flush() throws {
        guard !pending.isEmpty else { return }
        try file.write(pending, at: offset)
        offset += UInt64(pending.count)
        pending.removeAll(keepingCapacity: true)
        startWritebackIfDue()
    }

    /// Hands what was written since the last batch to write-back, once a batch has gathered.
    private func startWritebackIfDue() {
        guard startsWriteback, offset - writebackFrom >= Self.writebackBatch else { return }
        file.startWriteback(at: writebackFrom, count: offset - writebackFrom)
        writebackFrom = offset
    }
}

