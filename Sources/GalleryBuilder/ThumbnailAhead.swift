import Dispatch
import GalleryFormat
import GalleryImaging
import GallerySystem
import Synchronization
import SystemPackage

/// The first image's thumbnail, begun on a thread of its own as soon as that image's file is
/// known, so that decoding it overlaps the hashing of every image instead of following it. A
/// writer must put `thumbnail.png` before the blobs (format section 4.6), so the thumbnail is
/// otherwise on the path between the last hash and the first byte copied.
///
/// Give it to ``GalleryBuilder/GalleryBuilder/thumbnailAhead``. The builder takes its result only when the
/// bytes it decoded have the first image's SHA-256: a file that changed between the two reads,
/// or a first image other than the one named here, gets its thumbnail made again at write.
public final class ThumbnailAhead: Sendable {
    /// What the thread made, and from which bytes.
    struct Made: Sendable {
        var sha256: SHA256Digest
        var png: Result<[UInt8], ImageDecodeError>
    }

    private let made = Mutex<Made?>(nil)
    private let finished = DispatchGroup()

    /// Starts making the thumbnail of the image file at `path`. A file that cannot be read, or
    /// is larger than a thumbnail is made from, leaves nothing: the write then does as it would
    /// have without this.
    public init(firstImageAt path: String) {
        finished.enter()
        DispatchQueue.global().async { [self] in
            defer { finished.leave() }
            make(FilePath(path))
        }
    }

    private func make(_ path: FilePath) {
        guard let bytes = Self.read(path) else { return }
        let png: Result<[UInt8], ImageDecodeError>
        do {
            png = .success(try GalleryThumbnail.png(firstImage: bytes))
        } catch let error as ImageDecodeError {
            png = .failure(error)
        } catch {
            return
        }
        var hasher = SHA256Hasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        made.withLock { $0 = Made(sha256: hasher.finalize(), png: png) }
    }

    /// The thumbnail made ahead, once it is done, when it was made from `image`'s bytes.
    func png(for image: SourceImage) -> Result<[UInt8], ImageDecodeError>? {
        finished.wait()
        return made.withLock { made in made.flatMap { $0.sha256 == image.sha256 ? $0.png : nil } }
    }

    private static func read(_ path: FilePath) -> [UInt8]? {
        guard let file = try? GalleryFile.openForReading(path), let size = try? file.size,
              size > 0, size <= UInt64(GalleryThumbnail.limits.maxBytes / 2) else { return nil }
        return try? file.read(at: 0, count: Int(size))
    }
}
