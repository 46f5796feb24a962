public import GallerySystem
import SystemPackage

/// Where a blob's bytes come from when a gallery is written.
public enum BlobSource: Sendable {
    /// A file on disk, which must still hold exactly `byteSize` bytes. Its bytes are read and
    /// their CRC computed on the way.
    case file(String)
    /// A file whose CRC-32 the caller computed while hashing it: copied inside the kernel
    /// (`copy_file_range`), never through user space. The caller must check, before the save
    /// commits, that the file did not change since (see `FileIdentity`).
    case checksummedFile(String, crc32: UInt32)
    /// Bytes in memory, exactly `byteSize` of them.
    case bytes([UInt8])
    /// An entry of an open archive (copying from the previous version of a gallery), read
    /// and its CRC computed on the way.
    case entry(ZipArchive, ZipEntry)
    /// A STORED entry of an open archive copied raw inside the kernel, with the CRC-32 its
    /// central directory holds: never decoded or re-hashed. The caller must check, before the
    /// save commits, that the archive's file did not change since it was opened.
    case storedEntry(ZipArchive, ZipEntry)
    /// Bytes made when the writer reaches the blob (another blob with its metadata stripped),
    /// held only while it is written: a gallery of rewritten blobs is never all in memory.
    case made(@Sendable () throws -> [UInt8])
}

/// Writes gallery files in the canonical v1 form, never leaving a partial file behind.
///
/// The same gallery and thumbnail give the same bytes: entry order, headers, times and the
/// manifest's JSON are all fixed by the format (section 4.10). The writer trusts the gallery's
/// `byteSize` and `sha256` for the bytes it is given: it checks each blob's size, not its
/// digest, so take both from the bytes themselves. Writing blocks on disk I/O.
public enum GalleryWriter {
    /// Writes `gallery` to `path` through a temporary file in the same folder, fsynced and
    /// renamed into place.
    ///
    /// - Parameters:
    ///   - gallery: The manifest's content; checked against the format's rules first.
    ///   - thumbnail: The bytes of `thumbnail.png`: an 8-bit PNG of the first image, long side
    ///     at most ``GalleryPackage/maxThumbnailSide``. They are stored as given.
    ///   - path: Where the gallery goes. Its folder holds the temporary file meanwhile.
    ///   - overwrite: Whether an existing file at `path` is replaced (in one rename); when
    ///     false it never is, and the write fails.
    ///   - durable: With false the flushes to disk are skipped: faster, and still never a
    ///     partial file while the system runs, but a crash soon after may leave the new file
    ///     incomplete.
    ///   - progress: Told the bytes of blobs written so far, after each blob.
    ///   - beforeCommit: Runs once the file is complete and flushed, just before it takes the
    ///     name `path`; throw to abandon the write (a source file that changed, say).
    ///   - blob: Where a blob's bytes are: called once per distinct blob, in gallery order.
    /// - Throws: the ``GalleryError`` of ``Gallery/checkRules(limits:)`` before anything is
    ///   written; ``DiagnosticCode/blobSizeMismatch`` for a source of the wrong size;
    ///   `FileSystemError` (kind `FileSystemError/Kind/alreadyExists` when `overwrite` is
    ///   false and `path` exists); whatever `blob` or `beforeCommit` throw. On any error the
    ///   file at `path` is untouched and no temporary file is left.
    public static func write(
        _ gallery: Gallery, thumbnail: [UInt8], to path: String, overwrite: Bool, durable: Bool = true,
        progress: ((_ bytesWritten: UInt64) -> Void)? = nil,
        beforeCommit: () throws -> Void = {},
        blob: (GalleryImage) throws -> BlobSource
    ) throws {
        // Before anything is written: a file no reader opens must never be made.
        try gallery.checkRules()
        try GalleryFileSystem.saveSafely(to: FilePath(path), replacing: overwrite, durable: durable, beforeCommit: beforeCommit) { file in
            try writeArchive(gallery, thumbnail: thumbnail, to: file, durable: durable, progress: progress, blob: blob)
        }
    }

    /// Writes the container into an open, empty file, for callers that manage the file's
    /// name themselves (a document's save swaps it in). Unlike
    /// ``write(_:thumbnail:to:overwrite:durable:progress:beforeCommit:blob:)`` it does not
    /// check the gallery's rules first, and it does not flush the file: the caller does both.
    /// With `durable` it starts writing the file back to disk as it goes, so that the
    /// caller's flush is short.
    ///
    /// - Throws: ``DiagnosticCode/blobSizeMismatch`` for a source of the wrong size;
    ///   `FileSystemError` for a failed write; whatever `blob` throws.
    public static func writeArchive(
        _ gallery: Gallery, thumbnail: [UInt8], to file: GalleryFile, durable: Bool = true,
        progress: ((_ bytesWritten: UInt64) -> Void)? = nil,
        blob: (GalleryImage) throws -> BlobSource
    ) throws {
        try writeArchive(gallery, thumbnail: thumbnail, to: file, durable: durable, zip64Threshold: ZipLimit.max32,
                         progress: progress, blob: blob)
    }

