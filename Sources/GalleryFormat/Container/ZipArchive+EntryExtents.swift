internal import GallerySystem
import Synchronization

extension ZipArchive {
    /// Galleries with at least this many entries have their local headers read on every core.
    static let headersReadInParts = 2048

    /// Where each entry's bytes end, from its local header (and its data descriptor), in the
    /// order given; nil for an entry the central directory condemned, which is not read.
    ///
    /// Reading a local header is a system call and a page-cache lookup, and the headers of a
    /// gallery of photos lie far apart: for 10,000 photos the reads were the longest path of an
    /// open once the manifest's decoding had become cheap. The entries are read in two halves on
    /// two threads, each through a window of its own; what is found is judged
    /// afterwards in file order, so the findings are those of one reading in order. Headers
    /// already `held` (`HeaderPrefetch`) are lent from memory instead of read again.
    func entryExtents(_ ordered: [ZipEntry], held: PrefetchedHeaders? = nil) -> [Result<UInt64, any Error>?] {
        guard ordered.count >= Self.headersReadInParts else { return extents(ordered, 0 ..< ordered.count, held: held) }
        // Two halves, the second on a thread of our own: not the dispatch pool, which a
        // confined process (the thumbnailer) cannot grow, and where a thread is refused the
        // half is read here after the first.
        let middle = ordered.count / 2
        let second = Mutex<[Result<UInt64, any Error>?]?>(nil)
        let helper = SystemThread.start { [self] in
            let found = extents(ordered, middle ..< ordered.count, held: held)
            second.withLock { $0 = found }
        }
        let first = extents(ordered, 0 ..< middle, held: held)
        guard let helper else { return first + extents(ordered, middle ..< ordered.count, held: held) }
        helper.join()
        return first + second.withLock { $0! }
    }

    /// The extents of `range`, read in order through a window of their own, where not `held`.
    private func extents(_ ordered: [ZipEntry], _ range: Range<Int>, held: PrefetchedHeaders? = nil) -> [Result<UInt64, any Error>?] {
        var window = HeaderWindow(file: file)
        return range.map { position -> Result<UInt64, any Error>? in
            let entry = ordered[position]
            guard !entry.hasProblem else { return nil }
            return Result {
                let next = position + 1 < ordered.count ? ordered[position + 1].localHeaderOffset : nil
                let local = try localHeader(of: entry) {
                    try held?.bytes(of: entry.index, at: $0, count: $1) ?? window.read(at: $0, count: $1, nextHeader: next)
                }
                var end = local.dataOffset.addingSaturating(entry.compressedSize)
                if entry.usesDataDescriptor {
                    end = end.addingSaturating(try dataDescriptorLength(entry, extra: local.extra, at: end))
                }
                return end
            }
        }
    }
}
