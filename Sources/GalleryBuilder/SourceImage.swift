import FoundationEssentials
import GalleryFormat
import GalleryImageHeaders
import GalleryImaging
import GallerySystem
import SystemPackage

/// One image on its way into a gallery: a file given by path, an image fetched from a URL and
/// spooled to disk, or an archive entry written out. Only its description is held, never its
/// bytes, so that a gallery of any size is built in bounded memory.
public struct SourceImage: Sendable {
    /// What the image is called in messages: its path, its URL, or "archive: entry".
    public var name: String
    /// Where its bytes are now.
    public var path: String
    /// The header read from its bytes: media type and pixel size.
    public var header: ImageHeader
    /// Its length in bytes.
    public var byteSize: UInt64
    /// The SHA-256 of its bytes, which names its blob in the gallery.
    public var sha256: SHA256Digest
    /// The CRC-32 of its bytes, computed with the hash, so the ZIP writer copies the file
    /// inside the kernel instead of reading it again.
    public var crc32: UInt32
    /// The file name the gallery records (section 6), or nil.
    public var filename: String?
    /// The URL it was fetched from, recorded as the image's source, or nil.
    public var source: String?
    /// Seconds since 1970: a file's modification time, a URL's Last-Modified. The newest one
    /// dates a built gallery when no date is given.
    public var modified: Int64?
    /// The file's state when it was hashed. When set, a write refuses to commit if the file
    /// has changed since, because the gallery would then describe bytes it does not hold.
    public var identity: FileIdentity?
    /// The description the image carries of itself (EXIF, XMP, PNG text): its caption when no
    /// other is given. Set it to nil to leave the caption empty (`--no-captions`).
    public var description: String?

    /// Describes an image whose hash and CRC the caller has already computed (a fetch helper's
    /// spooled image, an archive entry written out).
    public init(name: String, path: String, header: ImageHeader, byteSize: UInt64, sha256: SHA256Digest, crc32: UInt32,
                filename: String? = nil, source: String? = nil, modified: Int64? = nil, identity: FileIdentity? = nil,
                description: String? = nil) {
        self.name = name
        self.path = path
        self.header = header
        self.byteSize = byteSize
        self.sha256 = sha256
        self.crc32 = crc32
        self.filename = filename
        self.source = source
        self.modified = modified
        self.identity = identity
        self.description = description
    }

    /// An image file the caller inspected, named by its own file name and dated by its
    /// modification time.
    public init(inspected file: InspectedImageFile) {
        self.init(name: file.path, path: file.path, header: file.header, byteSize: file.byteSize, sha256: file.sha256,
                  crc32: file.crc32, filename: GalleryFileSystem.fileName(of: file.path), source: nil,
                  modified: file.identity.modified.seconds, identity: file.identity, description: file.description)
    }

    /// Reads the header and hashes each file once, on all cores; the images come back in the
    /// order of `paths`. `progress` is called with the number done so far, from any thread.
    /// - Throws: `NotAnImageError` naming the first file that is not an image of a type the format takes, or a
    ///   `FileSystemError` naming a file that cannot be read.
    ///   With `accepted` types only (`--accept`), a file of another type is a `NotAnImageError`
    ///   that names its type and what is accepted.
    public static func inspect(files paths: [String], accepting accepted: Set<MediaType> = Set(MediaType.allCases),
                               progress: (@Sendable (Int) -> Void)? = nil) throws -> [SourceImage] {
        let inspected = try ImageFile.inspectAll(paths, progress: progress)
        if let refused = inspected.first(where: { !accepted.contains($0.header.mediaType) }) {
            throw NotAnImageError(path: refused.path, reason: ImageKind.supported(refused.header.mediaType).refusal(accepting: accepted)!)
        }
        return inspected.map(SourceImage.init(inspected:))
    }

    /// The manifest's record of this image, under `id`. A file name the format does not allow
    /// (section 6) is left out rather than refused: the name is a courtesy, the image is not.
    /// Without a `caption`, the image's own ``description`` is its caption.
    public func galleryImage(id: UUID, caption: String? = nil, added: Timestamp? = nil) -> GalleryImage {
        GalleryImage(id: id, mediaType: header.mediaType, width: header.width, height: header.height, byteSize: byteSize,
                     sha256: sha256, source: source, filename: filename.flatMap { GalleryImage.isSafeFilename($0) ? $0 : nil },
                     caption: caption ?? description, added: added)
    }

    /// Where the writer takes the bytes from: copied inside the kernel with the CRC known.
    var blob: BlobSource { .checksummedFile(path, crc32: crc32) }

    /// The whole image, for its thumbnail.
    func bytes() throws -> [UInt8] { try GalleryFile.openForReading(FilePath(path)).read(at: 0, count: Int(byteSize)) }
}
