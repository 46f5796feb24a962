import GalleryFormat
import GallerySystem
import SystemPackage

/// What a document last read or wrote on disk, to tell later whether someone else wrote since.
///
/// The identity (device, inode, size, mtime and ctime in nanoseconds) changes on any write:
/// even a writer that restores the mtime (`touch -r`) cannot restore the ctime. The content
/// fingerprint covers file systems whose times are coarse or lie (network and FAT mounts):
/// SHA-256 of the size, the first 64 KiB and the last 64 KiB. A gallery's head holds the
/// manifest's local header and its CRC-32, and every content change rewrites the manifest, so
/// two valid galleries that differ have different fingerprints; it costs two small reads
/// where a whole-file hash would cost as much as the save.
struct DiskRecord: Sendable, Hashable {
    var identity: FileIdentity
    var fingerprint: SHA256Digest

    static let window = 64 << 10

    static func of(path: FilePath) throws -> DiskRecord {
        let file = try GalleryFile.openForReading(path)
        let identity = try file.identity()
        return DiskRecord(identity: identity, fingerprint: try fingerprint(file, size: identity.size))
    }

    static func fingerprint(_ file: GalleryFile, size: UInt64) throws -> SHA256Digest {
        var hasher = SHA256Hasher()
        withUnsafeBytes(of: size.littleEndian) { hasher.update($0) }
        hasher.update(try file.read(at: 0, count: window))
        if size > UInt64(window) {
            let tail = max(UInt64(window), size - UInt64(window))
            hasher.update(try file.read(at: tail, count: Int(size - tail)))
        }
        return hasher.finalize()
    }

    /// Whether the file at `path` still holds what this record saw. A changed identity with
    /// the same fingerprint (chmod, touch, a copy of the same bytes) is not a change of content.
    func matches(path: FilePath) throws -> (same: Bool, now: DiskRecord?) {
        guard PathKind.of(path) != .missing else { return (false, nil) }
        let file = try GalleryFile.openForReading(path)
        let now = try file.identity()
        if now == identity { return (true, self) }
        let record = DiskRecord(identity: now, fingerprint: try Self.fingerprint(file, size: now.size))
        return (record.fingerprint == fingerprint, record)
    }
}
