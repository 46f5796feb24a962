/// One entry of a ZIP archive, as its central directory describes it.
public struct ZipEntry: Sendable, Hashable {
    /// The entry's path in the archive; a directory's ends in `/`. Unless ``hasProblem`` is set,
    /// it passed the name rules of section 4.3: valid UTF-8, relative, no `..`, no backslash.
    public let name: String
    /// Position in the central directory.
    public let index: Int
    /// How the data is stored. An entry with an unsupported method has ``hasProblem`` set and
    /// says `.stored` here.
    public let method: CompressionMethod
    /// The general-purpose bit flags, as the central directory gives them: bit 3 is a data
    /// descriptor (``usesDataDescriptor``), bit 11 UTF-8 names. The local header must agree.
    public let flags: UInt16
    /// The CRC-32 of the uncompressed data, as the central directory gives it; checked when
    /// the entry is read.
    public let crc32: UInt32
    /// The bytes the data takes in the file (the ZIP64 value where the classic field overflows).
    /// Equal to ``uncompressedSize`` for a stored entry.
    public let compressedSize: UInt64
    /// The bytes of the data once inflated (the ZIP64 value where the classic field overflows);
    /// a read that yields any other number fails.
    public let uncompressedSize: UInt64
    /// Where the entry's local header starts.
    public let localHeaderOffset: UInt64
    /// True for a directory entry (its name ends in `/`; it holds no bytes). Readers ignore
    /// them; writers of galleries never make them (section 4.2).
    public let isDirectory: Bool
    let nameLength: Int
    /// The central directory found something wrong with this entry (reported when opening in
    /// collecting mode); its data is not to be trusted or read.
    public internal(set) var hasProblem: Bool = false

    /// True when flag bit 3 is set: the local header leaves the CRC-32 and sizes to a data
    /// descriptor after the data. The central directory's values are used, and the descriptor
    /// must agree with them. Readers allow it on deflated entries only (section 9.1).
    public var usesDataDescriptor: Bool { flags & ZipFlag.dataDescriptor != 0 }

    /// The smallest number of bytes the entry can occupy: local header, name and data.
    /// Saturates rather than overflows: hostile sizes and offsets reach 2^64.
    var minimumExtent: UInt64 { UInt64(LocalFileHeader.size + nameLength).addingSaturating(compressedSize) }
}

extension [ZipEntry] {
    /// Whether the entries already lie in file order, as every writer puts them. The sort is
    /// stable, so it would give them back as they are; sorting 10,000 photos' entries twice cost
    /// their open about a millisecond (Benchmarks/RESULTS.md, ac.3.8).
    var isInFileOrder: Bool {
        indices.dropFirst().allSatisfy { self[$0 - 1].localHeaderOffset <= self[$0].localHeaderOffset }
    }
}
