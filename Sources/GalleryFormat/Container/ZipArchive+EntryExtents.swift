internal import GallerySystem
import Synchronization

extension ZipArchive {
    /// Galleries with at least this many entries have their local headers read on every core.
    static let headersReadInParts = 2048

    /// Where each entry's bytes end, from its local header (and its data descriptor), in the
    /// order given; 0 for an entry the central directory condemned, which is not read.
    ///
    /// Reading a local header is a system call and a page-cache lookup, and the headers of a
    /// gallery of photos lie far apart: for 10,000 photos the reads were the longest path of an
    /// open once the manifest's decoding had become cheap. The entries are read in two halves on
    /// two threads, each through a window of its own; what is found is judged
    /// afterwards in file order, so the findings are those of one reading in order. Headers
    /// already `held` (`HeaderPrefetch`) are lent from memory instead of read again.
    func entryExtents(_ ordered: [ZipEntry], held: PrefetchedHeaders? = nil) -> EntryExtents {
        guard ordered.count >= Self.headersReadInParts else { return extents(ordered, 0 ..< ordered.count, held: held) }
        // Two halves, the second on a thread of our own: not the dispatch pool, which a
        // confined process (the thumbnailer) cannot grow, and where a thread is refused the
        // half is read here after the first.
        let middle = ordered.count / 2
        let second = Mutex<EntryExtents?>(nil)
        let helper = SystemThread.start { [self] in
            let found = extents(ordered, middle ..< ordered.count, held: held)
            second.withLock { $0 = found }
        }
        var first = extents(ordered, 0 ..< middle, held: held)
        guard let helper else {
            first.append(extents(ordered, middle ..< ordered.count, held: held))
            return first
        }
        helper.join()
        first.append(second.withLock { $0! })
        return first
    }

    /// The extents of `range`, read in order through a window of their own, where not `held`.
    private func extents(_ ordered: [ZipEntry], _ range: Range<Int>, held: PrefetchedHeaders? = nil) -> EntryExtents {
        var window = HeaderWindow(file: file)
        var found = EntryExtents(ends: [], failures: [])
        found.ends.reserveCapacity(range.count)
        for position in range {
            let entry = ordered[position]
            guard !entry.hasProblem else {
                found.ends.append(0)
                continue
            }
            do {
                let next = position + 1 < ordered.count ? ordered[position + 1].localHeaderOffset : nil
                let local = try localHeader(of: entry) {
                    try held?.bytes(of: entry.index, at: $0, count: $1) ?? window.read(at: $0, count: $1, nextHeader: next)
                }
                var end = local.dataOffset.addingSaturating(entry.compressedSize)
                if entry.usesDataDescriptor {
                    end = end.addingSaturating(try dataDescriptorLength(entry, extra: local.extra, at: end))
                }
                found.ends.append(end)
            } catch {
                found.ends.append(0)
                found.failures.append((found.ends.count - 1, error))
            }
        }
        return found
    }
}

/// Where each entry's bytes end (`ZipArchive.entryExtents(_:held:)`), in the order it was given.
/// Plain numbers, with the few failures beside them: an optional `Result` an entry, handled by
/// generic code, was a third of judging 10,000 held headers (Benchmarks/RESULTS.md, ac.3.10).
struct EntryExtents {
    /// Where each entry's bytes end; 0 for one the central directory condemned (not read) or
    /// one in `failures`.
    var ends: [UInt64]
    /// Why an entry's header could not be judged, by its position, in increasing order.
    var failures: [(position: Int, error: any Error)]

    /// Appends the extents of the entries that follow these.
    mutating func append(_ later: EntryExtents) {
        let offset = ends.count
        ends += later.ends
        failures += later.failures.map { ($0.position + offset, $0.error) }
    }
}
