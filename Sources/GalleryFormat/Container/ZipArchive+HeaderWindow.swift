internal import GallerySystem

/// The local headers of small entries, read many to a call.
///
/// Every reader checks every local header, in file order. A gallery of 100,000 small images
/// has its headers a few hundred bytes apart, and one `pread` per header was most of the
/// opening thread's time: the kernel's cost per call, not the bytes. When the next header lies
/// close, one read of `span` bytes serves it and its neighbours; when headers lie far apart,
/// as between photos, each is read alone as before, so no bytes are read twice over. Either
/// way the bytes land in one buffer, kept from read to read, and are lent as a slice of it.
struct HeaderWindow {
    let file: GalleryFile
    /// How far ahead one read reaches: well past a small image, well under a photo.
    static let span = 64 << 10
    private var start: UInt64 = 0
    /// The buffer, kept; its first `held` bytes are the file's from `start`.
    private var buffer: [UInt8] = []
    private var held = 0
    /// The last read stopped at the end of the file: what it lacks is not there to read.
    private var reachedEnd = false

    init(file: GalleryFile) { self.file = file }

    /// What `file.read(at: offset, count: count)` gives, from the window when it holds it.
    /// `nextHeader` is where the following entry's header starts, if any. The slice is the
    /// window's: let it go before the next read, or that read copies the buffer.
    mutating func read(at offset: UInt64, count: Int, nextHeader: UInt64?) throws -> ArraySlice<UInt8> {
        if let found = lent(offset, count) { return found }
        let close = nextHeader.map { $0 > offset && $0 - offset < UInt64(Self.span) / 2 } ?? false
        let want = close ? max(count, Self.span) : count
        if buffer.count < want { buffer = [UInt8](repeating: 0, count: close ? want : max(want, 4096)) }
        held = try buffer.withUnsafeMutableBytes { try file.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<want])) }
        start = offset
        reachedEnd = held < want
        return lent(offset, count) ?? []
    }

    private func lent(_ offset: UInt64, _ count: Int) -> ArraySlice<UInt8>? {
        guard offset >= start, offset - start <= UInt64(held) else { return nil }
        let from = Int(offset - start)
        let available = held - from
        guard available >= count || reachedEnd else { return nil }
        return buffer[from ..< from + min(count, available)]
    }
}
