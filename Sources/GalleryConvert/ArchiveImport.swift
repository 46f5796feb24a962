import GalleryBuilder
import GalleryFormat

/// Bounds on what an archive may make the importer read. Every archive is hostile until read:
/// a thumbnailer or a CI job may run the importer on anything.
public struct ArchiveImportLimits: Sendable, Hashable {
    /// Entries of any kind; more is refused as a bomb of names.
    public var maxEntries = 200_000
    /// Images kept (the format's limit).
    public var maxImages = GalleryLimits.default.maxImages
    /// The largest entry read.
    public var maxEntryBytes: UInt64 = 1 << 30
    /// Everything decompressed, images and skipped entries alike.
    public var maxTotalBytes: UInt64 = GalleryLimits.default.maxTotalUncompressedBytes
    /// Decompressed bytes per byte of archive, once past `ratioFloorBytes`: photographs do not
    /// compress, so an archive that expands a hundredfold is a bomb, not a photo album.
    public var maxExpansionRatio: UInt64 = GalleryLimits.default.maxCompressionRatio
    /// Decompressed bytes an archive may reach before ``maxExpansionRatio`` applies: a small
    /// archive of a few images is never refused for its ratio, whatever its size on disk.
    public var ratioFloorBytes: UInt64 = 16 << 20
    /// The longest entry name.
    public var maxNameBytes = 4096
    /// The largest `ComicInfo.xml` read.
    public var maxComicInfoBytes = 1 << 20

    /// The default limits, the format's own where it has them; change a field to tighten one.
    public init() {}
}

/// An entry left out, and why.
public struct SkippedEntry: Sendable, Hashable, Codable {
    /// The entry's name in the archive, as the archive records it (for the user to find it).
    public var entry: String
    /// Why it is not in the gallery, in words: not an image, a type not accepted, an unsafe name,
    /// a link, past a limit.
    public var reason: String
}

/// What an archive gave.
public struct ArchiveImport: Sendable {
    /// In gallery order: the `ComicInfo.xml` page order when there is one, else natural order of
    /// the entry names. Each is read into a spool file; its `name` is the entry's name, its
    /// `filename` the name's last component when that is a safe file name.
    public var images: [SourceImage]
    /// Left out, with the reason, in archive order (folders are not listed).
    public var skipped: [SkippedEntry]
    /// From `ComicInfo.xml`, when it has a title (or a series).
    public var title: String?
    /// Whether a `ComicInfo.xml` was found and used.
    public var hasComicInfo: Bool
    /// Notes about the comic info (pages it names that are missing, say).
    public var notes: [String]
    /// The index in ``images`` of the page `ComicInfo.xml` marks `FrontCover`, when it is not
    /// the first: the gallery's cover.
    public var cover: Int?
}
