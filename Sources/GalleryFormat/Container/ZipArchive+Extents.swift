/// Where entries lie in the file: no shared bytes, nothing reaching into the central directory.
extension ZipArchive {
    /// No two entries may share bytes, and none may reach into the central directory.
    static func checkExtents(_ entries: inout [ZipEntry], centralOffset: UInt64, fileSize: UInt64, path: String,
                             report: (GalleryError) throws -> Void = { throw $0 }) throws {
        let ordered = entries.isInFileOrder
            ? Array(entries.indices) : entries.indices.sorted { entries[$0].localHeaderOffset < entries[$1].localHeaderOffset }
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
