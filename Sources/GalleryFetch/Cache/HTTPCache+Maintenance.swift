#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What `imagegallery cache info` reports.
public struct HTTPCacheInfo: Sendable, Hashable, Codable {
    public var directory: String
    public var entries: Int
    public var bytes: Int
    public var diskCapacity: Int
    public var memoryCapacity: Int
}

extension HTTPCache {
    struct DiskEntry {
        var path: String
        var size: Int
        var lastUse: Int64
    }

    /// Every entry file on disk, with its size and last use (modification time, in ns).
    func scan() -> [DiskEntry] {
        var result: [DiskEntry] = []
        let fileManager = FileManager.default
        for folder in (try? fileManager.contentsOfDirectory(atPath: entriesFolder)) ?? [] {
            let folderPath = entriesFolder + "/" + folder
            for name in (try? fileManager.contentsOfDirectory(atPath: folderPath)) ?? [] where name.hasSuffix(".entry") {
                let path = folderPath + "/" + name
                var status = stat()
                guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
                result.append(DiskEntry(path: path, size: Int(status.st_size),
                                        lastUse: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)))
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
                if unlink(entry.path) == 0 || errno == ENOENT { total -= entry.size }
            }
        }
        state.withLock { $0.diskBytesEstimate = total }
        let hourAgo = time(nil) - 3600
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporaryFolder)) ?? [] {
            var status = stat()
            let path = temporaryFolder + "/" + name
            if lstat(path, &status) == 0, status.st_mtim.tv_sec < hourAgo { unlink(path) }
        }
    }

    public func info() -> HTTPCacheInfo {
        let entries = scan()
        return HTTPCacheInfo(directory: configuration.directory + "/http", entries: entries.count,
                             bytes: entries.reduce(0) { $0 + $1.size }, diskCapacity: configuration.diskCapacity,
                             memoryCapacity: configuration.memoryCapacity)
    }

    /// Removes every entry; returns what was there.
    @discardableResult
    public func clear() throws -> HTTPCacheInfo {
        let before = info()
        let fileManager = FileManager.default
        for folder in [entriesFolder, temporaryFolder] where fileManager.fileExists(atPath: folder) {
            try fileManager.removeItem(atPath: folder)
        }
        state.withLock { state in
            state.memory = [:]
            state.memoryBytes = 0
            state.diskBytesEstimate = 0
        }
        return before
    }
}
