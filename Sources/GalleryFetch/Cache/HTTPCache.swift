import Foundation
import GalleryFormat
import GallerySystem
import Synchronization
import SystemPackage

/// A private HTTP cache (RFC 9111): one file per response on disk, shared safely by several
/// processes, with a small memory layer in front. Sizes default to the seed apps' URLCache:
/// 4 MiB in memory, 80 MiB on disk, both evicted least recently used first.
///
/// Entries are written to a temporary file and renamed into place, so a reader sees a whole
/// old entry or a whole new one. Each carries the SHA-256 of its body and its own URL; an
/// entry that fails either check (a crash mid-write, a disk error, tampering) is deleted and
/// treated as a miss, never served.
public final class HTTPCache: Sendable {
    /// Where the cache lives and how much it may hold, in memory and on disk.
    public struct Configuration: Sendable, Hashable {
        /// The cache's folder; entries live in its `http/` subfolder.
        public var directory: String
        /// Bytes of bodies this cache object holds in memory, least recently used evicted first.
        public var memoryCapacity: Int
        /// Bytes of entries on disk, shared by every process using the folder; past it, the least
        /// recently used are removed.
        public var diskCapacity: Int

        /// A configuration; the defaults are the seed apps' URLCache sizes in the user's cache folder.
        public init(directory: String = HTTPCache.defaultDirectory, memoryCapacity: Int = 4 << 20,
                    diskCapacity: Int = 80 << 20) {
            self.directory = directory
            self.memoryCapacity = memoryCapacity
            self.diskCapacity = diskCapacity
        }

        /// The largest body kept on disk: a quarter of the capacity, so one image cannot
        /// evict everything else. (URLCache's rule, 5%, would refuse ordinary 4 MB photos.)
        public var largestDiskEntry: Int { diskCapacity / 4 }
        /// The largest body kept in memory.
        public var largestMemoryEntry: Int { memoryCapacity / 4 }
    }

    /// `$XDG_CACHE_HOME/imagegallery`, else `~/.cache/imagegallery`.
    public static var defaultDirectory: String { UserFolders.cache().string }

    /// The folder and sizes this cache was made with.
    public let configuration: Configuration
    let entriesFolder: FilePath
    let temporaryFolder: FilePath
    let state = Mutex(State())

    struct State {
        var memory: [String: (response: CachedResponse, lastUse: UInt64)] = [:]
        var memoryBytes = 0
        var clock: UInt64 = 0
        /// Bytes on disk as of the last scan plus what this process wrote since; nil before a scan.
        var diskBytesEstimate: Int?
        var discarded: [String] = []
    }

    /// A cache in `configuration.directory`. Nothing is touched on disk until a response is looked
    /// up or stored, so making one is free.
    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
        entriesFolder = FilePath(configuration.directory).appending(["http", "v1"])
        temporaryFolder = FilePath(configuration.directory).appending(["http", "tmp"])
    }

    /// URLs of entries found corrupt and deleted by this instance, for a warning.
    public var discardedEntries: [String] { state.withLock { $0.discarded } }

    /// The cache key of a URL: the URL without its fragment (RFC 9111 section 2).
    public static func key(for url: String) -> String {
        url.firstIndex(of: "#").map { String(url[..<$0]) } ?? url
    }

    func entryPath(for key: String) -> FilePath {
        let hex = SHA256Hasher.of(Array(key.utf8)).hex
        return entriesFolder.appending([FilePath.Component(String(hex.prefix(2)))!, FilePath.Component(hex + ".entry")!])
    }

    // MARK: Lookup and store

    /// The stored response for a URL, from memory or disk; nil on a miss.
    public func lookup(_ url: String) -> CachedResponse? {
        let key = Self.key(for: url)
        if let hit = state.withLock({ state -> CachedResponse? in
            guard let entry = state.memory[key] else { return nil }
            state.clock += 1
            state.memory[key]!.lastUse = state.clock
            return entry.response
        }) {
            return hit
        }
        let path = entryPath(for: key)
        switch CacheEntryFile.read(path, key: key, limit: configuration.largestDiskEntry) {
        case .missing:
            return nil
        case .corrupt:
            GalleryFileSystem.remove(path)
            state.withLock { $0.discarded.append(key) }
            return nil
        case .entry(let response):
            // The modification time is the disk layer's LRU clock.
            GalleryFileSystem.markUsed(path)
            remember(response)
            return response
        }
    }

    /// Stores a response if RFC 9111 allows and it fits; a `no-store` response also removes
    /// what was stored for its URL.
    public func store(_ response: CachedResponse) {
        var response = response
        response.url = Self.key(for: response.url)
        guard response.isStorable else {
            if response.cacheControl.noStore { remove(response.url) }
            return
        }
        guard response.body.count <= configuration.largestDiskEntry else { return }
        remember(response)
        do {
            let written = try CacheEntryFile.write(response, to: entryPath(for: response.url), temporaryFolder: temporaryFolder)
            let overCapacity = state.withLock { state -> Bool in
                guard let estimate = state.diskBytesEstimate else { return true }
                state.diskBytesEstimate = estimate + written
                return estimate + written > configuration.diskCapacity
            }
            if overCapacity { trim() }
        } catch {
            // A cache that cannot write (read-only home, full disk) still lets the fetch succeed.
        }
    }

    /// Forgets what is stored for `url` (its fragment ignored), on disk and in memory; nothing
    /// happens when nothing is stored.
    public func remove(_ url: String) {
        let key = Self.key(for: url)
        GalleryFileSystem.remove(entryPath(for: key))
        state.withLock { state in
            if let old = state.memory.removeValue(forKey: key) { state.memoryBytes -= old.response.body.count }
        }
    }

    private func remember(_ response: CachedResponse) {
        guard response.body.count <= configuration.largestMemoryEntry else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.memory.updateValue((response, state.clock), forKey: response.url) {
                state.memoryBytes -= old.response.body.count
            }
            state.memoryBytes += response.body.count
            while state.memoryBytes > configuration.memoryCapacity,
                  let oldest = state.memory.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.memory[oldest.key] = nil
                state.memoryBytes -= oldest.value.response.body.count
            }
        }
    }
}
