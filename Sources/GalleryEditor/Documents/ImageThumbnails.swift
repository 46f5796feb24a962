import Foundation
import Synchronization
import GalleryFormat
import GalleryImaging
import GallerySystem
import SystemPackage

/// Small renditions of a gallery's images for the grid, made on first request and kept under
/// `$XDG_CACHE_HOME/imagegallery/thumbnails`, named by the image's SHA-256: the same image in
/// any gallery, or after any edit, is made once.
///
/// Making one decodes an image, which is slow and runs off Swift's cooperative pool, at most one
/// per core at a time, so that a grid of thousands asks in any order without starving requests.
package final class ImageThumbnails: Sendable {
    /// The longer side of a grid rendition, in pixels: sharp at the largest cell on a 2x screen.
    package static let longSide = 384

    package let folder: FilePath
    /// One per core: a source image is read only once its turn has come, so a grid of thousands
    /// of requests holds at most this many images in memory.
    private let slots = Slots(count: max(ProcessInfo.processInfo.activeProcessorCount, 1))
    /// Renditions being made, by file name: one asked for while it is being made (two pages, or
    /// the grid and the beside view, showing the same photo) is waited for, not made twice.
    private let making = Mutex<[String: Task<Rendition, any Error>]>([:])

    package init(folder: FilePath = UserFolders.cache().appending("thumbnails")) {
        self.folder = folder
    }

    /// The longer side of a rendition for the detail view, for types browsers cannot show.
    package static let displayLongSide = Thumbnailer.displayLongSide

    /// A rendition as it is stored and served. JPEG for an opaque picture: a 384-pixel photo is
    /// about 20 KB, against 117 KB as PNG, and the first screen of a grid loads and decodes that
    /// much sooner. PNG only where there is transparency to keep.
    package struct Rendition: Sendable {
        package var bytes: [UInt8]
        package var mediaType: String
    }

    private static let kinds: [(suffix: String, signature: [UInt8], mediaType: String)] = [
        ("jpeg", [0xFF, 0xD8, 0xFF], "image/jpeg"), ("png", [0x89, 0x50, 0x4E, 0x47], "image/png"),
    ]

    /// The grid's rendition of the image with `sha256`, from the cache or made from `bytes()`.
    package func grid(sha256: String, bytes: @escaping @Sendable () async throws -> [UInt8]) async throws -> Rendition {
        try await rendition(sha256: sha256, longSide: Self.longSide, bytes: bytes)
    }

    /// The grid's thumbnail of the image with `sha256` if the cache holds it; none is made.
    package func cachedGrid(sha256: String) -> Rendition? { cached(sha256: sha256, longSide: Self.longSide) }

    private func cached(sha256: String, longSide: Int) -> Rendition? {
        let stem = "\(sha256)-\(longSide)."
        for kind in Self.kinds {
            if let cached = try? GalleryFileSystem.contents(of: folder.appending(stem + kind.suffix)), cached.starts(with: kind.signature) {
                return Rendition(bytes: cached, mediaType: kind.mediaType)
            }
        }
        return nil
    }

    /// A rendition of the image with `sha256` at most `longSide` on its longer side, upright,
    /// from the cache or made from `bytes()`.
    package func rendition(sha256: String, longSide: Int,
                           bytes: @escaping @Sendable () async throws -> [UInt8]) async throws -> Rendition {
        if let cached = cached(sha256: sha256, longSide: longSide) { return cached }
        let stem = "\(sha256)-\(longSide)."
        let task = making.withLock { making in
            if let under = making[stem] { return under }
            let task = Task { try await self.make(stem: stem, longSide: longSide, bytes: bytes) }
            making[stem] = task
            return task
        }
        return try await task.value
    }

    /// Makes the rendition named `stem`, keeps it in the folder, and lets others ask again.
    private func make(stem: String, longSide: Int, bytes: @escaping @Sendable () async throws -> [UInt8]) async throws -> Rendition {
        defer { making.withLock { $0[stem] = nil } }
        await slots.acquire()
        defer { Task { await slots.release() } }
        let source = try await bytes()
        let made: Rendition = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    // One thread a rendition: the slots already make one per core.
                    var limits = GalleryThumbnail.readingLimitsFittingAddressSpace()
                    limits.filtersInParts = false
                    let bitmap = try Thumbnailer.thumbnail(of: source, longSide: longSide, limits: limits)
                    return bitmap.isOpaque ? Rendition(bytes: try JPEGEncoder.encode(bitmap), mediaType: "image/jpeg")
                        : Rendition(bytes: bitmap.png(), mediaType: "image/png")
                })
            }
        }
        try? GalleryFileSystem.makeFolders(folder)
        // Written whole under another name, then renamed: a reader never sees half a file.
        let suffix = made.mediaType == "image/jpeg" ? "jpeg" : "png"
        try? GalleryFileSystem.writeWhole(made.bytes, to: folder.appending(stem + suffix))
        return made
    }
}

/// A counting semaphore for tasks: waiting suspends instead of blocking a thread.
actor Slots {
    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { available = count }

    func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            available += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
