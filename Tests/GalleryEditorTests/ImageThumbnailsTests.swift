import Foundation
import GalleryFormat
import GalleryImageHeaders
import GalleryTestSupport
import Synchronization
import SystemPackage
import Testing
@testable import GalleryEditor

/// The grid's thumbnails and the detail view's renditions: made once per image content, upright,
/// JPEG unless there is transparency to keep, and read back from the cache after that.
@Suite struct ImageThumbnailsTests {
    let cache: TemporaryDirectory
    let thumbnails: ImageThumbnails

    init() throws {
        cache = try TemporaryDirectory()
        thumbnails = ImageThumbnails(folder: FilePath(cache.path).appending("thumbnails"))
    }

    /// Counts the reads of the source, so that a cache hit can be told from a second make.
    final class Reads: Sendable {
        let count = Mutex(0)
    }

    /// How many renditions are being made at once, and the most there were.
    final class Gauge: Sendable {
        let state = Mutex((now: 0, most: 0))
    }

    func source(_ name: String, _ reads: Reads) -> @Sendable () async throws -> [UInt8] {
        { reads.count.withLock { $0 += 1 }; return try FileBytes.read(TestPaths.fixture("images/" + name)) }
    }

    @Test func aPhotoIsAnUprightJPEGMadeOnceThenReadFromTheCache() async throws {
        let reads = Reads()
        // 480 × 320 stored with EXIF orientation 6: upright it is 320 × 480, so 256 × 384.
        let made = try await thumbnails.grid(sha256: "balloon", bytes: source("5-balloon-rotated.jpg", reads))
        #expect(made.mediaType == "image/jpeg")
        let header = try ImageHeader.parse(made.bytes)
        #expect(header.mediaType == .jpeg && (header.width, header.height) == (256, 384))
        let again = try await thumbnails.grid(sha256: "balloon", bytes: source("5-balloon-rotated.jpg", reads))
        #expect(again.bytes == made.bytes && again.mediaType == "image/jpeg")
        #expect(reads.count.withLock { $0 } == 1)
        #expect(try FileBytes.read(cache.path + "/thumbnails/balloon-384.jpeg") == made.bytes)
    }

    @Test func aPictureWithTransparencyStaysPNG() async throws {
        let reads = Reads()
        let made = try await thumbnails.grid(sha256: "bubbles", bytes: source("6-bubbles.png", reads))
        #expect(made.mediaType == "image/png")
        let header = try ImageHeader.parse(made.bytes)
        #expect(header.mediaType == .png && (header.width, header.height) == (320, 320))
        #expect(FileManager.default.fileExists(atPath: cache.path + "/thumbnails/bubbles-384.png"))
    }

    /// The detail view's stand-in never enlarges: a 480-pixel photo stays 480 pixels.
    @Test func aDisplayRenditionKeepsTheImageSizeUpToItsLimit() async throws {
        let made = try await thumbnails.rendition(sha256: "sunset", longSide: ImageThumbnails.displayLongSide,
                                                  bytes: source("1-sunset.jpg", Reads()))
        let original = try ImageHeader.parse(try FileBytes.read(TestPaths.fixture("images/1-sunset.jpg")))
        let header = try ImageHeader.parse(made.bytes)
        #expect((header.width, header.height) == (original.width, original.height))
    }

    /// A cached file that is not what its name says (cut short, or overwritten) is made again.
    @Test func aDamagedCacheFileIsMadeAgain() async throws {
        let reads = Reads()
        try FileManager.default.createDirectory(atPath: cache.path + "/thumbnails", withIntermediateDirectories: true)
        try FileBytes.write(Array("<html>".utf8), to: cache.path + "/thumbnails/sunset-384.jpeg")
        let made = try await thumbnails.grid(sha256: "sunset", bytes: source("1-sunset.jpg", reads))
        #expect(made.bytes.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(reads.count.withLock { $0 } == 1)
    }

    /// A grid of thousands asks for every thumbnail at once: they are made one per core at a
    /// time, all cores busy and no more images than cores read into memory.
    @Test func renditionsAreMadeOnEveryCoreAndNoMore() async throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let gauge = Gauge()
        let thumbnails = thumbnails
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0 ..< cores * 3 {
                group.addTask {
                    _ = try await thumbnails.grid(sha256: "image-\(number)") {
                        gauge.state.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                        try await Task.sleep(for: .milliseconds(300))
                        gauge.state.withLock { $0.now -= 1 }
                        return try FileBytes.read(TestPaths.fixture("images/1-sunset.jpg"))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(gauge.state.withLock { $0.most } == cores)
    }

    /// One asked for while it is being made (the grid and the beside view, or a reload, asking
    /// for the same photo) is waited for, not made again.
    @Test func aThumbnailAskedForWhileItIsMadeIsMadeOnce() async throws {
        let reads = Reads()
        let thumbnails = thumbnails
        let slow: @Sendable () async throws -> [UInt8] = {
            reads.count.withLock { $0 += 1 }
            try await Task.sleep(for: .milliseconds(300))
            return try FileBytes.read(TestPaths.fixture("images/1-sunset.jpg"))
        }
        async let first = thumbnails.grid(sha256: "sunset", bytes: slow)
        async let second = thumbnails.grid(sha256: "sunset", bytes: slow)
        let (one, other) = try await (first, second)
        #expect(one.bytes == other.bytes)
        #expect(reads.count.withLock { $0 } == 1, "made \(reads.count.withLock { $0 }) times")
    }
}
