import FoundationEssentials
internal import GallerySystem

/// Raw DEFLATE of a long entry in pieces of a megabyte, compressed side by side: the manifest
/// of a large gallery, whose deflate at level 6 was most of a save's time before the first
/// blob (0.62 s of 0.84 s for 100,000 images, on one core).
///
/// Each piece is a deflate stream of its own, primed with the 32 KiB of text before it (so
/// that matches reach back as far as in one stream) and ended on a byte boundary by a sync
/// flush; the last is ended by a finish. Joined, they are one valid raw DEFLATE stream (what
/// pigz writes). The bytes depend only on the input, never on how it was handed over or
/// which thread compressed which piece, so a writer still gives the same file for the same
/// gallery (format section 4.10); an input of one piece or less gives the bytes of a single
/// zlib stream, as before.
package final class PieceDeflater {
    /// A megabyte: the manifest's pieces, which every writer of the same gallery cuts alike.
    package static let manifestPieceSize = 1 << 20
    static let dictionarySize = 32 << 10

    /// The input of each piece but the last. The bytes depend on it, so a writer that must
    /// give the same bytes for the same input keeps it fixed.
    private let pieceSize: Int

    private let level: Int32
    private let context: String
    private let work: Work
    private let wantedHelpers: Int
    private var helpers: [SystemThread]?

    // The producer's side.
    private var piece: [UInt8] = []
    private var previousTail: [UInt8] = []
    private var submitted = 0
    private var handedOut = 0

    /// The helpers' threads' stacks: zlib's deflate needs a few kilobytes of it, and under an
    /// address-space cap (a thumbnailer's) a default 8 MiB stack would count in full.
    static let helperStackBytes = 512 << 10

    /// The most memory a deflater of `pieceSize` pieces and `helpers` helpers holds beside its
    /// output, for a caller's budget: the piece being filled, and for each thread that
    /// compresses (the helpers and the caller) a piece, its dictionary, its output, zlib's
    /// state and buffer, and a stack.
    package static func bytesHeld(pieceSize: Int, helpers: Int) -> Int {
        pieceSize + (helpers + 1) * (2 * pieceSize + dictionarySize + (512 << 10) + helperStackBytes)
    }

    /// - Parameter helpers: threads that compress beside the caller; fewer when the system
    ///   refuses a thread, none on one processor (the caller then compresses every piece).
    package init(level: Int32, context: String, pieceSize: Int = PieceDeflater.manifestPieceSize,
                 helpers wanted: Int = ProcessInfo.processInfo.activeProcessorCount - 1) {
        precondition(pieceSize > Self.dictionarySize)
        self.level = level
        self.context = context
        self.pieceSize = pieceSize
        work = Work(level: level, context: context)
        wantedHelpers = max(0, min(wanted, 7))
        piece.reserveCapacity(pieceSize)
    }

    deinit {
        work.stop()
        for helper in helpers ?? [] { helper.join() }
    }

    /// Started with the first piece that is not the last: an entry of one piece (most
    /// manifests) never starts a thread.
    private func startHelpers() {
        var started: [SystemThread] = []
        // Threads of our own, as for the local headers: libdispatch's pool cannot always grow.
        for _ in 0 ..< wantedHelpers {
            guard let thread = SystemThread.start(stackBytes: Self.helperStackBytes, { [work] in work.help() }) else { break }
            started.append(thread)
        }
        work.setHelperCount(started.count)
        helpers = started
    }

    /// Takes more of the input; compressed pieces go to `output` in order as they are done.
    package func compress(_ input: UnsafeRawBufferPointer, output: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        var rest = input
        while !rest.isEmpty {
            // A full piece is sent only once more input shows it is not the last.
            if piece.count == pieceSize { try submit(last: false, output: output) }
            let take = min(pieceSize - piece.count, rest.count)
            piece.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<take]))
            rest = UnsafeRawBufferPointer(rebasing: rest[take...])
        }
    }

    /// Ends the stream: the last piece is compressed and everything is handed to `output`.
    package func finish(output: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        try submit(last: true, output: output)
        try handOut(untilAllDone: true, output: output)
    }

    private func submit(last: Bool, output: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        if !last && helpers == nil { startHelpers() }
        let dictionary = previousTail
        previousTail = Array(piece.suffix(Self.dictionarySize))
        work.add(Work.Piece(index: submitted, input: piece, dictionary: dictionary, last: last))
        submitted += 1
        piece = []
        piece.reserveCapacity(pieceSize)
        try handOut(untilAllDone: false, output: output)
    }

    /// Hands out the pieces done in order; compresses pieces here while more wait than the
    /// helpers can take (all of them without helpers), which also bounds the memory held.
    private func handOut(untilAllDone: Bool, output: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        while handedOut < submitted {
            switch work.next(handedOut, waiting: untilAllDone) {
            case .done(let result):
                let bytes = try result.get()
                try bytes.withUnsafeBufferPointer { try output($0) }
                handedOut += 1
            case .compress(let piece):
                work.finished(piece.index, Result { try Work.compress(piece, level: level, context: context) })
            case .nothingYet:
                return
            }
        }
    }
}

