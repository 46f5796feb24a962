#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GalleryFetch
import GalleryFormat
import GalleryImaging

/// A fetched image, written to the spool: what `create` and `add` hold per URL instead of its
/// bytes, so that memory stays bounded however many URLs are given.
struct SpooledImage: Sendable {
    var url: String
    var path: String
    var header: ImageHeader
    var byteSize: UInt64
    var sha256: SHA256Digest
    var crc32: UInt32
    var filename: String?
    var lastModified: Int64?
    var origin: FetchedImage.Origin
}

/// A private folder for fetched images until they are in the gallery, under the cache folder
/// (on disk, unlike a /tmp that may be memory), removed when the command ends. A folder left by
/// a crash is removed by the next run, once it is an hour old.
final class ImageSpool: Sendable {
    let folder: String

    /// In the cache folder, else (a read-only home, say) in the temporary folder.
    init() throws {
        let name = UUID().uuidString
        var failure = ""
        for root in [HTTPCache.defaultDirectory + "/spool", NSTemporaryDirectory() + "/imagegallery-spool"] {
            Self.removeStale(in: root)
            do {
                try HTTPCache.makePrivateFolder(root + "/" + name)
                folder = root + "/" + name
                return
            } catch {
                failure = error.localizedDescription
            }
        }
        throw CommandFailure(message: "\(failure): cannot make a folder for fetched images", status: ExitStatus.cannotCreate)
    }

    /// Called by the command when it is done with the files, not left to `deinit`, which may
    /// come after the process has exited (the fetch task that holds the spool is released on
    /// its own thread).
    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// Writes the image's bytes to a file of its own and describes it.
    func keep(_ image: FetchedImage) throws -> SpooledImage {
        let path = folder + "/" + UUID().uuidString
        try GalleryFile.create(path, mode: 0o600).write(image.data, at: 0)
        return SpooledImage(url: image.url, path: path, header: image.header, byteSize: UInt64(image.data.count),
                            sha256: SHA256Hasher.of(image.data), crc32: CRC32.of(image.data),
                            filename: image.suggestedFilename, lastModified: image.lastModified, origin: image.origin)
    }

    private static func removeStale(in root: String) {
        let hourAgo = Date().addingTimeInterval(-3600)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
            let path = root + "/" + name
            if let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
               modified < hourAgo {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }
}
