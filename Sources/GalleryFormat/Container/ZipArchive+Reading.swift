import func Glibc.memcmp

/// Reading entry data, with the local header, the sizes and the CRC checked on the way.
extension ZipArchive {
    /// Where an entry's data starts, after checking its local header against the central directory.
    public func dataOffset(of entry: ZipEntry) throws -> UInt64 {
        try localHeader(of: entry).dataOffset
    }

    struct CheckedLocalHeader {
        var header: LocalFileHeader
        var dataOffset: UInt64
        var extra: [UInt8]
    }

    func localHeader(of entry: ZipEntry) throws -> CheckedLocalHeader {
        try localHeader(of: entry) { ArraySlice(try file.read(at: $0, count: $1)) }
    }

    /// How much of a local header is read first: the fixed part, the name the central directory
    /// gives and room for a modest extra field, so that the usual header takes one read. Every
    /// reader reads every local header (scanLayout).
    static func firstHeaderRead(nameLength: Int) -> Int { LocalFileHeader.size + nameLength + 64 }

    /// `read` gives what `file.read(at:count:)` would: the scan of every header passes one that
    /// serves neighbouring headers from a shared read (`HeaderWindow`). A slice, so that bytes
    /// already held are lent rather than copied: an array made for each of 10,000 headers was a
    /// tenth of the header scan's instructions.
    func localHeader(of entry: ZipEntry, read: (UInt64, Int) throws -> ArraySlice<UInt8>) throws -> CheckedLocalHeader {
        let offset = entry.localHeaderOffset
        // Made only for an error: the file's name is a String made from its path.
        var here: Location { location(entry) }
        let head = try read(offset, Self.firstHeaderRead(nameLength: entry.nameLength))
        guard head.count >= LocalFileHeader.size else {
            throw GalleryError(.truncated, "the local header runs past the end of the file", location: here)
        }
        guard let header = head.withUnsafeBytes({ LocalFileHeader($0) }) else {
            throw GalleryError(.headerMismatch, "no local file header where the central directory points", location: here)
        }
        let variableCount = Int(header.nameLength) + Int(header.extraLength)
        let bytes = LocalFileHeader.size + variableCount <= head.count
            ? head
            : ArraySlice(Array(head.prefix(LocalFileHeader.size))
                + (try read(offset.addingSaturating(UInt64(LocalFileHeader.size)), variableCount)))
        guard bytes.count >= LocalFileHeader.size + variableCount else {
            throw GalleryError(.truncated, "the local header's name and extra field run past the end of the file",
                               location: here)
        }
        let nameEnd = LocalFileHeader.size + Int(header.nameLength)
        let extra = Array(bytes.dropFirst(nameEnd).prefix(Int(header.extraLength)))
        func mismatch(_ what: String) -> GalleryError {
            GalleryError(.headerMismatch, "the local header's \(what) differs from the central directory's", location: here)
        }
        var name = entry.name
        // memcmp: the generic elementsEqual over an ArraySlice took a twentieth of opening a
        // 10,000-image gallery, on the thread that waits for nothing else.
        let sameName = name.withUTF8 { wanted in
            wanted.count == Int(header.nameLength) && bytes.withUnsafeBytes { found in
                wanted.isEmpty || memcmp(wanted.baseAddress!, found.baseAddress! + LocalFileHeader.size, wanted.count) == 0
            }
        }
        guard sameName else { throw mismatch("name") }
        guard header.method == entry.method.rawValue else { throw mismatch("compression method") }
        guard header.flags & (ZipFlag.encrypted | ZipFlag.strongEncryption) == 0 else {
            throw GalleryError(.encrypted, "the local header marks the entry encrypted", location: here)
        }
        guard header.flags == entry.flags else {
            throw mismatch("general-purpose flags (\(hex16(header.flags)) against \(hex16(entry.flags)))")
        }
        if header.flags & ZipFlag.dataDescriptor == 0 {
            guard header.crc32 == entry.crc32 else { throw mismatch("CRC-32") }
            var compressed = UInt64(header.compressedSize)
            var uncompressed = UInt64(header.uncompressedSize)
            if compressed == ZipLimit.max32 || uncompressed == ZipLimit.max32 {
                let wide = extra.withUnsafeBytes {
                    Self.zip64Fields(in: $0, uncompressed: uncompressed == ZipLimit.max32,
                                     compressed: compressed == ZipLimit.max32, offset: false)
                }
                guard let wide else { throw mismatch("ZIP64 sizes") }
                // In a local header both sizes are present once either overflows.
                compressed = wide.compressed ?? compressed
                uncompressed = wide.uncompressed ?? uncompressed
            }
            guard compressed == entry.compressedSize else { throw mismatch("compressed size") }
            guard uncompressed == entry.uncompressedSize else { throw mismatch("uncompressed size") }
        }
        let dataOffset = offset.addingSaturating(UInt64(LocalFileHeader.size + variableCount))
        let (dataEnd, overflow) = dataOffset.addingReportingOverflow(entry.compressedSize)
        guard !overflow, dataEnd <= fileSize else {
            throw GalleryError(.truncated, "the entry's data runs past the end of the file", location: here)
        }
        guard dataEnd <= centralDirectoryOffset else {
            throw GalleryError(.overlappingEntries, "the entry's data reaches into the central directory", location: here)
        }
        return CheckedLocalHeader(header: header, dataOffset: dataOffset, extra: extra)
    }

