internal import GallerySystem

/// Small STORED entries of an archive, read many to a call when they lie one after another.
///
/// A save copies every blob of the file it replaces. One `copy_file_range` per blob is cheap
/// for a photo and dear for a gallery of 100,000 small images: a header read, a header write
/// and a copy per image, 300,000 system calls, were half of such a save. When a blob follows
/// the one copied before it in the old file (any save that leaves the order mostly as it was),
/// one read serves it and its neighbours; the span grows while the streak lasts and falls back
/// to the entry alone after a jump, so a shuffled gallery reads each blob once, never a
/// window's worth for each.
struct StoredRunWindow {
    let archive: ZipArchive
    /// The longest read: past many small images, and what the writer buffers before a write.
    static let span = 1 << 20
    private var start: UInt64 = 0
    private var bytes: [UInt8] = []
    /// Where the last entry asked for ended: the next one starting there continues a streak.
    private var lastEnd: UInt64?
    private var reach = 0

    init(archive: ZipArchive) { self.archive = archive }

    /// Calls `body` with the data of `entry`, a STORED entry, after checking its local header
    /// as every reader does. Throws `truncated` when the file no longer holds it all.
    mutating func withData<Result>(of entry: ZipEntry, _ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
        let headerOffset = entry.localHeaderOffset
        // The header and the data in one read when they are not held: the header's usual size
        // (as the check guesses it) and the data after it.
        let guess = LocalFileHeader.size + entry.nameLength + 64 + Int(entry.compressedSize)
        reach = lastEnd == headerOffset ? min(max(reach * 2, guess), Self.span) : guess
        let local = try archive.localHeader(of: entry) { offset, count in
            try fill(offset, count)
            return Array(bytes[Int(offset - start) ..< min(bytes.count, Int(offset - start) + count)])
        }
        let size = Int(entry.compressedSize)
        try fill(local.dataOffset, size)
        let from = Int(local.dataOffset - start)
        guard bytes.count - from >= size else {
            throw GalleryError(.truncated, "the file ended inside the entry's data while it was copied",
                               location: archive.location(entry, offset: local.dataOffset))
        }
        lastEnd = local.dataOffset + entry.compressedSize
        return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[from ..< from + size])) }
    }

    /// Makes the window hold `count` bytes from `offset`, reading `reach` bytes from there
    /// when it does not (fewer at the end of the file).
    private mutating func fill(_ offset: UInt64, _ count: Int) throws {
        if offset >= start, offset - start <= UInt64(bytes.count), bytes.count - Int(offset - start) >= count { return }
        bytes = try archive.file.readUninitialized(at: offset, count: max(count, reach))
        start = offset
    }
}
