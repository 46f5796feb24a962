import FoundationEssentials
import GalleryBuilder
import GalleryFormat
import GalleryImageHeaders
import GalleryImaging
import GallerySystem
import SystemPackage

/// Reads a foreign archive's images into spool files, entry by entry, through libarchive.
///
/// Nothing is ever extracted by name: an entry's bytes go to a spool file named by a counter,
/// so no name can escape the spool, and no name reaches a shell or another program. Names are
/// only sorted and shown; the unsafe ones (absolute, `..`, a leading `-`) are refused anyway,
/// so that a gallery never records them.
public final class ArchiveImporter {
    /// The archive read.
    public let path: String
    /// The archive family from ``FormatDetection``, so that libarchive reads only that format; nil
    /// lets it try every family it is built for.
    public let kind: ArchiveKind?
    /// The bounds the archive's entries, names and expansion must stay within.
    public let limits: ArchiveImportLimits
    /// A folder the caller made and removes; it receives one file per image.
    public let spool: String
    /// The image types taken (`--accept`); an entry of another is skipped, its type named.
    public let accepted: Set<MediaType>

    /// An importer of the archive at `path` into the folder `spool`; nothing is read until
    /// ``read(progress:)``.
    public init(path: String, kind: ArchiveKind?, spool: String, limits: ArchiveImportLimits = ArchiveImportLimits(),
                accepting accepted: Set<MediaType> = Set(MediaType.allCases)) {
        self.path = path
        self.kind = kind
        self.spool = spool
        self.limits = limits
        self.accepted = accepted
    }

    /// Reads every entry. `progress` gets the archive bytes consumed and the archive's size.
    public func read(progress: ((_ done: UInt64, _ total: UInt64) -> Void)? = nil) throws -> ArchiveImport {
        let archiveSize = try GalleryFile.openForReading(FilePath(path)).size
        let reader = try ArchiveReader(path: path, kind: kind)
        var images: [SourceImage] = []
        var skipped: [SkippedEntry] = []
        var comicInfo: [UInt8]?
        var notes: [String] = []
        var entries = 0
        var expanded: UInt64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }

        while let entry = try reader.next() {
            entries += 1
            guard entries <= limits.maxEntries else {
                throw ConversionError(path, "more than \(limits.maxEntries) entries; refused as a bomb")
            }
            progress?(reader.compressedBytesRead, archiveSize)
            let name = entry.name
            func skip(_ reason: String) { skipped.append(SkippedEntry(entry: name, reason: reason)) }
            switch entry.kind {
            case .directory: continue
            case .symbolicLink: skip("a symbolic link (links are never followed)"); continue
            case .hardLink: skip("a hard link (links are never followed)"); continue
            case .other: skip("not a regular file (a device, a FIFO or a socket)"); continue
            case .file: break
            }
            if let problem = Self.problem(withName: name, limits: limits) { skip(problem); continue }
            if entry.encrypted { skip("encrypted"); continue }
            if let size = entry.declaredSize, size > limits.maxEntryBytes {
                throw ConversionError(path, entry: name, "declares \(size) bytes, more than the \(limits.maxEntryBytes)-byte limit for an entry")
            }
            let base = GalleryFileSystem.components(of: name).last ?? name
            let isComicInfo = base.lowercased() == "comicinfo.xml" && comicInfo == nil

            // Each entry is read through the same counted loop, kept or not, so that every
            // decompressed byte counts against the bounds (skipping would decompress too).
            let spoolPath = FilePath(spool).appending(images.count.zeroPadded(toWidth: 6))
            var sink = EntrySink(archive: path, entry: name, spoolPath: spoolPath, accepted: accepted,
                                 keepsText: isComicInfo ? limits.maxComicInfoBytes : nil)
            while true {
                let count = try reader.read(into: buffer, entry: name)
                if count == 0 { break }
                expanded += UInt64(count)
                try checkBounds(entry: name, size: sink.size + UInt64(count), expanded: expanded, archiveSize: archiveSize)
                try sink.take(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            }
            try sink.finish()
            if isComicInfo {
                if let verdict = sink.verdict { skip(verdict) } else { comicInfo = sink.text }
                continue
            }
            if let verdict = sink.verdict { skip(verdict); continue }
            guard sink.isSpooled else {
                skip(sink.shortEntryRefusal)
                continue
            }
            let size = sink.size
            let header: ImageHeader
            do {
                header = try ImageHeader.parse(file: GalleryFile.openForReading(spoolPath))
            } catch {
                GalleryFileSystem.remove(spoolPath)
                skip("not a usable image: \(error)")
                continue
            }
            guard images.count < limits.maxImages else {
                throw ConversionError(path, "more than \(limits.maxImages) images, the format's limit")
            }
            images.append(SourceImage(name: name, path: spoolPath.string, header: header, byteSize: size, sha256: sink.sha256,
                                      crc32: sink.crc32, filename: GalleryImage.isSafeFilename(base) ? base : nil,
                                      modified: entry.modified, description: ImageFile.description(ofFileAt: spoolPath.string)))
        }
        progress?(archiveSize, archiveSize)

        images.sort { NaturalOrder.areInIncreasingOrder($0.name, $1.name) }
        var info: ComicInfo?
        if let comicInfo {
            do {
                info = try ComicInfo.parse(comicInfo)
            } catch {
                notes.append("ComicInfo.xml was not used: \(error)")
            }
        }
        var cover: Int?
        if let info, !info.pages.isEmpty {
            (images, cover) = Self.ordered(images, by: info.pages, notes: &notes)
        }
        return ArchiveImport(images: images, skipped: skipped, title: info?.galleryTitle, hasComicInfo: info != nil, notes: notes,
                             cover: cover)
    }

