import Foundation
import GalleryFetch
import GalleryFetchHelper
import GalleryFormat

/// A private folder for fetched images until they are in the gallery, under the cache folder
/// (on disk, unlike a /tmp that may be memory), removed when the command ends. A folder left by
/// a crash is removed by the next run, once it is an hour old.
final class ImageSpool: Sendable {
    let folder: String

    /// In the cache folder, else (a read-only home, say) a new private folder in the temporary
    /// folder. Never a shared, fixed name there: another user could make it first, as a link
    /// to a folder of ours whose old files the stale-folder sweep would then delete.
    init() throws {
        let root = HTTPCache.defaultDirectory + "/spool"
        Self.removeStale(in: root)
        do {
            let name = root + "/" + UUID().uuidString
            try HTTPCache.makePrivateFolder(name)
            folder = name
            return
        } catch {
            var template = Array((NSTemporaryDirectory() + "/imagegallery-spool-XXXXXX").utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ buffer in
                mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
            }) else {
                throw HelperFailure(message: "\(error.localizedDescription): cannot make a folder for fetched images", status: 73)
            }
            folder = made
        }
    }

    /// Writes the image's bytes to a file of its own and describes it. The caller removes
    /// the folder once the images are in its gallery.
    func keep(_ image: FetchedImage) throws -> FetchHelperEvent.SpooledImageRecord {
        let path = folder + "/" + UUID().uuidString
        try GalleryFile.create(path, permissions: .ownerReadWrite).write(image.data, at: 0)
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
