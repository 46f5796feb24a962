import Foundation
import Dispatch
import Synchronization

/// A ZIP archive opened for reading by its central directory.
///
/// Opening reads the end records and the central directory only — never entry data — and
/// applies the structural checks that need nothing else: names, duplicates, methods,
/// encryption, overlapping extents, limits. Entry data is checked (local header, sizes,
/// CRC) as it is read.
public final class ZipArchive: Sendable {
    public let file: GalleryFile
    public let fileSize: UInt64
    public let entries: [ZipEntry]
    public let centralDirectoryOffset: UInt64
    public let centralDirectorySize: UInt64
    /// Warnings found while opening (hidden data after the entries, …).
    public let warnings: [GalleryError]
    /// Problems of single entries found while opening in collecting mode (a strict open
    /// throws the first instead). Those entries are in `entries` with `hasProblem` set.
    public let entryProblems: [GalleryError]
    public let limits: GalleryLimits
    private let index: [String: Int]
    /// `layoutDiagnostics()`, when it was found while opening (beside the manifest's read).
    let openingLayout = Mutex<[GalleryError]?>(nil)

    public convenience init(path: String, limits: GalleryLimits = .default) throws {
        try self.init(file: GalleryFile.openForReading(path), limits: limits)
    }

    public convenience init(file: GalleryFile, limits: GalleryLimits = .default) throws {
        try self.init(file: file, limits: limits, prefetching: nil, alongside: nil)
    }

    /// Opens for validation: problems of single entries (names, methods, duplicates, overlaps…)
    /// are collected in `entryProblems` instead of thrown; only damage that stops the central
    /// directory from being read is thrown.
    public convenience init(collectingProblemsOf file: GalleryFile, limits: GalleryLimits = .default) throws {
        try self.init(file: file, limits: limits, prefetching: nil, alongside: nil, collecting: true)
    }

    /// Opens the archive. When `prefetching` names an entry, a quick scan finds it in the
    /// central directory and `alongside` runs on another thread with a provisional archive
    /// (able to read entries, not to list them) while the full structural parse runs here.
    /// The caller must check that the entry it was given equals the one the parse found.
    init(file: GalleryFile, limits: GalleryLimits, prefetching name: String?,
         alongside: (@Sendable (ZipArchive, ZipEntry) -> Void)?, collecting: Bool = false) throws {
        self.file = file
        self.limits = limits
        let size = try file.size
        fileSize = size
        let layout = try Self.readEndRecords(file: file, size: size, limits: limits)
        centralDirectoryOffset = layout.centralOffset
        centralDirectorySize = layout.centralSize
        let directory = try file.readUninitialized(at: layout.centralOffset, count: Int(layout.centralSize))
        guard directory.count == Int(layout.centralSize) else {
            throw GalleryError(.truncated, "the central directory runs past the end of the file",
                               location: Location(file: file.path, offset: layout.centralOffset))
        }
        let background = DispatchGroup()
        if let name, let alongside, let found = directory.withUnsafeBytes({ Self.quickFind(name, in: $0, count: layout.entryCount) }) {
            let provisional = ZipArchive(provisional: file, size: size, layout: layout, limits: limits)
            DispatchQueue.global(qos: .userInitiated).async(group: background) { alongside(provisional, found) }
        }
        // The background work reads this file: never leave (or throw) before it is done.
        defer { background.wait() }
        var problems: [GalleryError] = []
        let report: (GalleryError) throws -> Void = collecting ? { problems.append($0) } : { throw $0 }
        let parsed = try directory.withUnsafeBytes {
            try Self.parseCentralDirectory($0, count: layout.entryCount, layout: layout, file: file, limits: limits,
                                           report: report)
        }
        var checked = parsed.entries
        try Self.checkExtents(&checked, centralOffset: layout.centralOffset, fileSize: size, path: file.path, report: report)
        entries = checked
        index = parsed.index
        warnings = layout.warnings
        entryProblems = problems
        // A reader checks every local header (`scanLayout()`): here, while the manifest is
        // still being read on the other core, so that the two costs overlap.
        if alongside != nil {
            let found = layoutDiagnostics()
            openingLayout.withLock { $0 = found }
        }
    }

    private init(provisional file: GalleryFile, size: UInt64, layout: Layout, limits: GalleryLimits) {
        self.file = file
        self.limits = limits
        fileSize = size
        centralDirectoryOffset = layout.centralOffset
        centralDirectorySize = layout.centralSize
        entries = []
        index = [:]
        warnings = []
        entryProblems = []
    }