    /// The bounds against bombs, checked before each chunk is taken.
    private func checkBounds(entry: String, size: UInt64, expanded: UInt64, archiveSize: UInt64) throws {
        guard size <= limits.maxEntryBytes else {
            throw ConversionError(path, entry: entry, "expands past the \(limits.maxEntryBytes)-byte limit for an entry")
        }
        guard expanded <= limits.maxTotalBytes else {
            throw ConversionError(path, "expands past \(limits.maxTotalBytes) bytes in all; refused as a bomb")
        }
        if expanded > limits.ratioFloorBytes, expanded > limits.maxExpansionRatio * max(archiveSize, 1) {
            throw ConversionError(path, entry: entry, "expands more than \(limits.maxExpansionRatio) times its "
                                  + "\(archiveSize) bytes; refused as a bomb")
        }
    }

    /// The comic's page order: the images its `Page` elements name, in their order, then any
    /// image no page names, in name order. Deleted pages are left out. With it, where the first
    /// page marked `FrontCover` lands, unless that is first.
    static func ordered(_ images: [SourceImage], by pages: [ComicInfo.Page], notes: inout [String])
        -> (images: [SourceImage], cover: Int?) {
        var used = Set<Int>()
        var result: [SourceImage] = []
        var cover: Int?
        for page in pages {
            guard page.image < images.count else {
                notes.append("ComicInfo.xml names page image \(page.image), but the archive has \(images.count) images")
                continue
            }
            guard used.insert(page.image).inserted else { continue }
            if page.type == "Deleted" {
                notes.append("\(images[page.image].name) is marked Deleted in ComicInfo.xml and was left out")
                continue
            }
            if page.type == "FrontCover", cover == nil { cover = result.count }
            result.append(images[page.image])
        }
        result += images.indices.filter { !used.contains($0) }.map { images[$0] }
        return (result, cover == 0 ? nil : cover)
    }

    /// Why a name is refused, if it is.
    static func problem(withName name: String, limits: ArchiveImportLimits) -> String? {
        if name.utf8.count > limits.maxNameBytes { return "a name longer than \(limits.maxNameBytes) bytes" }
        if name.isEmpty { return "an empty name" }
        // By scalar, as a file system reads the name: "../\u{301}x" holds the Character "/\u{301}",
        // which is not "/", yet climbs.
        let scalars = name.unicodeScalars
        if scalars.first == "/" || scalars.first == "\\" || scalars.dropFirst().first == ":" {
            return "an absolute name"
        }
        let parts = scalars.split(whereSeparator: { $0 == "/" || $0 == "\\" }).map { String($0) }
        if parts.contains(where: { $0.utf8.elementsEqual("..".utf8) }) { return "a name that climbs out of the archive (..)" }
        if parts.contains(where: { $0.utf8.first == UInt8(ascii: "-") }) {
            return "a name that reads as a command-line option"
        }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "a name with control characters" }
        if parts.first == "__MACOSX" || parts.last?.hasPrefix("._") == true { return "macOS resource data" }
        return nil
    }
}
