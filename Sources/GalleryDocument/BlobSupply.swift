import GalleryFormat
import GallerySystem

/// Where the bytes of a blob the document refers to can be had, at save time.
enum BlobSupply: Sendable {
    /// A file added by path: hashed and CRC'd when added, copied in the kernel when saved, and
    /// refused if it changed in between.
    case file(path: String, crc32: UInt32, identity: FileIdentity)
    case bytes([UInt8])
    /// Another gallery file (a version, or the document an image was transferred from). Its
    /// bytes are checked against the manifest's SHA-256 as they are copied.
    case gallery(GalleryReader)
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
