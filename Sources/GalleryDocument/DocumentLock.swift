import FoundationEssentials
import GalleryFormat
import GallerySystem
public import SystemPackage

/// Who has a document open for editing: the record a sidecar lock file holds.
public struct LockOwner: Sendable, Codable, Hashable, CustomStringConvertible {
    /// The host name of the holder's computer.
    public var host: String
    /// The holder's process id on that host.
    public var pid: ProcessID
    /// The process's start time (clock ticks since boot, /proc/PID/stat field 22): with
    /// ``bootID``, what tells the owner from a pid reused by another process or after a reboot.
    public var processStart: UInt64
    /// The holder's boot, `/proc/sys/kernel/random/boot_id`.
    public var bootID: String
    /// The holder's user name.
    public var user: String
    /// The editing session (``GalleryDocument/GalleryDocument/session``), which tells two
    /// documents of one process apart.
    public var session: UUID

    /// "USER on HOST (process PID, session UUID)", for telling people who has a document.
    public var description: String { "\(user) on \(host) (process \(pid), session \(session.uuidString.lowercased()))" }

    /// This process, for `session`.
    public static func current(session: UUID) -> LockOwner {
        let pid = ProcessID.current
        return LockOwner(host: CurrentProcess.hostName, pid: pid, processStart: processStartTime(pid) ?? 0,
                         bootID: currentBootID, user: CurrentProcess.userName, session: session)
    }

    /// Whether the record was written on this host since its last boot: only then can its
    /// process be looked up, and only then does its flock say whether it still holds the lock.
    public var isOfThisBoot: Bool { host == CurrentProcess.hostName && bootID == Self.currentBootID }

    /// Whether this record's process is still running. Only a record from this host and this
    /// boot can be judged; any other is taken to be alive.
    public var isAlive: Bool {
        guard isOfThisBoot else { return true }
        guard let start = Self.processStartTime(pid) else { return false }
        return start == processStart
    }

    /// The boot's id without its line end, read as bytes: the String trimming this replaced
    /// cost 0.2 ms of every edit's open in generic Unicode code (Benchmarks/RESULTS.md, ac.3.10).
    static let currentBootID: String = {
        guard let bytes = try? GalleryFileSystem.contents(of: "/proc/sys/kernel/random/boot_id") else { return "" }
        let isSpace = { (byte: UInt8) in byte == 0x20 || (0x09 ... 0x0D).contains(byte) }
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return String(validating: bytes[start ..< end], as: UTF8.self) ?? ""
    }()

    /// Field 22 of /proc/PID/stat, counted after the command name (which may hold spaces).
    static func processStartTime(_ pid: ProcessID) -> UInt64? {
        guard let stat = try? GalleryFileSystem.contents(of: FilePath("/proc/\(pid)/stat")),
              let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // After the name come fields 3 onwards, one space apart: field 22 follows the 19th space.
        var spaces = 0
        var position = close + 1
        while position < stat.count, spaces < 20 {
            if stat[position] == UInt8(ascii: " ") { spaces += 1 }
            position += 1
        }
        let digits = stat[position...].prefix(while: { $0 >= 0x30 && $0 <= 0x39 })
        guard spaces == 20, !digits.isEmpty, digits.count <= 19 else { return nil }
        return digits.reduce(0) { $0 * 10 + UInt64($1 - 0x30) }
    }

