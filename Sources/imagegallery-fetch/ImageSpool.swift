#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GalleryFetch
import GalleryFetchHelper
import GalleryFormat

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
        throw HelperFailure(message: "\(failure): cannot make a folder for fetched images", status: 73)
    }

    /// Writes the image's bytes to a file of its own and describes it. The caller removes
    /// the folder once the images are in its gallery.
    func keep(_ image: FetchedImage) throws -> FetchHelperEvent.SpooledImageRecord {
        let path = folder + "/" + UUID().uuidString
        try GalleryFile.create(path, mode: 0o600).write(image.data, at: 0)
        return FetchHelperEvent.SpooledImageRecord(
            path: path, mediaType: image.header.mediaType.rawValue, width: image.header.width, height: image.header.height,
            bitDepth: image.header.bitDepth, interlaced: image.header.interlaced, byteSize: UInt64(image.data.count),
            sha256: SHA256Hasher.of(image.data).hex, crc32: CRC32.of(image.data), filename: image.suggestedFilename,
            lastModified: image.lastModified, origin: image.origin.rawValue)
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
