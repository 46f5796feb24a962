@testable import GalleryImaging
import Testing

/// The filter runs beside the decoder on a second thread (`RowPipeline`): it must see every
/// row once, in order, whichever side is faster, and a decoder's error must come back only
/// after the thread is done with the rows it was given.
@Suite("Rows from a decoder to a filter on a second thread")
struct RowPipelineTests {
    struct Broken: Error {}

    /// Row `index`, `width` bytes: its index and a pattern, so that a row out of place, twice
    /// or torn (half one row, half another) shows.
    static func row(_ index: Int, width: Int) -> [UInt8] {
        (0 ..< width).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0 &* 7) }
    }

    /// Runs `rows` rows of `width` bytes through the pipeline; `slowConsumer` makes the filter
    /// the slow side (the ring fills), else the decoder is (the ring empties).
    static func received(rows: Int, width: Int, threaded: Bool, slowConsumer: Bool) throws -> [[UInt8]] {
        var seen: [[UInt8]] = []
        func pause() { var spin = 0; for k in 0 ..< 2_000 { spin &+= k }; precondition(spin > 0) }
        try RowPipeline.run(rowBytes: width, threaded: threaded, consume: { row in
            if slowConsumer { pause() }
            seen.append(Array(row))
        }) { push in
            for index in 0 ..< rows {
                if !slowConsumer { pause() }
                Self.row(index, width: width).withUnsafeBufferPointer { push($0) }
            }
        }
        return seen
    }

    @Test(arguments: [(true, true), (true, false), (false, false)])
    func everyRowArrivesOnceInOrder(threaded: Bool, slowConsumer: Bool) throws {
        // More rows than the ring holds, many times over.
        let rows = RowPipeline.capacity * 20 + 3, width = 4 * 97
        let seen = try Self.received(rows: rows, width: width, threaded: threaded, slowConsumer: slowConsumer)
        #expect(seen.count == rows)
        #expect(seen == (0 ..< rows).map { Self.row($0, width: width) })
    }

    /// Against a slow decoder (a JPEG decoded at 1/8 gives a row each 110 µs, filtered in 6)
    /// the consumer waits on an empty ring for every row; it is woken once a batch has gathered,
    /// not for each row, since each wake is a system call on both sides (RESULTS.md ac.4.16).
    @Test func aConsumerAheadOfItsDecoderIsWokenOncePerBatch() throws {
        let rows = 40 * RowPipeline.wakeAfter + 5
        var seen = 0
        let (_, wakes) = try RowPipeline.runCountingWakes(rowBytes: 8, consume: { _ in seen += 1 }) { push in
            for index in 0 ..< rows {
                // Slower than the consumer by far, so that it has drained the ring each time.
                let until = ContinuousClock.now + .microseconds(50)
                while ContinuousClock.now < until {}
                Self.row(index, width: 8).withUnsafeBufferPointer { push($0) }
            }
        }
        #expect(seen == rows)
        // A wake for each batch and one at the close; a few more where the system wakes a waiter
        // for nothing, far fewer than a wake per row.
        #expect(wakes <= rows / RowPipeline.wakeAfter + 8, "woken \(wakes) times for \(rows) rows")
    }

    /// Fewer rows than a batch: they arrive when the decoder is done.
    @Test func rowsShortOfABatchArriveAtTheClose() throws {
        var seen: [[UInt8]] = []
        try RowPipeline.run(rowBytes: 8, consume: { seen.append(Array($0)) }) { push in
            for index in 0 ..< RowPipeline.wakeAfter - 1 { Self.row(index, width: 8).withUnsafeBufferPointer { push($0) } }
        }
        #expect(seen == (0 ..< RowPipeline.wakeAfter - 1).map { Self.row($0, width: 8) })
    }

    @Test func aDecodersErrorComesBackAfterTheRowsItGave() {
        var seen: [[UInt8]] = []
        #expect(throws: Broken.self) {
            try RowPipeline.run(rowBytes: 8, consume: { seen.append(Array($0)) }) { push in
                for index in 0 ..< 100 {
                    if index == 70 { throw Broken() }
                    Self.row(index, width: 8).withUnsafeBufferPointer { push($0) }
                }
            }
        }
        // Read after run returned: the thread has been joined, so every row given is here.
        #expect(seen == (0 ..< 70).map { Self.row($0, width: 8) })
    }
}
