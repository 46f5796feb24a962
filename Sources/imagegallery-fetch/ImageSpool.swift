import Foundation
import GalleryFetch
import GalleryPrograms
import GalleryFormat
import GallerySystem
import SystemPackage

/// A private folder for fetched images until they are in the gallery, under the cache folder
/// (on disk, unlike a /tmp that may be memory), removed when the command ends. A folder left by
/// a crash is removed by the next run, once it is an hour old.
final class ImageSpool: Sendable {
    let folder: FilePath

    /// In the cache folder, else (a read-only home, say) a new private folder in the temporary
    /// folder. Never a shared, fixed name there: another user could make it first, as a link
    /// to a folder of ours whose old files the stale-folder sweep would then delete.
    init() throws {
        let root = FilePath(HTTPCache.defaultDirectory).appending("spool")
        Self.removeStale(in: root)
        do {
            let name = root.appending(UUID().uuidString)
            try HTTPCache.makePrivateFolder(name)
            folder = name
            return
        } catch let cacheFailure {
            do throws(FileSystemError) {
                folder = try GalleryFileSystem.makeTemporaryFolder(UserFolders.temporary().appending("imagegallery-spool-XXXXXX"))
            } catch {
                throw HelperFailure(message: "\(cacheFailure.localizedDescription): cannot make a folder for fetched images", status: 73)
            }
        }
    }

    /// Writes the image's bytes to a file of its own and describes it. The caller removes
    /// the folder once the images are in its gallery.
    func keep(_ image: FetchedImage) throws -> FetchHelperEvent.SpooledImageRecord {
        let path = folder.appending(UUID().uuidString)
        try GalleryFile.create(path, permissions: .ownerReadWrite).write(image.data, at: 0)
        return FetchHelperEvent.SpooledImageRecord(
            path: path.string, mediaType: image.header.mediaType.rawValue, width: image.header.width, height: image.header.height,
            bitDepth: image.header.bitDepth, interlaced: image.header.interlaced, byteSize: UInt64(image.data.count),
            sha256: SHA256Hasher.of(image.data).hex, crc32: CRC32.of(image.data), filename: image.suggestedFilename,
            lastModified: image.lastModified, origin: image.origin.rawValue)
    }

    private static func removeStale(in root: FilePath) {
        let hourAgo = (WallClock.now.seconds - 3600) * 1_000_000_000
        for name in (try? GalleryFileSystem.entries(ofFolder: root)) ?? [] {
            let path = root.appending(name)
            if let status = try? FileStatus.of(path, followingLinks: false), status.modifiedNanoseconds < hourAgo {
                try? GalleryFileSystem.removeTree(path)
            }
        }
    }
}
