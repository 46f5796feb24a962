import Dispatch
import FoundationEssentials
public import GallerySystem
import Synchronization
import SystemPackage

/// A ZIP archive opened for reading by its central directory.
///
/// Opening reads the end records and the central directory only — never entry data — and
/// applies the structural checks that need nothing else: names, duplicates, methods,
/// encryption, overlapping extents, limits. Entry data is checked (local header, sizes,
/// CRC) as it is read.
public final class ZipArchive: Sendable {
    /// The file the archive reads from, open for as long as the archive lives. Every read is
    /// positional, so one archive serves several threads at once.
    public let file: GalleryFile
    /// The file's size in bytes when it was opened.
    public let fileSize: UInt64
    /// Every entry, in central directory order: directory entries too, and (in collecting mode)
    /// the entries with ``ZipEntry/hasProblem`` set. Look one up with ``entry(named:)``.
    public let entries: [ZipEntry]
    /// Where the central directory starts, in bytes from the start of the file (from the ZIP64
    /// end record when there is one).
    public let centralDirectoryOffset: UInt64
    /// The central directory's length in bytes.
    public let centralDirectorySize: UInt64
    /// Warnings found while opening (hidden data after the entries, …).
    public let warnings: [GalleryError]
    /// Problems of single entries found while opening in collecting mode (a strict open
    /// throws the first instead). Those entries are in `entries` with `hasProblem` set.
    public let entryProblems: [GalleryError]
    /// The limits the archive was opened with (entries, name length, central directory size,
    /// compression ratio, total size); a reader applies the same ones to the manifest.
    public let limits: GalleryLimits
    private let index: [String: Int]
    /// `layoutDiagnostics()`, when it was found while opening (beside the manifest's read).
    let openingLayout = Mutex<[GalleryError]?>(nil)

    /// Opens the file at `path` and reads its end records and central directory (never entry
    /// data), throwing the first problem they show.
    /// - Throws: `FileSystemError` when the file cannot be opened (missing, a folder, a FIFO or
    ///   a device); ``GalleryError`` when it is not a ZIP archive, is truncated, or breaks a rule
    ///   of the container (an unsafe or duplicate name, an unsupported method, encryption,
    ///   overlapping entries, a limit passed).
    public convenience init(path: String, limits: GalleryLimits = .default) throws {
        try self.init(file: GalleryFile.openForReading(FilePath(path)), limits: limits)
    }

    /// Opens an already open file, which the archive keeps and reads from; otherwise as
    /// ``init(path:limits:)``.
    /// - Throws: ``GalleryError`` for the first problem of the end records or the central
    ///   directory; `FileSystemError` when the file cannot be read.
    public convenience init(file: GalleryFile, limits: GalleryLimits = .default) throws {
        try self.init(file: file, limits: limits, prefetching: nil, alongside: nil)
    }

    /// Opens for validation: problems of single entries (names, methods, duplicates, overlaps…)
    /// are collected in `entryProblems` instead of thrown; only damage that stops the central
    /// directory from being read is thrown.
    public convenience init(collectingProblemsOf file: GalleryFile, limits: GalleryLimits = .default) throws {
        try self.init(file: file, limits: limits, prefetching: nil, alongside: nil, collecting: true)
    }

