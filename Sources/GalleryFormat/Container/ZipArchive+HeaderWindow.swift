internal import GallerySystem

/// The local headers of small entries, read many to a call.
///
/// Every reader checks every local header, in file order. A gallery of 100,000 small images
/// has its headers a few hundred bytes apart, and one `pread` per header was most of the
/// opening thread's time: the kernel's cost per call, not the bytes. When the next header lies
/// close, one read of `span` bytes serves it and its neighbours; when headers lie far apart,
/// as between photos, each is read alone as before, so no bytes are read twice over.
struct HeaderWindow {
    let file: GalleryFile
    /// How far ahead one read reaches: well past a small image, well under a photo.
    static let span = 64 << 10
    private var start: UInt64 = 0
    private var bytes: [UInt8] = []
    /// The last read stopped at the end of the file: what it lacks is not there to read.
    private var reachedEnd = false

    init(file: GalleryFile) { self.file = file }

    /// What `file.read(at: offset, count: count)` gives, from the window when it holds it.
    /// `nextHeader` is where the following entry's header starts, if any.
    mutating func read(at offset: UInt64, count: Int, nextHeader: UInt64?) throws -> [UInt8] {
        if let found = held(offset, count) { return found }
        guard let nextHeader, nextHeader > offset, nextHeader - offset < UInt64(Self.span) / 2 else {
            return try file.read(at: offset, count: count)
        }
        let want = max(count, Self.span)
        bytes = try file.readUninitialized(at: offset, count: want)
        start = offset
        reachedEnd = bytes.count < want
        return held(offset, count) ?? []
    }

    private func held(_ offset: UInt64, _ count: Int) -> [UInt8]? {
        guard offset >= start, offset - start <= UInt64(bytes.count) else { return nil }
        let from = Int(offset - start)
        let available = bytes.count - from
        guard available >= count || reachedEnd else { return nil }
        return Array(bytes[from ..< from + min(count, available)])
    }
}
