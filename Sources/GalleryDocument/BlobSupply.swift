import GalleryFormat
import GalleryMetadata
import GallerySystem
import SystemPackage

/// Where the bytes of a blob the document refers to can be had, at save time.
indirect enum BlobSupply: Sendable {
    /// A file added by path: hashed and CRC'd when added, copied in the kernel when saved, and
    /// refused if it changed in between.
    case file(path: String, crc32: UInt32, identity: FileIdentity)
    case bytes([UInt8])
    /// Another gallery file (a version, or the document an image was transferred from). Its
    /// bytes are checked against the manifest's SHA-256 as they are copied.
    case gallery(GalleryReader)
    /// Another blob (`original`, had from `source`) without what `scope` names: made again
    /// whenever it is needed (the strip is the same every time), so that a stripped gallery
    /// is never held in memory whole.
    case stripped(original: GalleryImage, source: BlobSupply, scope: MetadataScope)

    /// The blob's bytes in memory; `image` is the one this supply holds the bytes of.
    func bytes(of image: GalleryImage) throws -> [UInt8] {
        switch self {
        case .bytes(let data):
            return data
        case .file(let source, _, _):
            return try GalleryFile.openForReading(FilePath(source)).read(at: 0, count: Int(image.byteSize))
        case .gallery(let other):
            return try other.blobBytes(image)
        case .stripped(let original, let source, let scope):
            // The original was checked against its digest when the strip was made; its digest
            // is the stripped bytes' own, recorded then.
            let bytes = if case .gallery(let other) = source { try other.blobBytesCheckedBefore(original) }
                else { try source.bytes(of: original) }
            return try ImageMetadata.strip(bytes, type: original.mediaType, scope: scope).bytes ?? bytes
        }
    }
}

extension GalleryReader {
    /// The entry's bytes copied raw (`copy_file_range`) with the CRC the central directory
    /// already holds: for the file a document was opened from, which the save checks has not
    /// changed before it commits.
    func rawBlobSource(for image: GalleryImage) throws -> BlobSource? {
        guard let entry = archive.entry(named: image.path), entry.method == .stored,
              entry.uncompressedSize == image.byteSize else { return nil }
        return .storedEntry(archive, entry)
    }
}

extension BlobSupply {
    /// Whether the bytes of `image` can still be had as they were: a file unchanged since it
    /// was added, a gallery whose entry still matches its digest (a program may have rewritten
    /// the file in place), bytes in memory always.
    func holdsIntact(_ image: GalleryImage) -> Bool {
        switch self {
        case .bytes: true
        case .file(let path, _, let identity): (try? FileIdentity.of(path: FilePath(path))) == identity
        case .gallery(let other): other.holdsIntact(image)
        case .stripped(let original, let source, _): source.holdsIntact(original)
        }
    }
}
