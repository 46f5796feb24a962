import FoundationEssentials
import GalleryImageHeaders

/// An image gallery: a title and an ordered list of images. The manifest's content.
public struct Gallery: Sendable, Hashable {
    /// The format version the manifest declares. A writer writes ``writtenFormatVersion``.
    public var formatVersion: FormatVersion
    /// The document's identity, stable across saves.
    public var id: UUID
    /// The identity of this saved state; a new one on every save that changes content.
    public var revision: UUID
    /// The gallery's title: at most 1,000 Unicode scalars, no U+0000.
    public var title: String
    /// When the document was first written.
    public var created: Timestamp
    /// When the content was last saved; also the time of every ZIP entry.
    public var modified: Timestamp
    /// The program that wrote the file ("imagegallery 0.2.0"), for diagnosing files in the wild.
    public var generator: String?
    /// Gallery order.
    public var images: [GalleryImage]
    /// The id of the image the owner chose to stand for the gallery (format 1.1 and 2.1), or nil
    /// for the first image. It names an image of `images`; see ``coverImage``.
    public var cover: UUID?
    /// Top-level members this implementation does not know, kept from the file it was read from
    /// and written again on save (section 8).
    public var keptMembers: [ManifestMember] = []

    /// A gallery from its parts; an empty one unless `images` are given.
    public init(
        id: UUID, revision: UUID, title: String, created: Timestamp, modified: Timestamp,
        generator: String? = Gallery.generatorName, images: [GalleryImage] = [],
        formatVersion: FormatVersion = .one, cover: UUID? = nil
    ) {
        self.formatVersion = formatVersion
        self.id = id
        self.revision = revision
        self.title = title
        self.created = created
        self.modified = modified
        self.generator = generator
        self.images = images
        self.cover = cover
    }

    /// The version a writer writes: the lowest that can express the gallery (section 8). Any
    /// image of a type format 2.0 added makes the major version 2; a cover makes the minor 1.
    /// Without either it is "1.0", byte for byte as a 1.0 writer writes it. Members kept from a
    /// later minor version of the same major keep that version, since they are its members.
    public var writtenFormatVersion: FormatVersion {
        let major = images.contains { $0.mediaType.since.major >= 2 } ? 2 : 1
        var minor = cover == nil ? 0 : 1
        if formatVersion.major == major, formatVersion.minor > minor, holdsKeptMembers { minor = formatVersion.minor }
        return FormatVersion(major: major, minor: minor)
    }

    /// Whether a member this implementation does not know was kept, at the top or in an image.
    public var holdsKeptMembers: Bool { !keptMembers.isEmpty || images.contains { !$0.keptMembers.isEmpty } }

    /// Forgets a cover whose image is gone, so that the first image stands for the gallery again
    /// (section 7); true when it did. Every edit and merge that removes images calls it.
    @discardableResult
    public mutating func settleCover() -> Bool {
        guard let cover, !images.contains(where: { $0.id == cover }) else { return false }
        self.cover = nil
        return true
    }

    /// The `generator` this implementation writes.
    public static let generatorName = "imagegallery \(GalleryVersion.string)"

    /// The image that stands for the gallery: the chosen cover while it names an image, else the
    /// first image (section 7). What the thumbnail, the web gallery's index and a comic's
    /// `FrontCover` show.
    public var coverImage: GalleryImage? {
        if let cover, let chosen = images.first(where: { $0.id == cover }) { return chosen }
        return images.first
    }

    /// Sum of the images' byte sizes, counting a blob listed twice twice.
    public var totalImageBytes: UInt64 { images.reduce(0) { $0 + $1.byteSize } }

    /// Distinct blobs in gallery order of first appearance: what the container stores.
    public var distinctBlobs: [GalleryImage] {
        var seen = Set<SHA256Digest>()
        return images.filter { seen.insert($0.sha256).inserted }
    }
}

/// One image of a gallery: a reference to its blob plus what the gallery says about it.
public struct GalleryImage: Sendable, Hashable, Identifiable {
    /// The image's identity within the gallery: what edits, merges and references name. Unique
    /// within a gallery; the same blob listed twice has two ids.
    public var id: UUID
    /// The blob's type, which its first bytes must confirm.
    public var mediaType: MediaType
    /// Width in pixels, as the image's header gives it (before any EXIF orientation).
    public var width: Int
    /// Height in pixels, as the image's header gives it (before any EXIF orientation).
    public var height: Int
    /// The blob's size in bytes, at most 2^53 − 1 (every JSON reader holds it exactly).
    public var byteSize: UInt64
    /// The SHA-256 of the blob's bytes: its identity, and the name of its entry.
    public var sha256: SHA256Digest
    /// The URL the image was fetched from.
    public var source: String?
    /// The original file name, one path component.
    public var filename: String?
    /// Free text about the image, at most 10,000 Unicode scalars.
    public var caption: String?
    /// When the image was added to the gallery.
    public var added: Timestamp?
    /// Members of the image object this implementation does not know, kept as read and written
    /// again on save (section 8). They go with the image wherever it goes.
    public var keptMembers: [ManifestMember] = []

    /// An image from its parts. Take `mediaType`, `width`, `height`, `byteSize` and `sha256`
    /// from the bytes themselves: readers and the validator check each against the blob.
    public init(
        id: UUID, mediaType: MediaType, width: Int, height: Int, byteSize: UInt64, sha256: SHA256Digest,
        source: String? = nil, filename: String? = nil, caption: String? = nil, added: Timestamp? = nil
    ) {
        self.id = id
        self.mediaType = mediaType
        self.width = width
        self.height = height
        self.byteSize = byteSize
        self.sha256 = sha256
        self.source = source
        self.filename = filename
        self.caption = caption
        self.added = added
    }

    /// The blob's entry name: content-addressed, so identical images are stored once.
    public var path: String { Self.blobPath(sha256: sha256, mediaType: mediaType) }

    /// One path component of 1 to 255 bytes with no separator, NUL or control character:
    /// what `filename` must be, and what makes it safe to reuse as a file name.
    public static func isSafeFilename(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isSafeFilename(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// ``isSafeFilename(_:)`` on valid UTF-8, as the manifest reader has it, without a String.
    static func isSafeFilename(utf8 bytes: UnsafeRawBufferPointer) -> Bool {
        guard (1 ... ManifestRules.maxFilenameScalars).contains(bytes.count),
              !(bytes.count <= 2 && bytes.allSatisfy { $0 == UInt8(ascii: ".") }) else { return false }
        // Control characters are C0, DEL and C1 (U+0080 to U+009F), as section 1.3 defines them;
        // in valid UTF-8 a C1 character is 0xC2 followed by 0x80 to 0x9F.
        var previous: UInt8 = 0
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\")
                || (previous == 0xC2 && byte <= 0x9F && byte >= 0x80) { return false }
            previous = byte
        }
        return true
    }

    /// What `source` must be: an absolute URI, ASCII only, at most 8,192 characters.
    public static func isValidSource(_ text: String) -> Bool {
        text.utf8.count <= ManifestRules.maxSourceScalars && ManifestDecoder.isAbsoluteURI(text)
    }

    /// The entry name of a blob: `images/<sha256 hex>.jpg` or `.png`.
    public static func blobPath(sha256: SHA256Digest, mediaType: MediaType) -> String {
        "images/\(sha256.hex).\(mediaType.fileExtension)"
    }
}

/// This implementation's version.
package enum GalleryVersion {
    /// The version number, as ``Gallery/generatorName`` gives it.
    package static let string = "0.2.0"
}
