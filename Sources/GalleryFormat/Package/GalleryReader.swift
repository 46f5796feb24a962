import GalleryImageHeaders
internal import GallerySystem
import Synchronization
import SystemPackage

/// A gallery file opened for reading: its container checked, its manifest decoded.
///
/// Opening reads the end records, the central directory, every local header (so that the
/// entries a streaming reader would see are known to be these), `mimetype` and
/// `manifest.json`; no blob data is touched, so the cost does not grow with the size of the
/// images.
///
/// The file stays open for as long as the reader lives, and every read is positional: a file
/// replaced by rename meanwhile still reads as it was opened, and several threads may read
/// blobs from one reader at once.
public final class GalleryReader: Sendable {
    /// The container, checked: use it to reach entries other than the manifest, or as a
    /// ``BlobSource/entry(_:_:)`` when copying blobs into another gallery.
    public let archive: ZipArchive
    /// The manifest's content, decoded and checked against every rule of the format.
    public let gallery: Gallery
    /// Warnings and notes found while opening (never errors: those are thrown).
    public let diagnostics: [GalleryError]

    /// The path the file was opened by.
    public var path: String { archive.file.path }

    /// Opens a gallery file. The manifest is read and decoded on a second core while the
    /// central directory is checked on this one; the result is the same as doing it in turn.
    ///
    /// - Parameters:
    ///   - path: The gallery file.
    ///   - limits: Bounds on what the file may declare; the defaults are the format's.
    /// - Throws: `FileSystemError` when the file cannot be opened or read; ``GalleryError``
    ///   for the first problem of the container or the manifest.
    public convenience init(path: String, limits: GalleryLimits = .default) throws {
        let file = try GalleryFile.openForReading(FilePath(path))
        let prefetched = Mutex<(ZipEntry, Result<(Gallery, [GalleryError]), any Error>)?>(nil)
        let archive = try ZipArchive(file: file, limits: limits, prefetching: GalleryPackage.manifestEntry) { provisional, entry in
            let result = Result { try Self.readManifest(entry, from: provisional) }
            prefetched.withLock { $0 = (entry, result) }
        }
        try self.init(archive: archive, prefetched: prefetched.withLock { $0 })
    }

    /// Reads a gallery from a container opened already (a file held open by the caller, a
    /// version kept elsewhere): checks `mimetype` and the entries' layout, then decodes the
    /// manifest.
    ///
    /// - Throws: ``GalleryError`` for the first problem found.
    public convenience init(archive: ZipArchive) throws {
        try self.init(archive: archive, prefetched: nil)
    }

    /// A reader of a file this process has just written from `gallery` and still holds open (a
    /// document's save, read through the writer's own descriptor): what decoding its manifest
    /// again would give, without the cost. At 100,000 images that is a 37 MB manifest and
    /// 100,000 local headers, read back after every save, and a second copy of the image list.
    ///
    /// The central directory is read and checked as for any file (`archive`), and so are
    /// `mimetype` and every local header: a reader's guarantee does not depend on who wrote the
    /// file (the walk costs a fraction of the decoding it replaces, its reads batched and on
    /// every core: `ZipArchive+EntryExtents`).
    ///
    /// - Parameters:
    ///   - archive: The container just written, opened on the writer's descriptor.
    ///   - gallery: The gallery its manifest was encoded from.
    /// - Throws: ``GalleryError`` when `mimetype` or the manifest's entry is not where the
    ///   writer puts them.
    package convenience init(written archive: ZipArchive, from gallery: Gallery) throws {
        var decoded = gallery
        // What a decoder of the written manifest reads: the writer writes the lowest version
        // that expresses the gallery.
        decoded.formatVersion = gallery.writtenFormatVersion
        try self.init(archive: archive, decoded: decoded)
    }

    private init(archive: ZipArchive, decoded gallery: Gallery) throws {
        self.archive = archive
        try Self.checkMimetype(archive)
        let layout = try archive.scanLayout()
        guard archive.entry(named: GalleryPackage.manifestEntry) != nil else {
            throw GalleryError(.manifestMissing, "the archive has no manifest.json", location: Location(file: archive.file.path))
        }
        self.gallery = gallery
        diagnostics = layout
    }

    private init(archive: ZipArchive, prefetched: (ZipEntry, Result<(Gallery, [GalleryError]), any Error>)?) throws {
        self.archive = archive
        try Self.checkMimetype(archive)
        // Every reader, not only the validator: a file must show a streaming reader the
        // entries it shows us (format, section 9.2).
        let layout = try archive.scanLayout()
        guard let manifestEntry = archive.entry(named: GalleryPackage.manifestEntry) else {
            throw GalleryError(.manifestMissing, "the archive has no manifest.json", location: Location(file: archive.file.path))
        }
        // Use the early read only if it read exactly the entry the full parse found.
        let (gallery, notes) = if let (entry, result) = prefetched, entry == manifestEntry {
            try result.get()
        } else {
            try Self.readManifest(manifestEntry, from: archive)
        }
        self.gallery = gallery
        diagnostics = layout + notes
    }

    /// Reads and decodes `manifest.json`, within the manifest size limit, decoding each part
    /// as soon as it is inflated.
    private static func readManifest(_ entry: ZipEntry, from archive: ZipArchive) throws -> (Gallery, [GalleryError]) {
        let path = archive.file.path
        let result: ManifestDecoding
        do {
            result = try Manifest.read(entry, of: archive, limits: archive.limits, keepsText: true)
        } catch let error as GalleryError {
            throw error.inFile(path)
        }
        if let error = result.firstError { throw error.inFile(path) }
        guard let gallery = result.gallery else {
            throw GalleryError(.jsonSyntax, "manifest.json could not be read", location: Location(file: path, entry: entry.name))
        }
        return (gallery, result.diagnostics.map { $0.inFile(path) })
    }