    /// Finds the first central directory record named `name` by walking record lengths only.
    /// Anything odd returns nil: the full parse will say what is wrong.
    static func quickFind(_ name: String, in bytes: UnsafeRawBufferPointer, count: Int) -> ZipEntry? {
        let wanted = Array(name.utf8)
        var reader = LittleEndianReader(bytes)
        for position in 0 ..< count {
            guard let header = CentralFileHeader(&reader) else { return nil }
            let variable = Int(header.nameLength) + Int(header.extraLength) + Int(header.commentLength)
            guard reader.remaining >= variable else { return nil }
            let nameBytes = reader.take(Int(header.nameLength))
            let extra = reader.take(Int(header.extraLength))
            reader.skip(Int(header.commentLength))
            guard nameBytes.elementsEqual(wanted) else { continue }
            guard let method = CompressionMethod(rawValue: header.method),
                  let values = centralValues(of: header, extra: extra)
            else { return nil }
            return ZipEntry(name: name, index: position, method: method, flags: header.flags, crc32: header.crc32,
                            compressedSize: values.compressed, uncompressedSize: values.uncompressed,
                            localHeaderOffset: values.localOffset, isDirectory: false, nameLength: wanted.count)
        }
        return nil
    }

    public func entry(named name: String) -> ZipEntry? {
        guard let position = index[name] else { return nil }
        return entries[position]
    }

    func location(_ entry: ZipEntry, offset: UInt64? = nil) -> Location {
        Location(file: file.path, entry: entry.name, offset: offset ?? entry.localHeaderOffset)
    }
}

// MARK: - End records

extension ZipArchive {
    struct Layout {
        var entryCount: Int
        var centralOffset: UInt64
        var centralSize: UInt64
        var warnings: [GalleryError]
    }

