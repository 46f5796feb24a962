import GallerySystem
import Synchronization

/// A row of a grid's tiles (HEIC or AVIF) decoded two at a time: one on the caller's thread,
/// one on a helper's. A phone's 512 px tile is not cut for a decoder's own threads (wavefronts,
/// slices), so one tile at a time left a core idle; two at once took a 12 MP HEIC grid's
/// 1,024 px thumbnail from 1.07 × vipsthumbnail's time to 0.80 × (RESULTS.md ac.4.12).
enum TileRow {
    /// Tiles decoded at once, each by a decoder of its own: what a grid's memory is counted for.
    static let tilesAtOnce = 2

    /// The helper's stack: a decoder's calls for one tile, and ours around them.
    static let helperStackBytes = 1 << 20

    /// `decode(index, shared)` for every index in `0 ..< count`, the indices taken in turn by
    /// the caller and a helper (`shared` true when both work, so that each decoder keeps to its
    /// own thread); the outcomes in index order, or the first failure in that order once both
    /// threads are done. Without a helper (a one-tile row, or a system that refuses a thread)
    /// the caller decodes them all.
    static func decode<Tile>(_ count: Int, _ decode: @escaping @Sendable (_ index: Int, _ shared: Bool) throws -> Tile) throws
        -> [Tile] {
        let outcomes = Outcomes<Tile>(count: count)
        let helper = count > 1 ? SystemThread.start(stackBytes: helperStackBytes) { outcomes.work(shared: true, decode) } : nil
        outcomes.work(shared: helper != nil, decode)
        helper?.join()
        return try outcomes.inOrder()
    }

    /// Each index's outcome, written only by the thread that took the index and read once both
    /// threads are joined.
    private final class Outcomes<Tile>: @unchecked Sendable {
        private let taken = Atomic<Int>(0)
        private let slots: UnsafeMutableBufferPointer<Result<Tile, any Error>?>

        init(count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil)
        }

        deinit {
            slots.deinitialize()
            slots.deallocate()
        }

        func work(shared: Bool, _ decode: (_ index: Int, _ shared: Bool) throws -> Tile) {
            while true {
                let index = taken.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < slots.count else { return }
                slots[index] = Result { try decode(index, shared) }
            }
        }

        func inOrder() throws -> [Tile] { try slots.map { try $0!.get() } }
    }
}

/// A buffer two threads write disjoint parts of (a strip of a grid's tiles), handed to them.
struct SharedOutput: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
}
