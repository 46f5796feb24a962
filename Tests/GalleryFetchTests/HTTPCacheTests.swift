import Foundation
import GalleryFetch
import GalleryTestSupport
import Testing

@Suite("HTTP cache on disk")
struct HTTPCacheTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func cache(memory: Int = 4 << 20, disk: Int = 80 << 20) -> HTTPCache {
        HTTPCache(.init(directory: directory.path, memoryCapacity: memory, diskCapacity: disk))
    }

    func response(_ url: String, bytes: Int = 1000, seed: UInt8 = 0, fields: [String: [String]] = [:]) -> CachedResponse {
        var all = fields
        all["content-type"] = all["content-type"] ?? ["image/png"]
        all["cache-control"] = all["cache-control"] ?? ["max-age=600"]
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return CachedResponse(url: url, status: 200, fields: all, requestTime: now, responseTime: now,
                              body: (0 ..< bytes).map { UInt8(truncatingIfNeeded: $0 &+ Int(seed)) })
    }

    func entryFiles() -> [String] {
        let root = directory.path + "/http/v1"
        let enumerator = FileManager.default.enumerator(atPath: root)
        var files: [String] = []
        while let name = enumerator?.nextObject() as? String {
            if name.hasSuffix(".entry") { files.append(root + "/" + name) }
        }
        return files.sorted()
    }

    @Test func entriesOutliveTheProcessThatWroteThem() {
        let stored = response("http://example.com/a.png#fragment")
        cache().store(stored)
        let found = cache().lookup("http://example.com/a.png")
        #expect(found?.body == stored.body)
        #expect(found?.url == "http://example.com/a.png", "the key has no fragment")
        #expect(found?.field("content-type") == "image/png")
        #expect(cache().lookup("http://example.com/b.png") == nil)
    }

    @Test(arguments: ["flip a body byte", "truncate", "empty", "wrong url", "garbage record"])
    func aDamagedEntryIsDiscardedNotServed(damage: String) throws {
        let writer = cache()
        writer.store(response("http://example.com/a.png"))
        let path = try #require(entryFiles().first)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        switch damage {
        case "flip a body byte": bytes[bytes.count - 10] ^= 0x40
        case "truncate": bytes.removeLast(100)
        case "empty": bytes = []
        case "wrong url":
            // Another URL's entry renamed into this one's place (a hash collision, or tampering).
            let other = cache()
            other.store(response("http://example.com/other.png"))
            let otherPath = try #require(entryFiles().first { $0 != path })
            bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: otherPath)))
        default: bytes.replaceSubrange(12 ..< 40, with: [UInt8](repeating: 0x7B, count: 28))
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = cache()
        #expect(reader.lookup("http://example.com/a.png") == nil)
        #expect(reader.discardedEntries == ["http://example.com/a.png"])
        #expect(!FileManager.default.fileExists(atPath: path), "the damaged file is deleted")
    }

    @Test func noStoreRemovesWhatWasStored() {
        let store = cache()
        store.store(response("http://example.com/a.png"))
        store.store(response("http://example.com/a.png", fields: ["cache-control": ["no-store"]]))
        #expect(cache().lookup("http://example.com/a.png") == nil)
        #expect(entryFiles().isEmpty)
    }

    @Test func leastRecentlyUsedEntriesLeaveFirst() throws {
        // Each entry is about 20 kB; the disk holds 100 kB. Times are set explicitly: the
        // file system's clock may not tick between two writes.
        let store = cache(memory: 0, disk: 100_000)
        for index in 0 ..< 4 { store.store(response("http://example.com/\(index).png", bytes: 20_000, seed: UInt8(index))) }
        let files = entryFiles()
        #expect(files.count == 4)
        _ = store.lookup("http://example.com/0.png")  // used: the newest now
        for index in 1 ..< 4 {
            let path = try #require(files.first { try! Data(contentsOf: URL(fileURLWithPath: $0)).range(of: Data("/\(index).png".utf8)) != nil })
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: Double(index - 100))], ofItemAtPath: path)
        }
        store.store(response("http://example.com/4.png", bytes: 20_000, seed: 4))
        store.store(response("http://example.com/5.png", bytes: 20_000, seed: 5))
        store.trim()
        let reader = cache()
        #expect(reader.info().bytes <= 100_000)
        #expect(reader.lookup("http://example.com/1.png") == nil, "the least recently used went first")
        #expect(reader.lookup("http://example.com/0.png") != nil, "a recent lookup kept it")
        #expect(reader.lookup("http://example.com/5.png") != nil)
    }

    @Test func anEntryLargerThanAQuarterOfTheDiskIsNotKept() {
        let store = cache(disk: 100_000)
        store.store(response("http://example.com/big.png", bytes: 30_000))
        #expect(store.lookup("http://example.com/big.png") == nil)
        #expect(entryFiles().isEmpty)
    }

    @Test func theMemoryLayerServesWithoutTheDisk() throws {
        let store = cache(memory: 10_000)
        store.store(response("http://example.com/a.png", bytes: 2000))
        for file in entryFiles() { try FileManager.default.removeItem(atPath: file) }
        #expect(store.lookup("http://example.com/a.png")?.body.count == 2000, "served from memory")
        #expect(cache().lookup("http://example.com/a.png") == nil, "a new instance has an empty memory layer")
    }

    @Test func concurrentWritersLeaveWholeEntries() async throws {
        // Many writers, one key: every reader sees one writer's whole entry, never a mix.
        let url = "http://example.com/shared.png"
        await withTaskGroup(of: Void.self) { group in
            for writer in 0 ..< 16 {
                group.addTask {
                    let own = HTTPCache(.init(directory: directory.path))
                    for round in 0 ..< 10 {
                        own.store(response(url, bytes: 50_000, seed: UInt8(writer * 10 + round)))
                        if let read = HTTPCache(.init(directory: directory.path)).lookup(url) {
                            let seed = read.body[0]
                            #expect(read.body == response(url, bytes: 50_000, seed: seed).body)
                        }
                    }
                }
            }
        }
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: directory.path + "/http/tmp")) ?? []
        #expect(leftovers.isEmpty, "no temporary file is left")
        #expect(cache().discardedEntries.isEmpty)
        #expect(entryFiles().count == 1)
    }

    @Test func infoAndClear() throws {
        let store = cache()
        for index in 0 ..< 3 { store.store(response("http://example.com/\(index).png")) }
        let info = store.info()
        #expect(info.entries == 3)
        #expect(info.bytes > 3000)
        #expect(info.diskCapacity == 80 << 20)
        let removed = try store.clear()
        #expect(removed.entries == 3)
        #expect(store.info().entries == 0)
        #expect(store.lookup("http://example.com/0.png") == nil)
    }
}