    static func readEndRecords(file: GalleryFile, size: UInt64, limits: GalleryLimits) throws -> Layout {
        let path = file.path
        guard size > 0 else { throw GalleryError(.emptyFile, "the file is empty", location: Location(file: path)) }
        let tailLength = Int(min(size, UInt64(EndOfCentralDirectoryRecord.size + 0xFFFF + Zip64Locator.size)))
        let tailStart = size - UInt64(tailLength)
        let tail = try file.read(at: tailStart, count: tailLength)
        let startsLikeZip = try file.read(at: 0, count: 4) == [0x50, 0x4B, 0x03, 0x04]

        return try tail.withUnsafeBytes { bytes -> Layout in
            // The last signature whose comment length reaches exactly the end of the file: an
            // EOCD signature inside a comment does not fool this.
            var found: Int?
            var position = bytes.count - EndOfCentralDirectoryRecord.size
            while position >= 0 {
                if bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian
                    == ZipSignature.endOfCentralDirectory {
                    let commentLength = Int(bytes[position + 20]) | Int(bytes[position + 21]) << 8
                    if position + EndOfCentralDirectoryRecord.size + commentLength == bytes.count {
                        found = position
                        break
                    }
                }
                position -= 1
            }
            guard let eocdPosition = found else {
                if startsLikeZip {
                    throw GalleryError(.truncated, "the file starts as a ZIP archive but has no end record: it is truncated",
                                       location: Location(file: path, offset: size))
                }
                throw GalleryError(.notZip, "no ZIP end-of-central-directory record: this is not a ZIP archive",
                                   location: Location(file: path))
            }
            let eocdOffset = tailStart + UInt64(eocdPosition)
            let eocd = EndOfCentralDirectoryRecord(UnsafeRawBufferPointer(rebasing: bytes[eocdPosition...]))
            let eocdLocation = Location(file: path, offset: eocdOffset)
            guard eocd.diskNumber == 0, eocd.centralDirectoryDisk == 0, eocd.entriesOnDisk == eocd.totalEntries else {
                throw GalleryError(.badEndRecord, "the archive spans several disks (disk \(eocd.diskNumber), "
                                   + "central directory on disk \(eocd.centralDirectoryDisk))", location: eocdLocation)
            }

            var entryCount = UInt64(eocd.totalEntries)
            var centralSize = UInt64(eocd.centralDirectorySize)
            var centralOffset = UInt64(eocd.centralDirectoryOffset)
            var recordsStart = eocdOffset

            // ZIP64: a locator right before the EOCD.
            let locatorPosition = eocdPosition - Zip64Locator.size
            let hasLocator = locatorPosition >= 0
                && bytes.loadUnaligned(fromByteOffset: locatorPosition, as: UInt32.self).littleEndian == ZipSignature.zip64Locator
            if hasLocator {
                let locatorOffset = eocdOffset - UInt64(Zip64Locator.size)
                let locator = Zip64Locator(UnsafeRawBufferPointer(rebasing: bytes[locatorPosition...]))!
                let locatorLocation = Location(file: path, offset: locatorOffset)
                guard locator.recordDisk == 0, locator.totalDisks <= 1 else {
                    throw GalleryError(.badZip64Record, "the ZIP64 locator names another disk", location: locatorLocation)
                }
                guard locator.recordOffset <= locatorOffset - UInt64(min(locatorOffset, UInt64(Zip64EndOfCentralDirectoryRecord.size))),
                      locatorOffset >= UInt64(Zip64EndOfCentralDirectoryRecord.size)
                else {
                    throw GalleryError(.badZip64Record, "the ZIP64 locator points at offset \(locator.recordOffset), "
                                       + "which leaves no room for the ZIP64 end record", location: locatorLocation)
                }
                let raw = try file.read(at: locator.recordOffset, count: Zip64EndOfCentralDirectoryRecord.size)
                guard let record = raw.withUnsafeBytes({ Zip64EndOfCentralDirectoryRecord($0) }) else {
                    throw GalleryError(.badZip64Record, "no ZIP64 end record where the locator points",
                                       location: Location(file: path, offset: locator.recordOffset))
                }
                let recordLocation = Location(file: path, offset: locator.recordOffset)
                // The record, as long as it says it is, must end before the locator.
                guard record.recordSize <= locatorOffset - locator.recordOffset - 12 else {
                    throw GalleryError(.badZip64Record, "the ZIP64 end record says it is \(record.recordSize) bytes long "
                                       + "after its first 12, past the locator", location: recordLocation)
                }
                guard record.diskNumber == 0, record.centralDirectoryDisk == 0,
                      record.entriesOnDisk == record.totalEntries
                else { throw GalleryError(.badZip64Record, "the ZIP64 end record spans several disks", location: recordLocation) }
                // The classic fields must agree with the ZIP64 ones, or hold the "see ZIP64" marker.
                func agrees(_ classic: UInt64, _ wide: UInt64, _ marker: UInt64) -> Bool { classic == marker || classic == wide }
                guard agrees(entryCount, record.totalEntries, ZipLimit.max16),
                      agrees(centralSize, record.centralDirectorySize, ZipLimit.max32),
                      agrees(centralOffset, record.centralDirectoryOffset, ZipLimit.max32)
                else {
                    throw GalleryError(.badZip64Record, "the ZIP64 end record disagrees with the classic end record",
                                       location: recordLocation)
                }
                entryCount = record.totalEntries
                centralSize = record.centralDirectorySize
                centralOffset = record.centralDirectoryOffset
                recordsStart = locator.recordOffset
            } else if centralSize == ZipLimit.max32 || centralOffset == ZipLimit.max32 {
                throw GalleryError(.badZip64Record, "the end record refers to ZIP64 values but there is no ZIP64 locator",
                                   location: eocdLocation)
            }

            guard entryCount <= UInt64(limits.maxEntries) else {
                throw GalleryError(.tooManyEntries, "the archive declares \(entryCount) entries; the limit is \(limits.maxEntries)",
                                   location: eocdLocation)
            }
            guard centralSize <= UInt64(limits.maxCentralDirectoryBytes) else {
                throw GalleryError(.tooManyEntries, "the central directory is \(centralSize) bytes; the limit is "
                                   + "\(limits.maxCentralDirectoryBytes)", location: eocdLocation)
            }
            let (centralEnd, overflow) = centralOffset.addingReportingOverflow(centralSize)
            guard !overflow, centralEnd <= recordsStart else {
                throw GalleryError(.badEndRecord, "the central directory (offset \(centralOffset), \(centralSize) bytes) "
                                   + "reaches past the end records at \(recordsStart)", location: eocdLocation)
            }
            guard entryCount * UInt64(CentralFileHeader.size) <= centralSize else {
                throw GalleryError(.badEndRecord, "\(entryCount) entries cannot fit in a \(centralSize)-byte central directory",
                                   location: eocdLocation)
            }
            var warnings: [GalleryError] = []
            if centralEnd < recordsStart {
                let gap = recordsStart - centralEnd
                if !startsLikeZip {
                    // A stub before the archive shifts everything: the declared offsets no longer match.
                    throw GalleryError(.prependedData, "\(gap) bytes precede the archive (a prepended stub or "
                                       + "self-extractor); the declared offsets do not fit the file",
                                       location: Location(file: path, offset: 0))
                }
                warnings.append(GalleryError(.hiddenData, "\(gap) bytes lie between the central directory and the end records",
                                             location: Location(file: path, offset: centralEnd)))
            }
            return Layout(entryCount: Int(entryCount), centralOffset: centralOffset, centralSize: centralSize,
                          warnings: warnings)
        }
    }
}

