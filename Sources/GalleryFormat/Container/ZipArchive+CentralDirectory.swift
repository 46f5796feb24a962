import FoundationEssentials
internal import GallerySystem

/// Parsing the central directory into entries, with the checks each record must pass.
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
            let isDirectory = nameBytes.last == UInt8(ascii: "/")

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

                // One hash for a sound name: it goes into the index as it is looked up there, and
                // comes out again if a later check condemns the entry.
                let earlier = hasProblem ? index[name] : index.updateValue(position, forKey: name)
                if let earlier {
                    if !hasProblem { index[name] = earlier }
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
                // Nil where the name is its own folded form: no copy of the name is made for it.
                var foldedName: String?
                if !foldsToItself(nameBytes) {
                    let folding = name.caseFolded
                    if folding != name { foldedName = folding }
                }
                let foldedEarlier = foldedName.flatMap { index[$0] ?? folded[$0] }
                if let earlier = foldedEarlier ?? (folded.isEmpty ? nil : folded[name]) {
                    // An entry with a problem is listed but not indexed: lookups find only sound ones.
                    if !hasProblem { index[name] = nil }
                    throw GalleryError(.confusableNames, "the name differs from entry \(earlier + 1)'s \"\(entries[earlier].name)\" "
                                       + "only by letter case", location: place)
                }
                if !hasProblem, let foldedName { folded[foldedName] = position }
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
                isDirectory: isDirectory, nameLength: nameLength, hasProblem: hasProblem
            ))
        }
        guard reader.remaining == 0 else {
            throw GalleryError(.badEndRecord, "the central directory holds \(reader.remaining) bytes more than its "
                               + "\(count) entries", location: Location(file: path, offset: layout.centralOffset + UInt64(reader.position)))
        }
        return (entries, index)
    }

    /// Unix file types from the external attributes; DOS attributes carry no links or devices.
    static func checkFileType(_ header: CentralFileHeader, isDirectory: Bool, size: UInt64,
                              location: @autoclosure () -> Location) throws {
        let host = header.versionMadeBy >> 8
        if host == 3 || host == 19 {  // Unix, OS X
            let mode = header.externalAttributes >> 16
            let type = mode & 0o170000
            switch type {
            case 0, 0o100000: break
            case 0o040000 where isDirectory: break
            case 0o120000:
                throw GalleryError(.notRegularFile, "the entry is a symbolic link", location: location())
            default:
                throw GalleryError(.notRegularFile, "the entry is not a regular file (mode \(String(mode, radix: 8)))",
                                   location: location())
            }
            if type == 0o040000, !isDirectory {
                throw GalleryError(.notRegularFile, "the entry is marked a directory but its name has no trailing slash",
                                   location: location())
            }
        }
        if isDirectory, size != 0 {
            throw GalleryError(.notRegularFile, "a directory entry holds \(size) bytes", location: location())
        }
    }
}
