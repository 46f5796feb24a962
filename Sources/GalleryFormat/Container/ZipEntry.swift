/// One entry of a ZIP archive, as its central directory describes it.
public struct ZipEntry: Sendable, Hashable {
    public let name: String
    /// Position in the central directory.
    public let index: Int
    public let method: CompressionMethod
    public let flags: UInt16
    public let crc32: UInt32
    public let compressedSize: UInt64
    public let uncompressedSize: UInt64
    /// Where the entry's local header starts.
    public let localHeaderOffset: UInt64
    public let isDirectory: Bool
    let nameLength: Int
    /// The central directory found something wrong with this entry (reported when opening in
    /// collecting mode); its data is not to be trusted or read.
    public internal(set) var hasProblem: Bool = false

    public var usesDataDescriptor: Bool { flags & ZipFlag.dataDescriptor != 0 }

    /// The smallest number of bytes the entry can occupy: local header, name and data.
    /// Saturates rather than overflows: hostile sizes and offsets reach 2^64.
    var minimumExtent: UInt64 { UInt64(LocalFileHeader.size + nameLength).addingSaturating(compressedSize) }
}
