internal import GallerySystem
import Synchronization

/// Local headers read ahead, beside the central directory's parse.
///
/// Every reader checks every local header. For a gallery of photos that is one `pread` per
/// entry, and on a processor where each costs a microsecond of page-cache work (an AMD EPYC VM:
/// 11 ms of processor time for 10,000 photos) the reads were started only once the whole
/// central directory had been parsed and checked, and then ran on as a tail after the manifest
/// was decoded (Benchmarks/RESULTS.md, ac.3.8). Where each header lies needs only a walk of the
/// directory's record lengths, so a thread of our own starts on the reads as soon as the
/// directory is in memory, and the opening thread joins in once its parse is done.
///
/// The bytes held are only a copy of the file's: the headers are still judged in file order by
/// `localHeader(of:read:)`, which is lent held bytes only for the very offset and length it asks
/// for, and reads anything else (a header the walk did not reach, a short read, a second read
/// for a long extra field) from the file as before.
final class HeaderPrefetch: Sendable {
    /// Headers are taken in runs of this many, in turn from a shared counter, so that neither
    /// thread is left reading alone at the end.
    static let runLength = 256

    /// Where each header lies and how much of it the judging reads first, in central
    /// directory order: the plan the walk of the directory makes.
    struct Plan: Sendable {
        var offsets: [UInt64] = []
        var counts: [Int] = []
        var runCount: Int { (offsets.count + HeaderPrefetch.runLength - 1) / HeaderPrefetch.runLength }
    }

    /// One run's headers, each at `starts[i]` in `bytes` when `complete[i]`.
    struct Run: Sendable {
        var bytes: [UInt8]
        var starts: [Int]
        var complete: [Bool]
    }

    private let file: GalleryFile
    private let plan = Mutex<Plan?>(nil)
    private let nextRun = Atomic<Int>(0)
    private let runs = Mutex<[Run?]>([])
    private let thread = Mutex<SystemThread?>(nil)

    private init(file: GalleryFile) { self.file = file }

    /// Starts reading the local headers of `count` records of `directory` on a thread of our
    /// own, or returns nil where it would not pay: a small gallery, or headers lying close
    /// together, which `HeaderWindow` already reads many to a call. Nil too where no thread can
    /// be started. Call `finish(helping:)` before the archive leaves its initialiser.
    static func start(reading directory: HugePageBuffer, size: Int, count: Int, centralOffset: UInt64,
                      longestName: Int, file: GalleryFile) -> HeaderPrefetch? {
        guard count >= ZipArchive.headersReadInParts, centralOffset / UInt64(count) >= UInt64(HeaderWindow.span / 2) else {
            return nil
        }
        return startReading(directory, size: size, count: count, longestName: longestName, file: file)
    }

    /// `start(reading:size:count:centralOffset:longestName:file:)` whether or not it pays: the
    /// directory is the first `size` bytes of `directory`, which the thread keeps until it is done.
    static func startReading(_ directory: HugePageBuffer, size: Int, count: Int, longestName: Int,
                             file: GalleryFile) -> HeaderPrefetch? {
        let prefetch = HeaderPrefetch(file: file)
        guard let thread = SystemThread.start({
            prefetch.walkAndRead(UnsafeRawBufferPointer(rebasing: directory.bytes[..<size]), count: count,
                                 longestName: longestName)
            withExtendedLifetime(directory) {}
        }) else { return nil }
        prefetch.thread.withLock { $0 = thread }
        return prefetch
    }

    /// Joins the reading, when `helping`, and waits for it to end; returns what was read, or
    /// nil when not `helping` (an open that failed: the thread is told to stop and waited for,
    /// since it reads the file).
    func finish(helping: Bool) -> PrefetchedHeaders? {
        if !helping {
            nextRun.store(Int.max / 2, ordering: .relaxed)
        } else if let plan = plan.withLock({ $0 }) {
            readRuns(plan)
        }
        let started = thread.withLock { thread -> SystemThread? in
            defer { thread = nil }
            return thread
        }
        started?.join()
        guard helping, let plan = plan.withLock({ $0 }) else { return nil }
        return PrefetchedHeaders(plan: plan, runs: runs.withLock { $0 })
    }

