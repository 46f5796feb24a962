import Dispatch
import Foundation
import GalleryFormat
import GalleryTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Saves that are killed, raced, or refused by the disk: the file is always the old revision or
/// the new one, and nothing anyone added is lost.
@Suite("Save safety", .serialized)
struct SaveSafetyTests {
    /// 200 saves, each killed with SIGKILL at a random moment of its run.
    @Test func killedSavesLeaveTheOldOrTheNewRevision() async throws {
        try await Blocking.run { try Self.killSaves() }
    }

    static func killSaves() throws {
        let workspace = try EditingWorkspace(images: 0)
        let g = workspace.gallery
        #expect(try workspace.run(["add", g, TestPaths.fixture("images/1-sunset.jpg"), TestPaths.fixture("images/2-tiles.png")])
            .status == 0)
        // How long an add takes here, so that the kills fall anywhere from start to end.
        let started = Date()
        #expect(try workspace.run(["add", g, try workspace.image(1000)]).status == 0)
        let window = max(Date().timeIntervalSince(started) * 1.3, 0.02)

        let binary = try TestPaths.binary()
        var generator = SeededGenerator(seed: 200)
        var (old, new) = (0, 0)
        for round in 0 ..< 200 {
            let before = try FileBytes.read(g)
            let beforeImages = try workspace.content().images
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["add", g, try workspace.image(round)]
            process.environment = ProcessInfo.processInfo.environment.merging(workspace.environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(Double.random(in: 0 ... window, using: &generator) * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let after = try FileBytes.read(g)
            if after == before {
                old += 1
            } else {
                let gallery = try workspace.content()
                #expect(Array(gallery.images.dropLast()) == beforeImages, "round \(round): not the old images plus one")
                #expect(gallery.images.last?.filename == "image-\(round).png", "round \(round)")
                new += 1
            }
            let check = try workspace.run(["validate", g])
            #expect(check.status == 0, "round \(round): \(check.stdout)")
            if check.status != 0 { break }
        }
        // Both outcomes must have happened, or the kills did not land inside the saves.
        #expect(old > 0 && new > 0, "old \(old), new \(new)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: workspace.directory.path)
            .filter { $0.contains(".save-") || $0.contains(".tmp-") }
        // A kill between the swap and the clean-up may leave one save file; the next editor removes it.
        #expect(leftovers.count <= 1, "\(leftovers)")
    }

    /// 8 processes × 25 adds on one file: 200 images, none lost, none twice.
    @Test func concurrentAddsAreAllKept() async throws {
        try await Blocking.run { try Self.addConcurrently() }
    }

    static func addConcurrently() throws {
        let workspace = try EditingWorkspace(images: 0)
        for seed in 0 ..< 200 { _ = try workspace.image(seed) }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { process in
            for step in 0 ..< 25 {
                let seed = process * 25 + step
                do {
                    let result = try workspace.run(["add", workspace.gallery, workspace.directory.file("image-\(seed).png")])
                    if result.status != 0 { failures.withLock { $0.append("\(seed): \(result.status) \(result.stderr)") } }
                } catch {
                    failures.withLock { $0.append("\(seed): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        let names = try workspace.names()
        #expect(names.count == 200)
        #expect(Set(names) == Set((0 ..< 200).map { "image-\($0).png" }))
        #expect(try workspace.isValid())
    }

    /// A full disk (a small tmpfs): a clear error naming the file, the original intact, and no
    /// temporary file left behind.
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func aFullDiskLeavesTheOriginal() throws {
        let workspace = try EditingWorkspace(images: 0)
        let mountPoint = workspace.directory.file("small")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        let mounted = try Subprocess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint])
        try #require(mounted.status == 0, "\(mounted.stderr)")
        defer { _ = try? Subprocess.run("/bin/umount", [mountPoint]) }

        let g = mountPoint + "/trip.imagegallery"
        #expect(try workspace.run(["create", g, TestPaths.fixture("images")]).status == 0)
        let before = try FileBytes.read(g)
        // Fill the rest but for 64 KiB: room for the lock's record, not for a new file.
        let free = try FileManager.default.attributesOfFileSystem(forPath: mountPoint)[.systemFreeSize] as! Int
        try FileBytes.write([UInt8](repeating: 0, count: max(0, free - (64 << 10))), to: mountPoint + "/filler")

        let result = try workspace.run(["add", g, TestPaths.fixture("images/3-lighthouse.jpg")])
        #expect(result.status == 74, "\(result.status): \(result.stderr)")
        #expect(result.stderr.contains(mountPoint) && result.stderr.contains("No space left"), "\(result.stderr)")
        #expect(try FileBytes.read(g) == before)
        let names = try FileManager.default.contentsOfDirectory(atPath: mountPoint)
        #expect(names.allSatisfy { !$0.contains(".save-") && !$0.contains(".tmp-") }, "\(names)")
    }

    /// A folder that cannot be written (a read-only bind mount, which binds root too): a clear
    /// error, the original intact.
    @Test(.enabled(if: getuid() == 0, "a read-only bind mount needs root"))
    func aReadOnlyFolderLeavesTheOriginal() throws {
        let workspace = try EditingWorkspace(images: 2)
        let mountPoint = workspace.directory.file("readonly")
        let source = workspace.directory.file("source")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: workspace.gallery, toPath: source + "/trip.imagegallery")
        #expect(try Subprocess.run("/bin/mount", ["--bind", source, mountPoint]).status == 0)
        defer { _ = try? Subprocess.run("/bin/umount", [mountPoint]) }
        try #require(try Subprocess.run("/bin/mount", ["-o", "remount,bind,ro", mountPoint]).status == 0)

        let g = mountPoint + "/trip.imagegallery"
        let before = try FileBytes.read(g)
        let result = try workspace.run(["caption", g, "1", "hello"])
        #expect(result.status == 73, "\(result.status): \(result.stderr)")
        #expect(result.stderr.contains(g) && result.stderr.contains("Read-only file system"), "\(result.stderr)")
        #expect(try FileBytes.read(g) == before)
    }
}
