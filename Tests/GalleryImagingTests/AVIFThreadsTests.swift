import Foundation
import Synchronization
@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// A whole AVIF is decoded by dav1d's two workers (`AVIFDecoder.wholeImageThreads`), which
/// halved a 24 MP photo's thumbnail time (RESULTS ac.4.7), and gives the pixels one thread
/// gives. The file is written here by avifenc.
@Suite("AVIF decoded on two threads")
struct AVIFThreadsTests {
    static func encoded(width: Int, height: Int) throws -> [UInt8] {
        let tool = "/usr/bin/avifenc"
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw MissingTestInput(description: "\(tool) is not installed: scripts/install-deps test installs it")
        }
        let folder = try TemporaryDirectory()
        let (png, avif) = (folder.file("in.png"), folder.file("out.avif"))
        try FileBytes.write(HEICPlanesTests.picture(width: width, height: height, sixteenBits: false, grey: false), to: png)
        let encoded = try Subprocess.run(tool, ["-s", "10", png, avif])
        try #require(encoded.status == 0, "avifenc: \(encoded.stderr)")
        return try FileBytes.read(avif)
    }

    /// The names of this process's threads now (dav1d names its own "dav1d-worker").
    static func threadNames() -> Set<String> {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return Set(tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
    }

    @Test func aWholeImageIsDecodedByDav1dsWorkers() throws {
        let bytes = try Self.encoded(width: 1024, height: 768)
        final class Watch: Sendable {
            let seen = Atomic(false), watching = Atomic(true), done = Atomic(false)
        }
        let watch = Watch()
        let watcher = Thread {
            while watch.watching.load(ordering: .acquiring) {
                if Self.threadNames().contains("dav1d-worker") { watch.seen.store(true, ordering: .releasing) }
                usleep(200)
            }
            watch.done.store(true, ordering: .releasing)
        }
        watcher.start()
        let frame = try AVIFDecoder.decode(bytes)
        watch.watching.store(false, ordering: .releasing)
        while !watch.done.load(ordering: .acquiring) { usleep(100) }
        #expect(frame.bitmap.width == 1024 && frame.bitmap.height == 768)
        let seen = watch.seen.load(ordering: .acquiring)
        #expect(seen, "no dav1d worker thread was seen while the AVIF was decoded")
    }

    @Test func twoThreadsGiveTheOneThreadsPixels() throws {
        let bytes = try Self.encoded(width: 640, height: 480)
        let two = try AVIFDecoder.decode(bytes, threads: 2)
        let one = try AVIFDecoder.decode(bytes, threads: 1)
        #expect(two.bitmap.pixels == one.bitmap.pixels)
    }
}