    /// Streams an entry's uncompressed bytes to `sink` in chunks. Throws, after the last chunk,
    /// if the size or the CRC-32 differs from the central directory's.
    public func read(_ entry: ZipEntry, sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        do {
            try readUnplaced(entry, sink: sink)
        } catch let error as GalleryError {
            // Lower layers know the entry; the file is added here, once.
            throw error.inFile(file.path)
        }
    }

    private func readUnplaced(_ entry: ZipEntry, sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        let local = try localHeader(of: entry)
        let here = location(entry, offset: local.dataOffset)
        var crc = CRC32()
        var produced: UInt64 = 0
        // 256 KiB stays in L2 while the caller hashes the chunk after our CRC.
        let chunkSize = Int(min(entry.compressedSize, 256 << 10))
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 1), alignment: 64)
        defer { input.deallocate() }

        switch entry.method {
        case .stored:
            var offset: UInt64 = 0
            while offset < entry.compressedSize {
                let want = Int(min(UInt64(chunkSize), entry.compressedSize - offset))
                let got = try file.read(at: local.dataOffset + offset, into: UnsafeMutableRawBufferPointer(rebasing: input[0 ..< want]))
                guard got == want else {
                    throw GalleryError(.truncated, "the entry's data ends early", location: here)
                }
                let chunk = UnsafeRawBufferPointer(rebasing: input[0 ..< got])
                crc.update(chunk)
                try sink(chunk)
                offset += UInt64(got)
            }
            produced = offset
        case .deflated:
            let inflater = try Inflater(entry: entry.name)
            let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 64)
            defer { output.deallocate() }
            var offset: UInt64 = 0
            while offset < entry.compressedSize, !inflater.finished {
                let want = Int(min(UInt64(chunkSize), entry.compressedSize - offset))
                let got = try file.read(at: local.dataOffset + offset, into: UnsafeMutableRawBufferPointer(rebasing: input[0 ..< want]))
                guard got == want else { throw GalleryError(.truncated, "the entry's data ends early", location: here) }
                try inflater.inflate(UnsafeRawBufferPointer(rebasing: input[0 ..< got]), output: output) { chunk in
                    produced += UInt64(chunk.count)
                    // Never trust the stream to stop: refuse anything past the declared size.
                    guard produced <= entry.uncompressedSize else {
                        throw GalleryError(.sizeMismatch, "the entry inflates to more than its declared "
                                           + "\(entry.uncompressedSize) bytes", location: here)
                    }
                    crc.update(chunk)
                    try sink(chunk)
                }
                offset += UInt64(got)
            }
            guard inflater.finished else {
                throw GalleryError(.corruptDeflate, "the deflate stream does not end within the entry's "
                                   + "\(entry.compressedSize) bytes", location: here)
            }
            if offset - UInt64(inflater.unusedInput) != entry.compressedSize {
                throw GalleryError(.sizeMismatch, "the deflate stream ends \(entry.compressedSize - (offset - UInt64(inflater.unusedInput))) "
                                   + "bytes before the entry's declared compressed size", location: here)
            }
        }
        guard produced == entry.uncompressedSize else {
            throw GalleryError(.sizeMismatch, "the entry holds \(produced) bytes, not the declared \(entry.uncompressedSize)",
                               location: here)
        }
        guard crc.value == entry.crc32 else {
            throw GalleryError(.crcMismatch, "CRC-32 is \(hex32(crc.value)), the central directory says \(hex32(entry.crc32))",
                               location: here)
        }
        if entry.usesDataDescriptor {
            try checkDataDescriptor(entry, at: local.dataOffset + entry.compressedSize)
        }
    }

    /// Positional reads of a stored entry's bytes, straight from the file: `read(offset, count)`
    /// gives up to `count` bytes (fewer at the end). Nil for a compressed entry.
    public func storedBytes(of entry: ZipEntry) throws -> ((UInt64, Int) throws -> [UInt8])? {
        guard entry.method == .stored else { return nil }
        let start = try dataOffset(of: entry)
        let size = entry.uncompressedSize
        return { [file] offset, count in
            guard offset < size else { return [] }
            return try file.read(at: start + offset, count: Int(min(UInt64(count), size - offset)))
        }
    }

    /// Reads a whole entry into memory, refusing one larger than `limit` bytes.
    public func readAll(_ entry: ZipEntry, limit: Int) throws -> [UInt8] {
        guard entry.uncompressedSize <= UInt64(limit) else {
            throw GalleryError(.zipBomb, "the entry declares \(entry.uncompressedSize) bytes; at most \(limit) are read",
                               location: location(entry))
        }
        if let whole = inflatedWhole(entry) { return whole }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(entry.uncompressedSize))
        try read(entry) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Reads every local header in file order, checking each against the central directory,
    /// and classifies the bytes that no entry accounts for (`unreferencedBytes(from:to:before:)`).
    /// Throws the first error; returns the warnings. Costs one small read per entry, plus a read
    /// of any unreferenced bytes: every reader runs it, so that a reader walking local headers
    /// from the front (a streaming reader) can never be shown another gallery.
    public func scanLayout() throws -> [GalleryError] {
        let found = openingLayout.withLock { $0 } ?? layoutDiagnostics()
        if let error = found.first(where: { $0.severity >= .error }) { throw error }
        return found
    }

    /// Like `scanLayout()`, but carries on past each entry's problem, reporting them all.
    public func layoutDiagnostics() -> [GalleryError] { layoutDiagnostics(held: nil) }

    /// `layoutDiagnostics()`, lent the local headers already read (`HeaderPrefetch`).
    func layoutDiagnostics(held: PrefetchedHeaders?) -> [GalleryError] {
        var found = warnings
        var expected: UInt64 = 0
        // Where a condemned entry ends is not known (its local extra field, its descriptor):
        // the bytes after it are not judged, and the file is refused for the entry already.
        var afterCondemned = false
        let ordered = entries.isInFileOrder ? entries : entries.sorted(by: { $0.localHeaderOffset < $1.localHeaderOffset })
        let extents = entryExtents(ordered, held: held)
        var failures = extents.failures.makeIterator()
        var failure = failures.next()
        for (position, entry) in ordered.enumerated() {
            // Bytes before the first entry are prepended data, reported as such (IG-PKG-017).
            if entry.localHeaderOffset > expected, expected > 0, !afterCondemned {
                found.append(unreferencedBytes(from: expected, to: entry.localHeaderOffset, before: entry))
            }
            afterCondemned = entry.hasProblem
            // An entry the central directory condemned was reported there; only its extent counts.
            if entry.hasProblem {
                expected = max(expected, entry.localHeaderOffset.addingSaturating(entry.minimumExtent))
                continue
            }
            guard let failed = failure, failed.position == position else {
                expected = max(expected, extents.ends[position])
                continue
            }
            failure = failures.next()
            if let error = failed.error as? GalleryError {
                found.append(error.inFile(file.path))
            } else {
                found.append(GalleryError(.truncated, "the local header could not be read", location: location(entry),
                                          underlying: failed.error))
            }
            expected = max(expected, entry.localHeaderOffset.addingSaturating(entry.minimumExtent))
        }
        if centralDirectoryOffset > expected, !afterCondemned {
            found.append(unreferencedBytes(from: expected, to: centralDirectoryOffset, before: nil))
        }
        return found
    }

    /// Judges bytes that no entry accounts for, from where a streaming reader would see them.
    ///
    /// A reader that walks local headers from the front (libarchive on a pipe, Java's
    /// `ZipInputStream`, upload scanners) takes whatever local header it meets for an entry, so
    /// a local header signature anywhere in these bytes could show it another gallery
    /// (IG-PKG-031). Between two entries, any bytes at all make the views differ: one such reader
    /// stops there and misses the later entries, another searches on for a signature
    /// (IG-PKG-032). After the last entry, bytes with no signature are harmless to both kinds,
    /// which stop there or at the central directory having seen every entry: a warning
    /// (IG-PKG-025).
    func unreferencedBytes(from start: UInt64, to end: UInt64, before entry: ZipEntry?) -> GalleryError {
        let count = end - start
        let place = Location(file: file.path, entry: entry?.name, offset: start)
        let followed = entry.map { "before the entry \($0.name)" } ?? "between the last entry and the central directory"
        do {
            if let signature = try firstLocalHeaderSignature(from: start, to: end) {
                return GalleryError(.hiddenLocalHeader, "\(count) bytes \(followed) belong to no entry and hold a local "
                                    + "file header at offset \(signature), which a streaming reader would take for an entry",
                                    location: Location(file: file.path, entry: entry?.name, offset: signature))
            }
        } catch let error as GalleryError {
            return error.inFile(file.path)
        } catch {
            return GalleryError(.truncated, "unreferenced bytes could not be read", location: place, underlying: error)
        }
        if entry != nil {
            return GalleryError(.bytesBetweenEntries, "\(count) bytes \(followed) belong to no entry: a streaming "
                                + "reader would stop there and miss the entries after them", location: place)
        }
        return GalleryError(.hiddenData, "\(count) bytes \(followed) belong to no entry", location: place)
    }

    /// The offset of the first `PK\u{3}\u{4}` in `start ..< end`, read in chunks that overlap
    /// by three bytes, so that a signature across two chunks is found.
    private func firstLocalHeaderSignature(from start: UInt64, to end: UInt64) throws -> UInt64? {
        let signature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
        var offset = start
        while true {
            let want = Int(min(UInt64(256 << 10), end - offset))
            let bytes = try file.readUninitialized(at: offset, count: want)
            guard bytes.count == want else {
                throw GalleryError(.truncated, "unreferenced bytes run past the end of the file",
                                   location: Location(file: file.path, offset: offset))
            }
            if let found = bytes.firstRange(of: signature) { return offset + UInt64(found.lowerBound) }
            guard offset + UInt64(want) < end else { return nil }
            offset += UInt64(want - (signature.count - 1))
        }
    }

    /// How long the data descriptor at `offset` is: with or without its signature, with
    /// 32-bit sizes or, for ZIP64 entries (a ZIP64 field in the local `extra`), 64-bit ones.
    func dataDescriptorLength(_ entry: ZipEntry, extra: [UInt8], at offset: UInt64) throws -> UInt64 {
        let head = try file.read(at: offset, count: 4)
        let signed = head.count == 4 && head.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self).littleEndian } == ZipSignature.dataDescriptor
        let wide = entry.compressedSize >= ZipLimit.max32 || entry.uncompressedSize >= ZipLimit.max32
            || extra.withUnsafeBytes {
                ZipArchive.zip64Fields(in: $0, uncompressed: true, compressed: true, offset: false)
            } != nil
        return (signed ? 4 : 0) + 4 + (wide ? 16 : 8)
    }

    /// The descriptor after the data must repeat the central directory's CRC and sizes.
    func checkDataDescriptor(_ entry: ZipEntry, at offset: UInt64) throws {
        let raw = try file.read(at: offset, count: 24)
        let here = location(entry, offset: offset)
        let matches: Bool = raw.withUnsafeBytes { bytes in
            var r = LittleEndianReader(bytes)
            guard bytes.count >= 12 else { return false }
            let hasSignature = r.u32() == ZipSignature.dataDescriptor
            if !hasSignature { r = LittleEndianReader(bytes) }
            guard r.remaining >= 12 else { return false }
            let crc = r.u32()
            guard crc == entry.crc32 else { return false }
            // 32-bit sizes, or 64-bit ones when the entry is ZIP64.
            if r.remaining >= 8 {
                var narrow = r
                if UInt64(narrow.u32()) == entry.compressedSize, UInt64(narrow.u32()) == entry.uncompressedSize { return true }
            }
            if r.remaining >= 16 {
                var wide = r
                if wide.u64() == entry.compressedSize, wide.u64() == entry.uncompressedSize { return true }
            }
            return false
        }
        guard matches else {
            throw GalleryError(.headerMismatch, "the data descriptor disagrees with the central directory", location: here)
        }
    }
}

func hex16(_ value: UInt16) -> String { "0x" + value.zeroPadded(toWidth: 4, radix: 16) }

func hex32(_ value: UInt32) -> String { "0x" + value.zeroPadded(toWidth: 8, radix: 16) }
