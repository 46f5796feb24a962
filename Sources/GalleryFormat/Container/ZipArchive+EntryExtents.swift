import Dispatch
import Synchronization

extension ZipArchive {
    /// Galleries with at least this many entries have their local headers read on every core.
    static let headersReadInParts = 2048

    /// Where each entry's bytes end, from its local header (and its data descriptor), in the
    /// order given; nil for an entry the central directory condemned, which is not read.
    ///
    /// Reading a local header is a system call and a page-cache lookup, and the headers of a
    /// gallery of photos lie far apart: for 10,000 photos the reads were the longest path of an
    /// open once the manifest's decoding had become cheap. The entries are read in parts that
    /// the cores take in turn, each part through a window of its own; what is found is judged
    /// afterwards in file order, so the findings are those of one reading in order.
    func entryExtents(_ ordered: [ZipEntry]) -> [Result<UInt64, any Error>?] {
        let parts = ordered.count >= Self.headersReadInParts ? 8 : 1
        let size = (ordered.count + parts - 1) / max(parts, 1)
        let found = Mutex<[Int: [Result<UInt64, any Error>?]]>([:])
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let range = min(part * size, ordered.count) ..< min((part + 1) * size, ordered.count)
            var window = HeaderWindow(file: file)
            let extents = range.map { position -> Result<UInt64, any Error>? in
                let entry = ordered[position]
                guard !entry.hasProblem else { return nil }
                return Result {
                    let next = position + 1 < ordered.count ? ordered[position + 1].localHeaderOffset : nil
                    let local = try localHeader(of: entry) { try window.read(at: $0, count: $1, nextHeader: next) }
                    var end = local.dataOffset.addingSaturating(entry.compressedSize)
                    if entry.usesDataDescriptor {
                        end = end.addingSaturating(try dataDescriptorLength(entry, extra: local.extra, at: end))
                    }
                    return end
                }
            }
            found.withLock { $0[part] = extents }
        }
        return found.withLock { parts in (0 ..< parts.count).flatMap { parts[$0]! } }
    }
}