// MARK: - Central directory

extension ZipArchive {
    static func parseCentralDirectory(
        _ bytes: UnsafeRawBufferPointer, count: Int, layout: Layout, file: GalleryFile, limits: GalleryLimits,
        report: (GalleryError) throws -> Void = { throw $0 }
    ) throws -> (entries: [ZipEntry], index: [String: Int]) {
        let path = file.path
        var entries: [ZipEntry] = []
        entries.reserveCapacity(count)
        var index: [String: Int] = [:]
        index.reserveCapacity(count)
        var folded: [String: Int] = [:]
        var totalUncompressed: UInt64 = 0
        var reader = LittleEndianReader(bytes)

        for position in 0 ..< count {
            let recordOffset = layout.centralOffset + UInt64(reader.position)
            guard let header = CentralFileHeader(&reader) else {
                throw GalleryError(.badCentralEntry, "central directory entry \(position + 1) of \(count) has no valid "
                                   + "signature", location: Location(file: path, offset: recordOffset))
            }
            let variable = Int(header.nameLength) + Int(header.extraLength) + Int(header.commentLength)
            guard reader.remaining >= variable else {
                throw GalleryError(.badCentralEntry, "central directory entry \(position + 1) runs past the central directory",
                                   location: Location(file: path, offset: recordOffset))
            }
            let nameBytes = reader.take(Int(header.nameLength))
            let extra = reader.take(Int(header.extraLength))
            reader.skip(Int(header.commentLength))

            var hasProblem = false
            let name: String
            do {
                name = try checkedName(nameBytes, limits: limits, file: path, offset: recordOffset)
            } catch let error as GalleryError {
                try report(error)
                hasProblem = true
                name = String(decoding: nameBytes, as: UTF8.self)
            }
            // Built only when something is wrong: the success path must not pay for it.
            var place: Location { Location(file: path, entry: name, offset: recordOffset) }
            let nameLength = nameBytes.count

            // Sizes and offset, widened by a ZIP64 extra where the classic field holds the marker.
            guard let values = centralValues(of: header, extra: extra) else {
                throw GalleryError(.badCentralEntry, "the entry's sizes, offset or disk number need a ZIP64 extra field, "
                                   + "which is missing or too short", location: place)
            }
            let uncompressed = values.uncompressed
            let compressed = values.compressed
            let localOffset = values.localOffset

            var resolvedMethod = CompressionMethod.stored
            do {
                if header.flags & (ZipFlag.encrypted | ZipFlag.strongEncryption) != 0 {
                    throw GalleryError(.encrypted, "the entry is encrypted; galleries hold no encrypted entries", location: place)
                }
                guard let method = CompressionMethod(rawValue: header.method) else {
                    throw GalleryError(.unsupportedMethod, "compression method \(header.method) is not supported "
                                       + "(only 0, stored, and 8, deflated)", location: place)
                }
                resolvedMethod = method
                let isDirectory = name.hasSuffix("/")
                try checkFileType(header, isDirectory: isDirectory, size: uncompressed, location: place)

                if method == .stored, compressed != uncompressed {
                    throw GalleryError(.sizeMismatch, "a stored entry declares \(compressed) stored but \(uncompressed) "
                                       + "uncompressed bytes", location: place)
                }
                // A streaming reader can end such an entry only by searching its data for a
                // descriptor signature, which image bytes may hold: it would be shown other entries.
                if method == .stored, header.flags & ZipFlag.dataDescriptor != 0, name != GalleryPackage.mimetypeEntry {
                    throw GalleryError(.storedDataDescriptor, "a stored entry uses a data descriptor (flag bit 3): a "
                                       + "streaming reader cannot tell where its data ends", location: place)
                }
                if method == .deflated, uncompressed > limits.ratioFloorBytes,
                   uncompressed / max(compressed, 1) > limits.maxCompressionRatio {
                    throw GalleryError(.zipBomb, "the entry expands \(compressed) bytes to \(uncompressed): more than "
                                       + "\(limits.maxCompressionRatio):1", location: place)
                }

                if let earlier = index[name] {
                    // Swift compares strings by canonical equivalence: different bytes here means an NFC twin.
                    let same = entries[earlier].name.utf8.elementsEqual(UnsafeRawBufferPointer(nameBytes))
                    throw GalleryError(same ? .duplicateName : .confusableNames,
                                       same ? "the name occurs twice in the central directory (entries \(earlier + 1) and \(position + 1))"
                                            : "the name equals entry \(earlier + 1)'s after Unicode normalisation",
                                       location: place)
                }
                // Only a name with an uppercase letter or non-ASCII can fold onto another one; the
                // lowercase ASCII names a gallery uses are their own folded form. Full Unicode case
                // folding (section 4.3.4): ß is ss, ﬁ is fi, final ς is σ.
                let foldedName = nameBytes.allSatisfy({ $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) })
                    ? name : name.folding(options: .caseInsensitive, locale: nil)
                if foldedName != name, let earlier = index[foldedName] ?? folded[foldedName] {
                    throw GalleryError(.confusableNames, "the name differs from entry \(earlier + 1)'s \"\(entries[earlier].name)\" "
                                       + "only by letter case", location: place)
                }
                if let earlier = folded[name] {
                    throw GalleryError(.confusableNames, "the name differs from entry \(earlier + 1)'s \"\(entries[earlier].name)\" "
                                       + "only by letter case", location: place)
                }
                // An entry with a problem is listed but not indexed: lookups find only sound ones.
                if !hasProblem {
                    index[name] = position
                    if foldedName != name { folded[foldedName] = position }
                }
            } catch let error as GalleryError {
                try report(error)
                hasProblem = true
            }
            // The total bounds all the work that follows: past it nothing more is read.
            totalUncompressed = totalUncompressed.addingReportingOverflow(uncompressed).overflow
                ? .max : totalUncompressed + uncompressed
            if totalUncompressed > limits.maxTotalUncompressedBytes {
                throw GalleryError(.zipBomb, "the entries declare more than \(limits.maxTotalUncompressedBytes) bytes "
                                   + "in all", location: place)
            }
            let method = resolvedMethod
            entries.append(ZipEntry(
                name: name, index: position, method: method, flags: header.flags, crc32: header.crc32,
                compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: localOffset,
                isDirectory: name.hasSuffix("/"), nameLength: nameLength, hasProblem: hasProblem
            ))
        }
        guard reader.remaining == 0 else {
            throw GalleryError(.badEndRecord, "the central directory holds \(reader.remaining) bytes more than its "
                               + "\(count) entries", location: Location(file: path, offset: layout.centralOffset + UInt64(reader.position)))
        }
        return (entries, index)
    }

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

    /// Name rules: valid UTF-8, no control characters, relative, no `..`, no backslash or drive.
    static func checkedName(_ bytes: UnsafeRawBufferPointer, limits: GalleryLimits, file: String, offset: UInt64) throws -> String {
        if bytes.count <= limits.maxEntryNameBytes, let name = plainName(bytes) { return name }
        let location = Location(file: file, offset: offset)
        guard bytes.count <= limits.maxEntryNameBytes else {
            throw GalleryError(.nameTooLong, "an entry name is \(bytes.count) bytes long; the limit is "
                               + "\(limits.maxEntryNameBytes)", location: location)
        }
        guard !bytes.isEmpty else { throw GalleryError(.unsafeName, "an entry has an empty name", location: location) }
        guard let name = String(validating: bytes, as: UTF8.self) else {
            throw GalleryError(.badNameEncoding, "an entry name is not valid UTF-8", location: location)
        }
        var place = location
        place.entry = name
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F })
            || name.unicodeScalars.contains(where: { (0x80 ... 0x9F).contains($0.value) }) {
            throw GalleryError(.badNameEncoding, "the entry name contains NUL or control characters", location: place)
        }
        if bytes.contains(UInt8(ascii: "\\")) {
            throw GalleryError(.unsafeName, "the entry name contains a backslash", location: place)
        }
        if bytes.first == UInt8(ascii: "/") {
            throw GalleryError(.unsafeName, "the entry name is absolute", location: place)
        }
        if bytes.count >= 2, bytes[1] == UInt8(ascii: ":"), (bytes[0] | 0x20) >= 0x61, (bytes[0] | 0x20) <= 0x7A {
            throw GalleryError(.unsafeName, "the entry name starts with a drive letter", location: place)
        }
        var components = Array(bytes).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        if components.last?.isEmpty == true { components.removeLast() }  // a directory's trailing slash
        for component in components {
            if component.isEmpty {
                throw GalleryError(.unsafeName, "the entry name has an empty path component", location: place)
            }
            if component.elementsEqual([0x2E, 0x2E]) || component.elementsEqual([0x2E]) {
                throw GalleryError(.unsafeName, "the entry name has a \"\(String(decoding: component, as: UTF8.self))\" component",
                                   location: place)
            }
        }
        return name
    }

    /// The common case in one pass: lowercase ASCII letters, digits, `-`, `_`, single dots and
    /// single slashes, not starting with `/` or `.`. Anything else takes the full check.
    static func plainName(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard !bytes.isEmpty else { return nil }
        var previous: UInt8 = UInt8(ascii: "/")
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "-"),
                 UInt8(ascii: "_"):
                break
            case UInt8(ascii: "."), UInt8(ascii: "/"):
                if previous == UInt8(ascii: "/") || previous == UInt8(ascii: ".") { return nil }
            default:
                return nil
            }
            previous = byte
        }
        if previous == UInt8(ascii: ".") { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Unix file types from the external attributes; DOS attributes carry no links or devices.
    static func checkFileType(_ header: CentralFileHeader, isDirectory: Bool, size: UInt64, location: Location) throws {
        let host = header.versionMadeBy >> 8
        if host == 3 || host == 19 {  // Unix, OS X
            let mode = header.externalAttributes >> 16
            let type = mode & 0o170000
            switch type {
            case 0, 0o100000: break
            case 0o040000 where isDirectory: break
            case 0o120000:
                throw GalleryError(.notRegularFile, "the entry is a symbolic link", location: location)
            default:
                throw GalleryError(.notRegularFile, "the entry is not a regular file (mode \(String(mode, radix: 8)))",
                                   location: location)
            }
            if type == 0o040000, !isDirectory {
                throw GalleryError(.notRegularFile, "the entry is marked a directory but its name has no trailing slash",
                                   location: location)
            }
        }
        if isDirectory, size != 0 {
            throw GalleryError(.notRegularFile, "a directory entry holds \(size) bytes", location: location)
        }
    }

    /// No two entries may share bytes, and none may reach into the central directory.
    static func checkExtents(_ entries: inout [ZipEntry], centralOffset: UInt64, fileSize: UInt64, path: String,
                             report: (GalleryError) throws -> Void = { throw $0 }) throws {
        let ordered = entries.indices.sorted { entries[$0].localHeaderOffset < entries[$1].localHeaderOffset }
        if let first = ordered.first.map({ entries[$0] }), first.localHeaderOffset > 0 {
            try report(GalleryError(.prependedData, "\(first.localHeaderOffset) bytes precede the first entry",
                                    location: Location(file: path, entry: first.name, offset: 0)))
        }
        for (position, slot) in ordered.enumerated() {
            let entry = entries[slot]
            let (end, overflow) = entry.localHeaderOffset.addingReportingOverflow(entry.minimumExtent)
            if overflow || end > fileSize {
                entries[slot].hasProblem = true
                try report(GalleryError(.truncated, "the entry's local header and data (\(entry.minimumExtent) bytes at "
                                   + "\(entry.localHeaderOffset)) run past the end of the \(fileSize)-byte file",
                                   location: Location(file: path, entry: entry.name, offset: entry.localHeaderOffset)))
                continue
            }
            let next = position + 1 < ordered.count ? entries[ordered[position + 1]] : nil
            let limit = next?.localHeaderOffset ?? centralOffset
            if overflow || end > limit {
                let other = next.map { "entry \"\($0.name)\"" } ?? "the central directory"
                // The later entry of an overlapping pair is the suspect one: it is not read.
                if position + 1 < ordered.count { entries[ordered[position + 1]].hasProblem = true } else { entries[slot].hasProblem = true }
                try report(GalleryError(.overlappingEntries, "the entry's data (\(entry.localHeaderOffset)..<\(overflow ? UInt64.max : end)) "
                                   + "overlaps \(other) at \(limit)",
                                   location: Location(file: path, entry: entry.name, offset: entry.localHeaderOffset)))
            }
        }
    }
}