extension PieceDeflater {
    /// The pieces waiting, and those done, shared with the helper threads.
    final class Work: @unchecked Sendable {
        struct Piece {
            var index: Int
            var input: [UInt8]
            var dictionary: [UInt8]
            var last: Bool
        }

        enum Next {
            case done(Result<[UInt8], any Error>)
            case compress(Piece)
            case nothingYet
        }

        private let level: Int32
        private let context: String
        private let condition = SystemCondition()
        private var waiting: [Piece] = []
        private var done: [Int: Result<[UInt8], any Error>] = [:]
        private var stopping = false
        private var helperCount = 0

        init(level: Int32, context: String) {
            self.level = level
            self.context = context
        }

        static func compress(_ piece: Piece, level: Int32, context: String) throws -> [UInt8] {
            let deflater = try Deflater(level: level, context: context)
            if !piece.dictionary.isEmpty { try deflater.setDictionary(piece.dictionary) }
            var output: [UInt8] = []
            output.reserveCapacity(piece.input.count / 3)
            try piece.input.withUnsafeBytes { input in
                try deflater.compress(input, finishing: piece.last, flushing: !piece.last) { output += $0 }
            }
            return output
        }

        func setHelperCount(_ count: Int) {
            condition.lock()
            helperCount = count
            condition.unlock()
        }

        func add(_ piece: Piece) {
            condition.lock()
            waiting.append(piece)
            condition.broadcast()
            condition.unlock()
        }

        func finished(_ index: Int, _ result: Result<[UInt8], any Error>) {
            condition.lock()
            done[index] = result
            condition.broadcast()
            condition.unlock()
        }

        /// What the producer does next about piece `index`: hand it out, compress a waiting
        /// piece itself, or (not `waiting` for all) go on producing.
        func next(_ index: Int, waiting untilDone: Bool) -> Next {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if let result = done.removeValue(forKey: index) { return .done(result) }
                if waiting.count > (untilDone ? 0 : helperCount) { return .compress(waiting.removeFirst()) }
                if !untilDone { return .nothingYet }
                condition.wait()
            }
        }

        /// A helper's loop: compress waiting pieces until told to stop.
        func help() {
            condition.lock()
            while true {
                while waiting.isEmpty && !stopping { condition.wait() }
                if waiting.isEmpty { break }
                let piece = waiting.removeFirst()
                condition.unlock()
                let result = Result { try Self.compress(piece, level: level, context: context) }
                condition.lock()
                done[piece.index] = result
                condition.broadcast()
            }
            condition.unlock()
        }

        func stop() {
            condition.lock()
            stopping = true
            waiting.removeAll()
            condition.broadcast()
            condition.unlock()
        }
    }
}
