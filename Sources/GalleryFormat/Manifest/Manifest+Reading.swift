internal import GallerySystem

extension Manifest {
    /// Deflated manifests up to this size are inflated whole, the larger ones as they are decoded.
    static let inflatedWhole = 8 << 20

    /// Reads and decodes the manifest entry, within the size limit. A small one is read whole
    /// (a deflated one of up to `inflatedWhole` bytes by one call of libdeflate); a larger one is
    /// decoded as it is inflated on another core, through a window, so it is never in memory
    /// all at once. A read error (CRC, size, deflate) is thrown, not decoded:
    /// a verdict on bytes that are not the archive's would mislead.
    static func read(_ entry: ZipEntry, of archive: ZipArchive, limits: GalleryLimits, keepsText: Bool) throws -> ManifestDecoding {
        guard entry.uncompressedSize <= UInt64(limits.maxManifestBytes) else {
            throw GalleryError(.manifestTooLarge, "manifest.json declares \(entry.uncompressedSize) bytes; the limit is "
                               + "\(limits.maxManifestBytes)", location: Location(entry: entry.name))
        }
        // Below this, a reading thread costs more than it saves (`readAll` inflates a deflated
        // one whole too).
        let readWhole = 1 << 20
        if entry.uncompressedSize <= UInt64(readWhole) {
            return decode(try archive.readAll(entry, limit: readWhole), limits: limits, keepsText: keepsText)
        }
        // A deflated manifest of a few megabytes (10,000 photos') is inflated faster whole, into
        // memory of its own, than in pieces beside its decoding. One that fails the whole
        // inflation is read as it is decoded, which says what is wrong.
        if entry.method == .deflated, entry.uncompressedSize <= UInt64(inflatedWhole),
           let text = HugePageBuffer(count: Int(entry.uncompressedSize)), archive.inflateWhole(entry, into: text.bytes) {
            return withExtendedLifetime(text) {
                decode(text: UnsafeRawBufferPointer(text.bytes), limits: limits, keepsText: keepsText)
            }
        }
        let chunks = EntryChunks(entry, of: archive)
        let decoded = decode(source: chunks, limits: limits, keepsText: keepsText,
                             textBytes: Int(entry.uncompressedSize))
        chunks.drain()
        if let failure = chunks.readFailure { throw failure }
        return decoded
    }
}