    static func writeArchive(
        _ gallery: Gallery, thumbnail: [UInt8], to file: GalleryFile, durable: Bool, zip64Threshold: UInt64,
        progress: ((_ bytesWritten: UInt64) -> Void)?,
        blob: (GalleryImage) throws -> BlobSource
    ) throws {
        let zip = ZipWriter(file: file, modified: gallery.modified, startsWriteback: durable, zip64Threshold: zip64Threshold)
        try zip.add(name: GalleryPackage.mimetypeEntry, bytes: Array(GalleryPackage.mediaType.utf8), method: .stored)
        // Streamed, so that the whole manifest is never in memory; its local header is written
        // before its size is known, so where sizes that large would need ZIP64 (tests lower the
        // threshold to reach those paths) it is made in memory instead.
        if zip64Threshold > UInt64(GalleryLimits.default.maxManifestBytes) * 2 {
            try zip.addDeflated(name: GalleryPackage.manifestEntry) { sink in try Manifest.write(gallery, to: sink) }
        } else {
            try zip.add(name: GalleryPackage.manifestEntry, bytes: Manifest.encode(gallery), method: .deflated)
        }
        try zip.add(name: GalleryPackage.thumbnailEntry, bytes: thumbnail, method: .stored)
        var written: UInt64 = 0
        // `distinctBlobs` without its copy of the image list (at 100,000 images, 17 MB at the
        // height of a save's memory).
        var stored = Set<SHA256Digest>(minimumCapacity: gallery.images.count)
        // Blobs of the file being replaced: the small ones read many to a call and written
        // with the writer's buffer, the rest copied inside the kernel.
        var window: StoredRunWindow?
        for image in gallery.images where stored.insert(image.sha256).inserted {
            let name = image.path
            let size = image.byteSize
            func sizeError(_ found: UInt64) -> GalleryError {
                GalleryError(.blobSizeMismatch, "the source holds \(found) bytes; the gallery says \(size)",
                             location: Location(entry: name))
            }
            switch try blob(image) {
            case .bytes(let bytes):
                guard UInt64(bytes.count) == size else { throw sizeError(UInt64(bytes.count)) }
                try zip.addStored(name: name, size: size) { sink in try bytes.withUnsafeBytes { try sink($0) } }
            case .made(let make):
                let bytes = try make()
                guard UInt64(bytes.count) == size else { throw sizeError(UInt64(bytes.count)) }
                try zip.addStored(name: name, size: size) { sink in try bytes.withUnsafeBytes { try sink($0) } }
            case .file(let sourcePath):
                let source = try GalleryFile.openForReading(FilePath(sourcePath))
                let found = try source.size
                guard found == size else { throw sizeError(found).inFile(sourcePath) }
                source.adviseSequential()
                try zip.addStored(name: name, size: size) { sink in
                    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ZipWriter.chunkSize, alignment: 64)
                    defer { buffer.deallocate() }
                    var offset: UInt64 = 0
                    while offset < size {
                        let want = Int(min(UInt64(buffer.count), size - offset))
                        let got = try source.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0 ..< want]))
                        if got == 0 { break }
                        try sink(UnsafeRawBufferPointer(rebasing: buffer[0 ..< got]))
                        offset += UInt64(got)
                    }
                }
            case .checksummedFile(let sourcePath, let crc32):
                let source = try GalleryFile.openForReading(FilePath(sourcePath))
                let found = try source.size
                guard found == size else { throw sizeError(found).inFile(sourcePath) }
                try zip.addStored(name: name, size: size, crc32: crc32) { destination, offset in
                    try destination.copy(from: source, at: 0, count: size, to: offset)
                }
            case .storedEntry(let archive, let entry):
                guard entry.uncompressedSize == size, entry.compressedSize == size else {
                    throw sizeError(entry.uncompressedSize).inFile(archive.file.path)
                }
                if size <= StoredRunWindow.smallEntry {
                    if window?.archive !== archive { window = StoredRunWindow(archive: archive) }
                    try window!.withData(of: entry) { bytes in try zip.addStored(name: name, crc32: entry.crc32, bytes: bytes) }
                    break
                }
                let start = try archive.dataOffset(of: entry)
                try zip.addStored(name: name, size: size, crc32: entry.crc32) { destination, offset in
                    try destination.copy(from: archive.file, at: start, count: size, to: offset)
                }
            case .entry(let archive, let entry):
                guard entry.uncompressedSize == size else { throw sizeError(entry.uncompressedSize).inFile(archive.file.path) }
                try zip.addStored(name: name, size: size) { sink in try archive.read(entry, sink: sink) }
            }
            written += size
            progress?(written)
        }
        try zip.finish()
    }
}
