import Foundation
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

    /// dav1d's workers live as long as its decoder, which is open while the rows are handed
    /// on, so they are looked for there rather than raced from another thread: a watcher that
    /// polls during the decode can miss them on a busy machine. A worker names itself as it
    /// starts, so a moment is allowed for that.
    @Test func aWholeImageIsDecodedByDav1dsWorkers() throws {
        let bytes = try Self.encoded(width: 1024, height: 768)
        var seen: Bool?
        var rows = 0
        _ = try AVIFDecoder.decodeRows(bytes) { _ in
            rows += 1
            guard seen == nil else { return }
            let deadline = ContinuousClock.now + .seconds(5)
            repeat {
                if Self.threadNames().contains("dav1d-worker") { seen = true; return }
                usleep(1000)
            } while ContinuousClock.now < deadline
            seen = false
        }
        #expect(rows == 768)
        #expect(seen == true, "no dav1d worker thread was alive while the AVIF's rows were handed on")
    }

    @Test func twoThreadsGiveTheOneThreadsPixels() throws {
        let bytes = try Self.encoded(width: 640, height: 480)
        let two = try AVIFDecoder.decode(bytes, threads: 2)
        let one = try AVIFDecoder.decode(bytes, threads: 1)
        #expect(two.bitmap.pixels == one.bitmap.pixels)
    }
}