    /// Opens the archive. When `prefetching` names an entry, a quick scan finds it in the
    /// central directory and `alongside` runs on another thread with a provisional archive
    /// (able to read entries, not to list them) while the full structural parse runs here.
    /// The caller must check that the entry it was given equals the one the parse found.
    init(file: GalleryFile, limits: GalleryLimits, prefetching name: String?,
         alongside: (@Sendable (ZipArchive, ZipEntry) -> Void)?, collecting: Bool = false) throws {
        self.file = file
        self.limits = limits
        let size = try file.size
        fileSize = size
        let layout = try Self.readEndRecords(file: file, size: size, limits: limits)
        centralDirectoryOffset = layout.centralOffset
        centralDirectorySize = layout.centralSize
        // In memory of its own: the 1.2 MB directory of 10,000 photos, read into memory from
        // malloc, took 300 page faults before anything else could start (`HugePageBuffer`).
        let directorySize = Int(layout.centralSize)
        guard let held = HugePageBuffer(count: max(directorySize, 1)) else {
            throw FileSystemError(.noMemory, path: file.path, operation: "read the central directory (\(directorySize) bytes)")
        }
        let directory = UnsafeRawBufferPointer(rebasing: held.bytes[..<directorySize])
        guard try file.read(at: layout.centralOffset, into: UnsafeMutableRawBufferPointer(mutating: directory)) == directorySize else {
            throw GalleryError(.truncated, "the central directory runs past the end of the file",
                               location: Location(file: file.path, offset: layout.centralOffset))
        }
        // The headers' reads, beside the parse: only where the layout is judged while opening.
        let prefetch = alongside == nil ? nil : HeaderPrefetch.start(
            reading: held, size: directorySize, count: layout.entryCount, centralOffset: layout.centralOffset,
            longestName: limits.maxEntryNameBytes, file: file)
        // It reads this file too: never leave (or throw) before it has stopped.
        var prefetchFinished = false
        defer { if !prefetchFinished { _ = prefetch?.finish(helping: false) } }
        let background = DispatchGroup()
        if let name, let alongside, let found = Self.quickFind(name, in: directory, count: layout.entryCount) {
            let provisional = ZipArchive(provisional: file, size: size, layout: layout, limits: limits)
            DispatchQueue.global(qos: .userInitiated).async(group: background) { alongside(provisional, found) }
        }
        // The background work reads this file: never leave (or throw) before it is done.
        defer { background.wait() }
        var problems: [GalleryError] = []
        let report: (GalleryError) throws -> Void = collecting ? { problems.append($0) } : { throw $0 }
        let parsed = try withExtendedLifetime(held) {
            try Self.parseCentralDirectory(directory, count: layout.entryCount, layout: layout, file: file, limits: limits,
                                           report: report)
        }
        var checked = parsed.entries
        try Self.checkExtents(&checked, centralOffset: layout.centralOffset, fileSize: size, path: file.path, report: report)
        entries = checked
        index = parsed.index
        warnings = layout.warnings
        entryProblems = problems
        // A reader checks every local header (`scanLayout()`): here, while the manifest is
        // still being read on the other core, so that the two costs overlap.
        if alongside != nil {
            let held = prefetch?.finish(helping: true)
            prefetchFinished = true
            let found = layoutDiagnostics(held: held)
            openingLayout.withLock { $0 = found }
        }
    }

    private init(provisional file: GalleryFile, size: UInt64, layout: Layout, limits: GalleryLimits) {
        self.file = file
        self.limits = limits
        fileSize = size
        centralDirectoryOffset = layout.centralOffset
        centralDirectorySize = layout.centralSize
        entries = []
        index = [:]
        warnings = []
        entryProblems = []
    }

    /// Finds the first central directory record named `name` by walking record lengths only.
    /// Anything odd returns nil: the full parse will say what is wrong.
    static func quickFind(_ name: String, in bytes: UnsafeRawBufferPointer, count: Int) -> ZipEntry? {
        let wanted = Array(name.utf8)
        var reader = LittleEndianReader(bytes)
        for position in 0 ..< count {
            guard let header = CentralFileHeader(&reader) else { return nil }
            let variable = Int(header.nameLength) + Int(header.extraLength) + Int(header.commentLength)
            guard reader.remaining >= variable else { return nil }
            let nameBytes = reader.take(Int(header.nameLength))
            let extra = reader.take(Int(header.extraLength))
            reader.skip(Int(header.commentLength))
            guard nameBytes.elementsEqual(wanted) else { continue }
            guard let method = CompressionMethod(rawValue: header.method),
                  let values = centralValues(of: header, extra: extra)
            else { return nil }
            return ZipEntry(name: name, index: position, method: method, flags: header.flags, crc32: header.crc32,
                            compressedSize: values.compressed, uncompressedSize: values.uncompressed,
                            localHeaderOffset: values.localOffset, isDirectory: false, nameLength: wanted.count)
        }
        return nil
    }

    /// The entry with this name, or nil. Entries with a problem are never found: only those a
    /// reader may read are.
    public func entry(named name: String) -> ZipEntry? {
        guard let position = index[name] else { return nil }
        return entries[position]
    }

    func location(_ entry: ZipEntry, offset: UInt64? = nil) -> Location {
        Location(file: file.path, entry: entry.name, offset: offset ?? entry.localHeaderOffset)
    }
}