    /// The record a lock file holds: JSON that `JSONDecoder` reads back as this owner, written
    /// piece by piece, since Foundation's encoder cost 0.21 ms of every edit's open the first
    /// time it ran (Benchmarks/RESULTS.md, ac.3.10). Members in the order Specs/document-layer.md shows.
    var record: [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        CanonicalJSONWriter.appendKey("host", to: &bytes)
        CanonicalJSONWriter.appendString(host, to: &bytes)
        CanonicalJSONWriter.appendVerbatim(",", to: &bytes)
        CanonicalJSONWriter.appendKey("pid", to: &bytes)
        CanonicalJSONWriter.appendInteger(Int64(pid.rawValue), to: &bytes)
        CanonicalJSONWriter.appendVerbatim(",", to: &bytes)
        CanonicalJSONWriter.appendKey("processStart", to: &bytes)
        // Ticks since boot: far below Int64's range on any machine that has booted.
        CanonicalJSONWriter.appendInteger(Int64(clamping: processStart), to: &bytes)
        CanonicalJSONWriter.appendVerbatim(",", to: &bytes)
        CanonicalJSONWriter.appendKey("bootID", to: &bytes)
        CanonicalJSONWriter.appendString(bootID, to: &bytes)
        CanonicalJSONWriter.appendVerbatim(",", to: &bytes)
        CanonicalJSONWriter.appendKey("user", to: &bytes)
        CanonicalJSONWriter.appendString(user, to: &bytes)
        CanonicalJSONWriter.appendVerbatim(",", to: &bytes)
        CanonicalJSONWriter.appendKey("session", to: &bytes)
        CanonicalJSONWriter.appendUUID(session, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}

/// A sidecar lock, `.NAME.lock` beside the document, marking it open for editing.
///
/// The holder keeps an exclusive `flock` on the file for as long as it edits, so the kernel
/// settles races between processes of this host, and a holder that dies releases it. The
/// file's record tells others who holds it. A record of this host under a free flock is stale
/// and taken over (its holder died, or let go without removing the file); a record from another host (a shared or synced folder) is never
/// broken silently: the document is then for reading only, and the caller is told who has it.
///
/// Dropping the lock releases it. A ``GalleryDocument/GalleryDocument`` takes and releases its
/// own; use this type directly only to lock a document for a program of your own.
public final class DocumentLock: @unchecked Sendable {
    /// What ``acquire(for:session:waiting:)`` got.
    public enum Outcome: Sendable {
        /// The lock is ours until it is released or dropped.
        case acquired(DocumentLock)
        /// Someone else edits the document: this is who.
        case heldBy(LockOwner)
    }

    /// The lock file, `.NAME.lock` beside the document.
    public let path: FilePath
    /// The record written into the lock file: this process and session.
    public let owner: LockOwner
    /// What this lock wrote into the file: `release()` removes the file only while it holds it.
    private let record: [UInt8]
    private var file: LockFile?

    private init(path: FilePath, owner: LockOwner, record: [UInt8], file: LockFile) {
        self.path = path
        self.owner = owner
        self.record = record
        self.file = file
    }

    deinit { release() }

    /// The lock file of a document.
    public static func lockPath(for document: String) -> FilePath {
        let path = FilePath(document)
        return path.removingLastComponent().appending("." + path.lastComponentName + ".lock")
    }

    /// Takes the lock of `document` for `session`, or says who holds it. A live holder of this
    /// host is waited for, up to `waiting` (so that shells editing one file take turns); a
    /// holder on another host is reported at once, since its end cannot be seen from here.
    ///
    /// Blocks the calling thread while it waits.
    ///
    /// - Throws: `FileSystemError` when the lock file cannot be created or written (a folder
    ///   that cannot be written gives `permissionDenied`, or `EROFS`).
    public static func acquire(for document: String, session: UUID = UUID(), waiting: Duration = .zero) throws -> Outcome {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: waiting)
        var pause = 2_000
        var wished = false
        defer { if wished { withdrawWish(for: document, session: session) } }
        while true {
            switch try attempt(for: document, session: session) {
            case .acquired(let lock):
                return .acquired(lock)
            case .heldBy(let holder):
                guard holder.isOfThisBoot, clock.now < deadline else { return .heldBy(holder) }
                // A holder that presents the document (the editor) lets go for a waiting writer,
                // as an NSFilePresenter relinquishes to one, and takes the lock back afterwards.
                if writerWaiting(for: document) == nil {
                    wished = announceWish(for: document, session: session) || wished
                }
                // Backing off, with jitter, keeps several waiters from waking in step.
                CurrentProcess.sleep(for: .microseconds(pause + Int.random(in: 0 ... pause)))
                pause = min(pause * 2, 50_000)
            }
        }
    }

    private static func attempt(for document: String, session: UUID) throws -> Outcome {
        let path = lockPath(for: document)
        for _ in 0 ..< 10 {
            let file = try LockFile.open(path)
            if !file.tryLock() {
                let holder = record(file)
                file.close()
                // Held by a live process of this host; its record says who (or is being written).
                if let holder { return .heldBy(holder) }
                CurrentProcess.sleep(for: .milliseconds(20))
                continue
            }
            // The file may have been removed and made anew between our open and our flock: then
            // ours is a lock on nothing, and we start again.
            guard file.isStillNamed() else {
                file.close()
                continue
            }
            // A holder of this boot keeps its flock for as long as it holds the lock, so a free
            // flock means it let go or died, even when its process lives on: a release in a folder
            // made read-only meanwhile could not remove the file. Another host's flock cannot be
            // seen from here, so its record is never broken silently.
            if let previous = record(file), !previous.isOfThisBoot {
                file.close()
                return .heldBy(previous)
            }
            let owner = LockOwner.current(session: session)
            let record = owner.record
            do {
                try file.writeRecord(record)
            } catch {
                file.close()
                throw error
            }
            return .acquired(DocumentLock(path: path, owner: owner, record: record, file: file))
        }
        throw FileSystemError(kind: .other, path: path.string, operation: "take the lock (it kept changing)", code: .resourceTemporarilyUnavailable)
    }

    /// The file a writer waiting for the lock leaves beside it, `.NAME.lock.wanted`, holding
    /// its record: how a holder that presents the document hears that it is wanted.
    public static func wishPath(for document: String) -> FilePath {
        let lock = lockPath(for: document)
        return lock.removingLastComponent().appending(lock.lastComponentName + ".wanted")
    }

    /// The live writer of this host waiting for the lock of `document`, if any. A wish left by a
    /// process that is gone is removed.
    public static func writerWaiting(for document: String) -> LockOwner? {
        let path = wishPath(for: document)
        guard let file = LockFile.openExisting(path) else { return nil }
        defer { file.close() }
        guard let writer = record(file) else { return nil }
        if writer.isAlive { return writer }
        GalleryFileSystem.remove(path)
        return nil
    }

    private static func announceWish(for document: String, session: UUID) -> Bool {
        LockFile.createNew(wishPath(for: document), record: LockOwner.current(session: session).record)
    }

    private static func withdrawWish(for document: String, session: UUID) {
        let path = wishPath(for: document)
        guard let file = LockFile.openExisting(path) else { return }
        defer { file.close() }
        if record(file)?.session == session { GalleryFileSystem.remove(path) }
    }

    /// Who holds the lock of `document`, if anyone.
    public static func holder(of document: String) -> LockOwner? {
        guard let file = LockFile.openExisting(lockPath(for: document)) else { return nil }
        defer { file.close() }
        return record(file)
    }

    /// Removes the lock file, then lets go of the flock (in that order, so that nobody can take
    /// a lock on a file about to vanish and keep it). The file is ours while it holds the very
    /// record we wrote: compared as bytes, not decoded (0.22 ms of every edit's close).
    public func release() {
        guard let file else { return }
        if file.record() == record {
            file.removeName()
        }
        file.close()
        self.file = nil
    }

    private static func record(_ file: LockFile) -> LockOwner? {
        let bytes = file.record()
        guard !bytes.isEmpty else { return nil }
        return try? JSONDecoder().decode(LockOwner.self, from: Data(bytes))
    }
}