    private func walkAndRead(_ directory: UnsafeRawBufferPointer, count: Int, longestName: Int) {
        let plan = Self.plan(of: directory, count: count, longestName: longestName)
        runs.withLock { $0 = Array(repeating: nil, count: plan.runCount) }
        self.plan.withLock { $0 = plan }
        readRuns(plan)
    }

    /// The most bytes of headers held: 10,000 photos' need 1.7 MB. A hostile directory could
    /// otherwise have as much again as its own 64 MiB held, in a process that may run under an
    /// address-space cap (the thumbnailer); past the limit, the judging reads the headers from
    /// the file as before.
    static let maxHeldBytes = 8 << 20

    /// The records' local offsets, walked by their lengths only; the walk stops at anything
    /// odd, which the full parse will name: a name longer than `longestName` bytes (which the
    /// parse refuses), and past `limit` bytes held.
    static func plan(of directory: UnsafeRawBufferPointer, count: Int, longestName: Int,
                     holdingAtMost limit: Int = maxHeldBytes) -> Plan {
        var plan = Plan()
        var planned = 0
        plan.offsets.reserveCapacity(count)
        plan.counts.reserveCapacity(count)
        var reader = LittleEndianReader(directory)
        for _ in 0 ..< count {
            guard let header = CentralFileHeader(&reader), Int(header.nameLength) <= longestName,
                  reader.remaining >= Int(header.nameLength) + Int(header.extraLength) + Int(header.commentLength)
            else { break }
            reader.skip(Int(header.nameLength))
            let extra = reader.take(Int(header.extraLength))
            reader.skip(Int(header.commentLength))
            let read = ZipArchive.firstHeaderRead(nameLength: Int(header.nameLength))
            guard let values = ZipArchive.centralValues(of: header, extra: extra), planned + read <= limit else { break }
            planned += read
            plan.offsets.append(values.localOffset)
            plan.counts.append(read)
        }
        return plan
    }

    private func readRuns(_ plan: Plan) {
        var window = HeaderWindow(file: file)
        while true {
            let run = nextRun.wrappingAdd(1, ordering: .relaxed).oldValue
            guard run < plan.runCount else { return }
            let slots = run * Self.runLength ..< min((run + 1) * Self.runLength, plan.offsets.count)
            let read = read(slots, of: plan, through: &window)
            runs.withLock { $0[run] = read }
        }
    }

    private func read(_ slots: Range<Int>, of plan: Plan, through window: inout HeaderWindow) -> Run {
        var starts: [Int] = []
        starts.reserveCapacity(slots.count)
        var total = 0
        for slot in slots {
            starts.append(total)
            total += plan.counts[slot]
        }
        var complete = [Bool](repeating: false, count: slots.count)
        let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialised in
            buffer.initialize(repeating: 0)
            for (position, slot) in slots.enumerated() {
                let next = slot + 1 < plan.offsets.count ? plan.offsets[slot + 1] : nil
                guard let found = try? window.read(at: plan.offsets[slot], count: plan.counts[slot], nextHeader: next),
                      found.count == plan.counts[slot]
                else { continue }
                found.withUnsafeBytes {
                    UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[starts[position]...])).copyMemory(from: $0)
                }
                complete[position] = true
            }
            initialised = total
        }
        return Run(bytes: bytes, starts: starts, complete: complete)
    }
}

/// Local headers read ahead (`HeaderPrefetch`), lent to the judging by central directory index.
struct PrefetchedHeaders: Sendable {
    let plan: HeaderPrefetch.Plan
    let runs: [HeaderPrefetch.Run?]

    /// The bytes `file.read(at: offset, count: count)` gave for the header of the entry at
    /// `index`, or nil when they were not read whole, or not for that offset and length.
    func bytes(of index: Int, at offset: UInt64, count: Int) -> ArraySlice<UInt8>? {
        guard index < plan.offsets.count, plan.offsets[index] == offset, plan.counts[index] == count,
              let run = runs[index / HeaderPrefetch.runLength]
        else { return nil }
        let slot = index % HeaderPrefetch.runLength
        guard run.complete[slot] else { return nil }
        return run.bytes[run.starts[slot] ..< run.starts[slot] + count]
    }
}
