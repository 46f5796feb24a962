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
    /// The largest entry read through the window. Past it the per-entry system calls are a
    /// small part of the copy, which `copy_file_range` then makes inside the kernel.
    static let smallEntry: UInt64 = 64 << 10
    private var start: UInt64 = 0
    /// One buffer for every read: a new megabyte each time was a fresh mapping, and its first
    /// touch a page fault per page (an eighth of a save's time).
    private var buffer: [UInt8] = []
    /// How much of `buffer` the last read filled.
    private var held = 0
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
            return buffer[Int(offset - start) ..< min(held, Int(offset - start) + count)]
        }
        let size = Int(entry.compressedSize)
        try fill(local.dataOffset, size)
        let from = Int(local.dataOffset - start)
        guard held - from >= size else {
            throw GalleryError(.truncated, "the file ended inside the entry's data while it was copied",
                               location: archive.location(entry, offset: local.dataOffset))
        }
        lastEnd = local.dataOffset + entry.compressedSize
        return try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[from ..< from + size])) }
    }

    /// Makes the window hold `count` bytes from `offset`, reading `reach` bytes from there
    /// when it does not (fewer at the end of the file).
    private mutating func fill(_ offset: UInt64, _ count: Int) throws {
        if offset >= start, offset - start <= UInt64(held), held - Int(offset - start) >= count { return }
        let want = max(count, reach)
        if buffer.count < want { buffer = [UInt8](repeating: 0, count: max(want, Self.span)) }
        held = try buffer.withUnsafeMutableBytes { try archive.file.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<want])) }
        start = offset
    }
}
