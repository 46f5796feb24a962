import Foundation
import GalleryFormat
import GalleryImaging
import GallerySystem

/// Small renditions of a gallery's images for the grid, made on first request and kept under
/// `$XDG_CACHE_HOME/imagegallery/thumbnails`, named by the image's SHA-256: the same image in
/// any gallery, or after any edit, is made once.
///
/// Making one decodes an image, which is slow and runs off Swift's cooperative pool, at most one
/// per core at a time, so that a grid of thousands asks in any order without starving requests.
package final class ImageThumbnails: Sendable {
    /// The longer side of a grid rendition, in pixels: sharp at the largest cell on a 2x screen.
    package static let longSide = 384

    package let folder: String
    /// One per core: a source image is read only once its turn has come, so a grid of thousands
    /// of requests holds at most this many images in memory.
    private let slots = Slots(count: max(ProcessInfo.processInfo.activeProcessorCount, 1))

    package init(folder: String = UserFolders.cache() + "/thumbnails") {
        self.folder = folder
    }

    /// The longer side of a rendition for the detail view, for types browsers cannot show.
    package static let displayLongSide = 4096

    /// How a rendition is written: PNG for the grid (small, and it keeps transparency), JPEG
    /// for the detail view's full-size stand-in (a photo's size in PNG would be many times more).
    package enum Encoding: String, Sendable {
        case png, jpeg

        var signature: [UInt8] { self == .png ? [0x89, 0x50, 0x4E, 0x47] : [0xFF, 0xD8, 0xFF] }
        package var mediaType: String { self == .png ? "image/png" : "image/jpeg" }
    }

    /// The grid's PNG for the image with `sha256`, from the cache or made from `bytes()`.
    package func png(sha256: String, bytes: @escaping @Sendable () async throws -> [UInt8]) async throws -> [UInt8] {
        try await rendition(sha256: sha256, longSide: Self.longSide, encoding: .png, bytes: bytes)
    }

    /// A rendition of the image with `sha256` at most `longSide` on its longer side, upright,
    /// from the cache or made from `bytes()`.
    package func rendition(sha256: String, longSide: Int, encoding: Encoding,
                           bytes: @escaping @Sendable () async throws -> [UInt8]) async throws -> [UInt8] {
        let path = folder + "/\(sha256)-\(longSide).\(encoding.rawValue)"
        if let cached = FileManager.default.contents(atPath: path), cached.starts(with: encoding.signature) {
            return [UInt8](cached)
        }
        await slots.acquire()
        defer { Task { await slots.release() } }
        let source = try await bytes()
        let made: [UInt8] = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    let bitmap = try Thumbnailer.thumbnail(of: source, longSide: longSide,
                                                           limits: GalleryThumbnail.readingLimitsFittingAddressSpace())
                    return encoding == .png ? bitmap.png() : try JPEGEncoder.encode(bitmap)
                })
            }
        }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Written whole under another name, then renamed: a reader never sees half a file.
        try? Data(made).write(to: URL(fileURLWithPath: path), options: .atomic)
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
