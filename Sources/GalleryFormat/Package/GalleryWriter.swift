/// Where a blob's bytes come from when a gallery is written.
public enum BlobSource: Sendable {
    /// A file on disk, which must still hold exactly `byteSize` bytes. Its bytes are read and
    /// their CRC computed on the way.
    case file(String)
    /// A file whose CRC-32 the caller computed while hashing it: copied inside the kernel
    /// (`copy_file_range`), never through user space. The caller must check, before the save
    /// commits, that the file did not change since (see `FileIdentity`).
    case checksummedFile(String, crc32: UInt32)
    case bytes([UInt8])
    /// An entry of an open archive (copying from the previous version of a gallery), read
    /// and its CRC computed on the way.
    case entry(ZipArchive, ZipEntry)
    /// A STORED entry of an open archive copied raw inside the kernel, with the CRC-32 its
    /// central directory holds: never decoded or re-hashed. The caller must check, before the
    /// save commits, that the archive's file did not change since it was opened.
    case storedEntry(ZipArchive, ZipEntry)
}

/// Writes gallery files in the canonical v1 form, never leaving a partial file behind.
public enum GalleryWriter {
    /// Writes `gallery` to `path` through a temporary file in the same folder, fsynced and
    /// renamed into place. With `overwrite` false an existing file is never replaced. With
    /// `durable` false the flushes to disk are skipped: faster, and still never a partial file
    /// while the system runs, but a crash soon after may leave the new file incomplete.
    public static func write(
        _ gallery: Gallery, thumbnail: [UInt8], to path: String, overwrite: Bool, durable: Bool = true,
        progress: ((_ bytesWritten: UInt64) -> Void)? = nil,
        beforeCommit: () throws -> Void = {},
        blob: (GalleryImage) throws -> BlobSource
    ) throws {
        // Before anything is written: a file no reader opens must never be made.
        try gallery.checkRules()
        try GalleryFileSystem.saveSafely(to: path, replacing: overwrite, durable: durable, beforeCommit: beforeCommit) { file in
            try writeArchive(gallery, thumbnail: thumbnail, to: file, durable: durable, progress: progress, blob: blob)
        }
    }

    /// Writes the container into an open, empty file.
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
        try zip.add(name: GalleryPackage.manifestEntry, bytes: Manifest.encode(gallery), method: .deflated)
        try zip.add(name: GalleryPackage.thumbnailEntry, bytes: thumbnail, method: .stored)
        var written: UInt64 = 0
        for image in gallery.distinctBlobs {
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
            case .file(let sourcePath):
                let source = try GalleryFile.openForReading(sourcePath)
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
                let source = try GalleryFile.openForReading(sourcePath)
                let found = try source.size
                guard found == size else { throw sizeError(found).inFile(sourcePath) }
                try zip.addStored(name: name, size: size, crc32: crc32) { destination, offset in
                    try destination.copy(from: source, at: 0, count: size, to: offset)
                }
            case .storedEntry(let archive, let entry):
                guard entry.uncompressedSize == size, entry.compressedSize == size else {
                    throw sizeError(entry.uncompressedSize).inFile(archive.file.path)
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
