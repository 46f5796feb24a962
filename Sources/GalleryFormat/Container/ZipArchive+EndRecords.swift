internal import GallerySystem

/// Finding the central directory from the end records (classic and ZIP64), with their checks.
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
