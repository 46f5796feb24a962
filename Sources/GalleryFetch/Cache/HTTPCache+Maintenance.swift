import Foundation
import GallerySystem
public import SystemPackage

/// What `imagegallery cache info` reports.
public struct HTTPCacheInfo: Sendable, Hashable, Codable {
    /// The folder that holds the entries (the cache folder's `http/`).
    public var directory: String
    /// Responses stored on disk, images and redirects alike.
    public var entries: Int
    /// Bytes the entries take on disk, to compare with ``diskCapacity``.
    public var bytes: Int
    /// The most the entries may take on disk before the least recently used are removed.
    public var diskCapacity: Int
    /// The most a cache object holds in memory: the configured figure, since the memory layer
    /// belongs to each process and is not on disk to measure.
    public var memoryCapacity: Int
}

extension HTTPCache {
    /// Makes the folder and any missing parents, private to the user (0700): the cache, and
    /// what is spooled beside it, shows what they fetched.
    public static func makePrivateFolder(_ path: FilePath) throws {
        do throws(FileSystemError) {
            try GalleryFileSystem.makeFolders(path, permissions: .ownerReadWriteExecute)
        } catch {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: error.path,
                NSLocalizedDescriptionKey: "\(error.path): \(error.reason)"])
        }
    }

    struct DiskEntry {
        var path: FilePath
        var size: Int
        var lastUse: Int64
    }

    /// Every entry file on disk, with its size and last use (modification time, in ns).
    func scan() -> [DiskEntry] {
        var result: [DiskEntry] = []
        for folder in (try? GalleryFileSystem.entries(ofFolder: entriesFolder)) ?? [] {
            let folderPath = entriesFolder.appending(folder)
            for name in (try? GalleryFileSystem.entries(ofFolder: folderPath)) ?? [] where name.hasSuffix(".entry") {
                let path = folderPath.appending(name)
                guard let status = try? FileStatus.of(path, followingLinks: false), status.kind == .regularFile else { continue }
                result.append(DiskEntry(path: path, size: Int(status.size), lastUse: status.modifiedNanoseconds))
            }
        }
        return result
    }

    /// Evicts the least recently used entries until the disk layer fits its capacity, and
    /// removes temporary files a crashed writer left (older than an hour, so never one being
    /// written).
    public func trim() {
        var entries = scan()
        var total = entries.reduce(0) { $0 + $1.size }
        if total > configuration.diskCapacity {
            entries.sort { $0.lastUse < $1.lastUse }
            for entry in entries where total > configuration.diskCapacity {
                if (try? GalleryFileSystem.removeIfPresent(entry.path)) != nil { total -= entry.size }
            }
        }
        state.withLock { $0.diskBytesEstimate = total }
        let hourAgo = (WallClock.now.seconds - 3600) * 1_000_000_000
        for name in (try? GalleryFileSystem.entries(ofFolder: temporaryFolder)) ?? [] {
            let path = temporaryFolder.appending(name)
            if let status = try? FileStatus.of(path, followingLinks: false), status.modifiedNanoseconds < hourAgo {
                GalleryFileSystem.remove(path)
            }
        }
    }

    /// What is on disk now, by a scan of the entries folder, with the configured capacities: what
    /// `imagegallery cache info` prints.
    public func info() -> HTTPCacheInfo {
        let entries = scan()
        return HTTPCacheInfo(directory: FilePath(configuration.directory).appending("http").string, entries: entries.count,
                             bytes: entries.reduce(0) { $0 + $1.size }, diskCapacity: configuration.diskCapacity,
                             memoryCapacity: configuration.memoryCapacity)
    }

    /// Removes every entry; returns what was there.
    @discardableResult
    public func clear() throws -> HTTPCacheInfo {
        let before = info()
        for folder in [entriesFolder, temporaryFolder] {
            try GalleryFileSystem.removeTree(folder)
        }
        state.withLock { state in
            state.memory = [:]
            state.memoryBytes = 0
            state.diskBytesEstimate = 0
        }
        return before
    }
}