    /// The `mimetype` rules that make the type detectable at bytes 30 and 38.
    static func checkMimetype(_ archive: ZipArchive) throws {
        let path = archive.file.path
        guard let entry = archive.entry(named: GalleryPackage.mimetypeEntry) else {
            throw GalleryError(.mimetypeMissing, "the archive has no mimetype entry", location: Location(file: path))
        }
        let here = Location(file: path, entry: entry.name, offset: entry.localHeaderOffset)
        guard entry.index == 0, entry.localHeaderOffset == 0 else {
            throw GalleryError(.mimetypeNotFirst, "mimetype must be the first entry, at offset 0", location: here)
        }
        guard entry.method == .stored else {
            throw GalleryError(.mimetypeCompressed, "mimetype must be stored, not compressed", location: here)
        }
        let local = try archive.localHeader(of: entry)
        guard local.header.flags & ZipFlag.dataDescriptor == 0 else {
            throw GalleryError(.mimetypeDataDescriptor, "mimetype must not use a data descriptor", location: here)
        }
        guard local.extra.isEmpty else {
            throw GalleryError(.mimetypeExtraField, "mimetype's local header has a \(local.extra.count)-byte extra field, "
                               + "which moves the type string off byte 38", location: here)
        }
        let expected = Array(GalleryPackage.mediaType.utf8)
        let content = try archive.readAll(entry, limit: 256)
        guard content == expected else {
            let shown = String(decoding: content.prefix(80), as: UTF8.self).debugDescription
            throw GalleryError(.mimetypeContent, "mimetype holds \(shown), not exactly \"\(GalleryPackage.mediaType)\"",
                               location: here)
        }
    }

    /// The entry holding an image's blob.
    ///
    /// - Throws: ``GalleryError`` with ``DiagnosticCode/blobMissing`` when the archive has no
    ///   entry at ``GalleryImage/path``.
    public func blobEntry(for image: GalleryImage) throws -> ZipEntry {
        guard let entry = archive.entry(named: image.path) else {
            throw GalleryError(.blobMissing, "the manifest lists \(image.path) but the archive has no such entry",
                               location: Location(file: path, entry: image.path))
        }
        return entry
    }

    /// Streams an image's bytes, checking CRC-32, size, SHA-256 and the media type's signature against
    /// the manifest.
    /// The sink may have received data before a mismatch is thrown: callers write to a
    /// temporary place and keep it only on success.
    ///
    /// - Throws: ``GalleryError`` with ``DiagnosticCode/blobMissing``,
    ///   ``DiagnosticCode/blobSizeMismatch``, ``DiagnosticCode/crcMismatch``,
    ///   ``DiagnosticCode/blobHashMismatch`` or ``DiagnosticCode/blobTypeMismatch``; whatever
    ///   `sink` throws, which stops the read.
    public func readBlob(_ image: GalleryImage, sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        let entry = try blobEntry(for: image)
        let here = Location(file: path, entry: entry.name)
        try Self.checkSize(of: entry, against: image, here)
        var hasher = SHA256Hasher()
        var head: [UInt8] = []
        try archive.read(entry) { chunk in
            if head.count < ImageKind.identifyingBytes { head += chunk.prefix(ImageKind.identifyingBytes - head.count) }
            hasher.update(chunk)
            try sink(chunk)
        }
        try Self.checkDigest(hasher.finalize(), against: image, here)
        // Size and digest can agree with a manifest that calls a GIF or a ZIP image/png: such
        // bytes are never handed out as an image (format section 5).
        try Self.checkType(MediaType.sniff(head), against: image, here)
    }

    // The checks of a blob against the manifest, in the order readers make them: size, then
    // digest, then type.
    static func checkSize(of entry: ZipEntry, against image: GalleryImage, _ here: Location) throws {
        guard entry.uncompressedSize == image.byteSize else {
            throw GalleryError(.blobSizeMismatch, "the entry holds \(entry.uncompressedSize) bytes; the manifest says "
                               + "\(image.byteSize)", location: here)
        }
    }

    static func checkDigest(_ digest: SHA256Digest, against image: GalleryImage, _ here: Location) throws {
        guard digest == image.sha256 else {
            throw GalleryError(.blobHashMismatch, "the blob's SHA-256 is \(digest.hex), not \(image.sha256.hex) as the "
                               + "manifest says", location: here)
        }
    }

    static func checkType(_ sniffed: MediaType?, against image: GalleryImage, _ here: Location) throws {
        guard sniffed == image.mediaType else {
            let found = sniffed.map { "\($0.rawValue) by its first bytes" } ?? "of no type the format takes by its first bytes"
            throw GalleryError(.blobTypeMismatch, "the blob is \(found); the manifest says \(image.mediaType.rawValue)",
                               location: here)
        }
    }

    /// The embedded thumbnail's bytes (bounded by the thumbnail size limit).
    ///
    /// - Parameter limit: The most bytes read; a larger entry is refused rather than read.
    /// - Throws: ``GalleryError`` with ``DiagnosticCode/thumbnailMissing`` when there is no
    ///   `thumbnail.png`, ``DiagnosticCode/zipBomb`` for one that declares more than `limit`
    ///   bytes, or the error of bytes that fail their CRC-32 or do not inflate.
    public func thumbnail(limit: Int = 16 << 20) throws -> [UInt8] {
        guard let entry = archive.entry(named: GalleryPackage.thumbnailEntry) else {
            throw GalleryError(.thumbnailMissing, "the archive has no thumbnail.png", location: Location(file: path))
        }
        return try archive.readAll(entry, limit: limit)
    }
}
