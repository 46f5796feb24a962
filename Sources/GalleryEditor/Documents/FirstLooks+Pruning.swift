import GallerySystem
import SystemPackage

// The looks folder is a cache with a bound: at 100,000 images a gallery's look and list are
// 18 MB, and one is kept for every large gallery opened. The galleries used least recently (by
// their files' modification times, which a look given out renews) go first; the gallery just
// kept never does.
extension FirstLooks {
    /// The most the folder holds: about fourteen galleries of 100,000 images.
    static let capacity = 256 << 20

    /// Removes the looks and lists of the galleries used least recently until the folder is
    /// within `capacity`, keeping `key`'s.
    func prune(keeping key: String, capacity: Int = Self.capacity) {
        struct Kept {
            var files: [FilePath] = []
            var size = 0
            var lastUse = Int64.min
        }
        var galleries: [String: Kept] = [:]
        for name in (try? GalleryFileSystem.entries(ofFolder: folder)) ?? [] where name.hasSuffix(".look") || name.hasSuffix(".list") {
            let path = folder.appending(name)
            guard let status = try? FileStatus.of(path, followingLinks: false), status.kind == .regularFile else { continue }
            let stem = String(name.dropLast(5))
            galleries[stem, default: Kept()].files.append(path)
            galleries[stem]!.size += Int(status.size)
            galleries[stem]!.lastUse = max(galleries[stem]!.lastUse, status.modifiedNanoseconds)
        }
        var total = galleries.values.reduce(0) { $0 + $1.size }
        let own = "\(key)-\(count)"
        for (stem, kept) in galleries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where total > capacity && stem != own {
            kept.files.forEach(GalleryFileSystem.remove)
            total -= kept.size
        }
    }
}
