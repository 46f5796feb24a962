import Foundation
@testable import GalleryDocument
import GalleryFormat
import GallerySystem
import GalleryTestSupport
import Testing

/// The sidecar lock against real processes: a live holder, a dead one, another host's.
@Suite("Document lock", .serialized)
struct DocumentLockTests {
    let directory: TemporaryDirectory
    var folder: String { directory.path }

    init() throws {
        directory = try TemporaryDirectory()
    }

    var document: String { folder + "/trip.imagegallery" }

    func write(_ owner: LockOwner) throws {
        try JSONEncoder().encode(owner).write(to: URL(fileURLWithPath: DocumentLock.lockPath(for: document).string))
    }

    @Test func aSecondEditorIsToldWhoHoldsIt() throws {
        guard case .acquired(let lock) = try DocumentLock.acquire(for: document) else {
            Issue.record("the first acquire failed")
            return
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/.trip.imagegallery.lock"))
        guard case .heldBy(let holder) = try DocumentLock.acquire(for: document) else {
            Issue.record("a second editor took the lock")
            return
        }
        #expect(holder == lock.owner && holder.pid == ProcessID.current)
        lock.release()
        #expect(!FileManager.default.fileExists(atPath: DocumentLock.lockPath(for: document).string))
        guard case .acquired = try DocumentLock.acquire(for: document) else {
            Issue.record("the lock was not free after release")
            return
        }
    }

    /// Another process holds the lock; once it is killed, the lock is free and taken over.
    @Test func aLiveHolderBlocksAndADeadOneIsTakenOver() throws {
        let script = """
            import fcntl, json, os, socket, sys, uuid
            fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
            fcntl.flock(fd, fcntl.LOCK_EX)
            stat = open('/proc/self/stat').read()
            start = int(stat[stat.rindex(')') + 2:].split()[19])
            boot = open('/proc/sys/kernel/random/boot_id').read().strip()
            record = dict(host=socket.gethostname(), pid=os.getpid(), processStart=start, bootID=boot,
                          user='holder', session=str(uuid.uuid4()).upper())
            os.ftruncate(fd, 0); os.pwrite(fd, json.dumps(record).encode(), 0)
            print('ready', flush=True)
            sys.stdin.read()
            """
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = ["-c", script, DocumentLock.lockPath(for: document).string]
        let input = Pipe(), output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        _ = output.fileHandleForReading.availableData  // "ready"
        guard case .heldBy(let owner) = try DocumentLock.acquire(for: document) else {
            Issue.record("the lock was taken from a live holder")
            return
        }
        #expect(owner.pid.rawValue == holder.processIdentifier && owner.user == "holder" && owner.isAlive)
        // Its stdin closes: it exits, and the kernel drops its flock.
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        // Its record stays, but its process is gone: stale.
        #expect(DocumentLock.holder(of: document)?.isAlive == false)
        guard case .acquired(let lock) = try DocumentLock.acquire(for: document) else {
            Issue.record("a dead holder's lock was not taken over")
            return
        }
        #expect(lock.owner.pid == ProcessID.current)
    }

    @Test func anotherHostsLockIsNeverBrokenSilently() throws {
        var owner = LockOwner.current(session: UUID())
        owner.host = "elsewhere.example"
        owner.pid = ProcessID(rawValue: 1)
        try write(owner)
        guard case .heldBy(let holder) = try DocumentLock.acquire(for: document) else {
            Issue.record("another host's lock was broken")
            return
        }
        #expect(holder.host == "elsewhere.example")
    }

    /// A record of this host whose pid now belongs to another process (or none) is stale.
    /// The record is written without Foundation's encoder: Foundation's decoder must read it
    /// back as the same owner, whatever a host or user name holds.
    @Test(arguments: ["vm", "h\u{F6}st \"quoted\" \\ back\tslash\u{1}"])
    func theRecordReadsBackAsItsOwner(host: String) throws {
        var owner = LockOwner.current(session: UUID())
        owner.host = host
        owner.user = host + "-user"
        let decoded = try JSONDecoder().decode(LockOwner.self, from: Data(owner.record))
        #expect(decoded == owner)
        let members = try #require(JSONSerialization.jsonObject(with: Data(owner.record)) as? [String: Any])
        #expect(Set(members.keys) == ["host", "pid", "processStart", "bootID", "user", "session"])
    }

    /// This process's start time and boot, read as bytes, are the kernel's.
    @Test func thisProcessIsDescribedAsTheKernelSaysIt() throws {
        let stat = try String(contentsOfFile: "/proc/self/stat", encoding: .utf8)
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        #expect(LockOwner.processStartTime(.current) == UInt64(fields[19]))
        let boot = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
        #expect(LockOwner.currentBootID == boot.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(LockOwner.currentBootID.count == 36)
    }

    /// A release removes the file only while it holds the record this lock wrote.
    @Test func aReleaseLeavesAFileAnotherRecordWasWrittenInto() throws {
        guard case .acquired(let lock) = try DocumentLock.acquire(for: document) else {
            Issue.record("the acquire failed")
            return
        }
        let other = LockOwner.current(session: UUID())
        try write(other)
        lock.release()
        #expect(DocumentLock.holder(of: document) == other)
    }

    @Test func aReusedPidIsNotTheOwner() throws {
        var owner = LockOwner.current(session: UUID())
        owner.processStart &+= 12345
        try write(owner)
        #expect(!owner.isAlive)
        guard case .acquired = try DocumentLock.acquire(for: document) else {
            Issue.record("a stale record blocked the lock")
            return
        }
    }

    /// A release in a folder made read-only meanwhile lets go of the flock but cannot remove the
    /// file, which keeps the record of a process that is still running (this one): the free
    /// flock, not the record, says the lock is free. (The editor met this: a gallery closed while
    /// its folder was read-only came up read-only at its next open, "held" by the editor itself.)
    @Test func aRecordOfALiveProcessUnderAFreeFlockIsStale() throws {
        let left = LockOwner.current(session: UUID())
        try write(left)
        #expect(left.isAlive && left.isOfThisBoot)
        guard case .acquired(let lock) = try DocumentLock.acquire(for: document) else {
            Issue.record("a lock its holder let go of stayed held")
            return
        }
        #expect(lock.owner.session != left.session && DocumentLock.holder(of: document) == lock.owner)
    }
}
