extension Manifest {
    /// Reads and decodes the manifest entry, within the size limit. A small one is read whole;
    /// a larger one is decoded as it is inflated on another core, through a window, so it is
    /// never in memory all at once. A read error (CRC, size, deflate) is thrown, not decoded:
    /// a verdict on bytes that are not the archive's would mislead.
    static func read(_ entry: ZipEntry, of archive: ZipArchive, limits: GalleryLimits, keepsText: Bool) throws -> ManifestDecoding {
        guard entry.uncompressedSize <= UInt64(limits.maxManifestBytes) else {
            throw GalleryError(.manifestTooLarge, "manifest.json declares \(entry.uncompressedSize) bytes; the limit is "
                               + "\(limits.maxManifestBytes)", location: Location(entry: entry.name))
        }
        // Below this, a reading thread costs more than it saves.
        let readWhole = 1 << 20
        if entry.uncompressedSize <= UInt64(readWhole) {
            return decode(try archive.readAll(entry, limit: readWhole), limits: limits, keepsText: keepsText)
        }
        let chunks = EntryChunks(entry, of: archive)
        let decoded = decode(source: chunks, limits: limits, keepsText: keepsText,
                             textBytes: Int(entry.uncompressedSize))
        chunks.drain()
        if let failure = chunks.readFailure { throw failure }
        return decoded
    }
}
