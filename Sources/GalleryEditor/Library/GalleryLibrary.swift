import Foundation
import GalleryFormat
import GallerySystem
import SystemPackage

/// One gallery of the opened folders, as the document browser shows it.
package struct GallerySummary: Codable, Sendable, Hashable {
    /// The editor's name for the file: a digest of its resolved path. Requests name galleries
    /// by key only, never by path, so a client cannot point the server at any other file.
    package var key: String
    package var fileName: String
    package var folder: String
    package var title: String?
    package var imageCount: Int?
    package var byteSize: Int64
    /// Milliseconds since 1970, for sorting and for the page to format.
    package var modified: Int64
    /// Why the file could not be read, when it could not.
    package var problem: String?
}

/// The galleries in the opened folders, read again whenever asked: a file another program
/// added, removed or changed shows as it is now. Each file's manifest is read once per change
/// of its size, time or inode.
package actor GalleryLibrary {
    package let roots: EditorRoots
    var cache: [String: (fingerprint: [Int64], summary: GallerySummary, path: String)] = [:]
    /// How many gallery files listings have read, rather than taken from memory: what the
    /// cache and ``remember(_:path:reader:identity:)`` spare (each read is a whole manifest).
    package private(set) var filesRead = 0
    /// Galleries an open document is saving. A listing shows what it knew of them until the
    /// save tells it what it wrote (`remember`): the folder's watch lists galleries 150 ms after
    /// the swap, and reading the new file then was a second whole gallery in memory beside the
    /// saving document's (72 MB at 100,000 images, the editor's peak).
    private var beingSaved: Set<String> = []

    package init(roots: EditorRoots) { self.roots = roots }

    /// The key of a resolved path.
    package static func key(of resolvedPath: String) -> String {
        EditorAccess.hex(SHA256Hasher.of(Array(resolvedPath.utf8)).bytes.prefix(12))
    }

    /// Every gallery now, in file-name order.
    package func galleries() -> [GallerySummary] {
        var found: [String: GallerySummary] = [:]
        var paths: [String: String] = [:]
        for candidate in candidatePaths() {
            guard let resolved = try? GalleryFileSystem.resolvedPath(FilePath(candidate)).string, roots.contains(resolved),
                  let status = try? FileStatus.of(FilePath(resolved), followingLinks: true), status.kind == .regularFile else { continue }
            let key = Self.key(of: resolved)
            let fingerprint = Self.fingerprint(size: status.size, modifiedNanoseconds: status.modifiedNanoseconds, inode: status.inode)
            if let known = cache[key], known.fingerprint == fingerprint || beingSaved.contains(key) {
                found[key] = known.summary
                cache[key] = (known.fingerprint, known.summary, resolved)
            } else {
                found[key] = Self.summary(of: resolved, key: key, status: status)
                filesRead += 1
                cache[key] = (fingerprint, found[key]!, resolved)
            }
            paths[key] = resolved
        }
        cache = cache.filter { found[$0.key] != nil }
        return found.values.sorted { NaturalOrder.areInIncreasingOrder($0.fileName, $1.fileName) }
    }

    /// The file behind `key`, checked again: it must still be a gallery inside the opened paths.
    package func path(forKey key: String) throws -> String {
        // Found by its name alone: a page that opens a gallery straight away (the launch link)
        // must not wait for every manifest of the folder to be read for the listing first.
        guard let path = cache[key]?.path ?? locate(key) else { throw EditorError.noSuchGallery(key) }
        guard let resolved = try? GalleryFileSystem.resolvedPath(FilePath(path)).string, GalleryFileSystem.isSamePath(resolved, path), roots.contains(resolved) else {
            throw EditorError.outsideOpenedPaths(path)
        }
        return path
    }

    /// Forgets what was read of a file, so that the next listing reads it again.
    package func invalidate(_ key: String) {
        cache[key] = nil
        beingSaved.remove(key)
    }

    /// Marks the file `key` as being saved by an open document, or no longer: see `beingSaved`.
    /// The save's end must clear it (with ``remember(_:path:reader:identity:)`` after it, or
    /// ``invalidate(_:)`` when it failed), or the listing keeps the old summary.
    package func setSaving(_ key: String, _ saving: Bool) {
        if saving { beingSaved.insert(key) } else { beingSaved.remove(key) }
    }

    /// Whether a save of `key` holds the listing's summary of it.
    package func isBeingSaved(_ key: String) -> Bool { beingSaved.contains(key) }

    /// Takes what a file holds from a reader that has it open already (an open document's, after
    /// it opened or saved the file), so that the next listing reads no gallery: a full read is a
    /// whole manifest, 37 MB at 100,000 images, for a title and a count. Kept under the identity
    /// the file had when `reader` read or wrote it: if the file at the path is another one by the
    /// time of the listing, the listing reads it as usual.
    package func remember(_ key: String, path: String, reader: GalleryReader, identity: FileIdentity) {
        let modified = identity.modifiedSeconds * 1_000_000_000 + identity.modifiedNanoseconds
        var summary = Self.summary(of: path, key: key, size: Int64(identity.size), modifiedNanoseconds: modified)
        summary.title = reader.gallery.title
        summary.imageCount = reader.gallery.images.count
        cache[key] = (Self.fingerprint(size: summary.byteSize, modifiedNanoseconds: modified, inode: identity.inode), summary, path)
    }

    /// What tells one state of a file from another for the listing: size, time and inode.
    private static func fingerprint(size: Int64, modifiedNanoseconds: Int64, inode: UInt64) -> [Int64] {
        [size, modifiedNanoseconds, Int64(bitPattern: inode)]
    }

    /// The gallery file whose key is `key`, without reading any gallery.
    private func locate(_ key: String) -> String? {
        for candidate in candidatePaths() {
            guard let resolved = try? GalleryFileSystem.resolvedPath(FilePath(candidate)).string, Self.key(of: resolved) == key,
                  roots.contains(resolved), let status = try? FileStatus.of(FilePath(resolved), followingLinks: true),
                  status.kind == .regularFile else { continue }
            return resolved
        }
        return nil
    }

    private func candidatePaths() -> [String] {
        var paths: [String] = []
        for root in roots.roots {
            guard root.isFolder else {
                paths.append(root.path)
                continue
            }
            let folder = FilePath(root.path)
            let names = (try? GalleryFileSystem.entries(ofFolder: folder)) ?? []
            for name in names where name.lowercased().hasSuffix(".imagegallery") && !GalleryFileSystem.isHidden(name) {
                paths.append(folder.appending(name).string)
            }
        }
        return paths
    }

    /// A file's summary without what its manifest says.
    private static func summary(of path: String, key: String, size: Int64, modifiedNanoseconds: Int64) -> GallerySummary {
        GallerySummary(key: key, fileName: GalleryFileSystem.fileName(of: path), folder: GalleryFileSystem.directory(of: path),
                       byteSize: size, modified: modifiedNanoseconds / 1_000_000)
    }

    private static func summary(of path: String, key: String, status: FileStatus) -> GallerySummary {
        var summary = summary(of: path, key: key, size: status.size, modifiedNanoseconds: status.modifiedNanoseconds)
        do {
            let reader = try GalleryReader(path: path)
            summary.title = reader.gallery.title
            summary.imageCount = reader.gallery.images.count
        } catch {
            summary.problem = "\(error)"
        }
        return summary
    }
}
