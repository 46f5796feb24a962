/// Bounds a reader enforces on untrusted files. The defaults are the spec's
/// (`Specs/imagegallery-format.md`, Limits); every one can be changed by the caller.
public struct GalleryLimits: Sendable, Hashable {
    /// Largest uncompressed `manifest.json`.
    public var maxManifestBytes: Int = 64 << 20
    /// Deepest nesting of JSON arrays and objects (the manifest itself needs 3).
    public var maxJSONDepth: Int = 32
    /// Members of one JSON object (the manifest's own objects have at most 11).
    public var maxObjectMembers: Int = 10_000
    /// Most images one manifest may list.
    public var maxImages: Int = 100_000
    /// Most entries one archive may hold.
    public var maxEntries: Int = 200_000
    /// Longest entry name, in UTF-8 bytes.
    public var maxEntryNameBytes: Int = 1024
    /// Largest central directory, which is read into memory whole.
    public var maxCentralDirectoryBytes: Int = 64 << 20
    /// Largest uncompressed : compressed ratio of a deflated entry bigger than `ratioFloorBytes`.
    public var maxCompressionRatio: UInt64 = 100
    /// Entries up to this many uncompressed bytes are not held to `maxCompressionRatio`: small
    /// files legitimately compress far.
    public var ratioFloorBytes: UInt64 = 1 << 20
    /// Largest sum of the declared uncompressed sizes of all entries.
    public var maxTotalUncompressedBytes: UInt64 = 64 << 30

    /// The format's defaults.
    public init() {}

    /// The format's defaults, as ``init()`` gives them.
    public static let `default` = GalleryLimits()
}
