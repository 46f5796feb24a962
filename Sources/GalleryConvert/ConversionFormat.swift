import GalleryFormat
import GallerySystem
import SystemPackage

/// The forms a gallery can be converted from or to.
public enum ConversionFormat: String, Sendable, CaseIterable, Codable {
    /// A `.imagegallery` file.
    case gallery
    /// A gallery unpacked into a folder: `mimetype`, `manifest.json`, `images/`, `thumbnail.png`.
    case unpacked
    /// A folder of image files.
    case images
    /// A foreign archive: zip, tar (plain, .gz, .bz2, .xz, .zst), 7z or RAR.
    case archive
    /// A comic book: CBZ, CBT, CB7 or CBR, with an optional `ComicInfo.xml`.
    case comic
    /// The seed apps' Codable JSON: one gallery, or a store of many.
    case seedJSON = "seed-json"
    /// A static web gallery (output only).
    case web

    /// Whether it can be read (`web` cannot).
    public var isReadable: Bool { self != .web }

    /// Whether it can be written: foreign archives are imported only; comics are written as CBZ.
    public var isWritable: Bool { ![.archive, .seedJSON].contains(self) }
}

/// The archive families libarchive is asked to read, told apart by their leading bytes.
public enum ArchiveKind: String, Sendable, Codable {
    /// ZIP (also CBZ), tar with or without a compression filter (also CBT), 7-Zip (CB7) and RAR
    /// (CBR); the raw value is the name messages use.
    case zip, tar, sevenZip = "7z", rar
}

/// Detects what a path holds, from its content first and its name second: a `.zip` that is
/// really a gallery is a gallery, a `.cbz` is a comic because only the name tells a comic
/// from a zip of images.
public enum FormatDetection {
    /// What ``FormatDetection`` found a path to hold.
    public struct Detected: Sendable, Hashable {
        /// The form to convert from.
        public var format: ConversionFormat
        /// For archives and comics.
        public var archive: ArchiveKind?

        /// A detected form, with its archive family for an archive or a comic.
        public init(format: ConversionFormat, archive: ArchiveKind? = nil) {
            self.format = format
            self.archive = archive
        }
    }

    /// A path's file name without its archive and JSON extensions, for the title and file name
    /// of what it becomes: `trip.tar.gz` → `trip`, `comic.cbz` → `comic`.
    public static func stem(of path: String) -> String {
        var name = GalleryFileSystem.fileName(of: path)
        let extensions = [".gz", ".bz2", ".xz", ".zst", ".lzma", ".tar", ".tgz", ".tbz2", ".txz", ".tzst", ".zip", ".7z", ".rar",
                          ".cbz", ".cbt", ".cb7", ".cbr", ".json"]
        while case let (stem, ext) = GalleryFileSystem.splitExtension(name), extensions.contains(ext.lowercased()) {
            name = stem
        }
        return name
    }

    /// What the file or folder at `path` holds: a folder with `manifest.json` and `mimetype` is an
    /// unpacked gallery, any other folder a folder of images; a file is judged by its first 512
    /// bytes and its name. Throws ``ConversionError`` for a path that cannot be read or holds none
    /// of the forms.
    public static func detect(_ path: String) throws -> Detected {
        let status = try examine(path)
        if status.kind == .directory {
            // Links followed, as access(2) with F_OK does.
            let folder = FilePath(path)
            let isUnpacked = PathKind.of(folder.appending(GalleryPackage.manifestEntry)) != .missing
                && PathKind.of(folder.appending(GalleryPackage.mimetypeEntry)) != .missing
            return Detected(format: isUnpacked ? .unpacked : .images)
        }
        guard status.kind == .regularFile else { throw ConversionError(path, "is not a regular file or a folder") }
        let head = try GalleryFile.openForReading(FilePath(path)).read(at: 0, count: 512)
        return try detect(head: head, name: path)
    }

    /// What stat(2) says of `path`; an error says why it cannot be read.
    private static func examine(_ path: String) throws -> FileStatus {
        do {
            return try FileStatus.of(FilePath(path), followingLinks: true)
        } catch {
            throw ConversionError(path, "cannot be read: \(error.reason)", underlying: error)
        }
    }

    /// From the first 512 bytes (fewer for a short file) and the file's name.
    public static func detect(head: [UInt8], name: String) throws -> Detected {
        let ext = GalleryFileSystem.components(of: name).last
            .flatMap { $0.contains(".") ? $0.split(separator: ".").last : nil }.map { $0.lowercased() } ?? ""
        let comicByName = ["cbz", "cbt", "cb7", "cbr"].contains(ext)
        func archive(_ kind: ArchiveKind) -> Detected {
            Detected(format: comicByName ? .comic : .archive, archive: kind)
        }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            // The format's fixed prefix: a stored `mimetype` entry naming the media type (section 4.4).
            let mimetype = Array(GalleryPackage.mediaType.utf8)
            if head.count >= 38 + mimetype.count, Array(head[30 ..< 38]) == Array("mimetype".utf8),
               Array(head[38 ..< 38 + mimetype.count]) == mimetype {
                return Detected(format: .gallery)
            }
            return ext == GalleryPackage.fileExtension ? Detected(format: .gallery) : archive(.zip)
        }
        if head.starts(with: [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) { return archive(.sevenZip) }
        if head.starts(with: Array("Rar!\u{1A}\u{07}".utf8)) { return archive(.rar) }
        let compressed: [[UInt8]] = [[0x1F, 0x8B], Array("BZh".utf8), [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], [0x28, 0xB5, 0x2F, 0xFD]]
        if compressed.contains(where: head.starts(with:)) { return archive(.tar) }
        if head.count >= 262, Array(head[257 ..< 262]) == Array("ustar".utf8) { return archive(.tar) }
        if let first = head.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }),
           first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            return Detected(format: .seedJSON)
        }
        switch ext {
        case GalleryPackage.fileExtension: return Detected(format: .gallery)
        case "json": return Detected(format: .seedJSON)
        case "zip", "cbz": return archive(.zip)
        case "tar", "tgz", "tbz2", "txz", "tzst", "gz", "bz2", "xz", "zst", "cbt": return archive(.tar)
        case "7z", "cb7": return archive(.sevenZip)
        case "rar", "cbr": return archive(.rar)
        default: throw ConversionError(name, "is not a form imagegallery converts (a gallery, a folder, an archive, a comic book or the seed apps' JSON)")
        }
    }

    /// The output form a name asks for, when `--to` is not given.
    public static func outputFormat(for path: String) -> ConversionFormat? {
        let name = GalleryFileSystem.components(of: path).last ?? path
        guard let dot = name.unicodeScalars.lastIndex(of: ".") else { return nil }
        switch String(name.unicodeScalars[name.unicodeScalars.index(after: dot)...]).lowercased() {
        case GalleryPackage.fileExtension: return .gallery
        case "cbz": return .comic
        default: return nil
        }
    }
}

/// A conversion that cannot be made; the message names the file and, where there is one, the
/// archive entry.
public struct ConversionError: Error, Sendable, DetailedError {
    /// What kind of failure: it decides the error's category (bad data, an output in the way,
    /// an I/O failure), and so the command-line tool's exit status.
    public enum Kind: Sendable, CaseIterable {
        /// The input is not what it should be, or breaks a limit.
        case invalidInput
        /// The output exists and is not to be replaced.
        case outputExists
        /// The output could not be written.
        case cannotWrite
    }

    /// Bad input, an output in the way, or a write that failed.
    public var kind: Kind
    /// The file or folder (and entry) at fault, what is wrong, and the error underneath;
    /// printed as `path: entry: message`, the line the command prints.
    public var detail: ErrorDetail

    /// A failure at `path` (and `entry`), explained by `message`; bad input unless `kind` says
    /// otherwise. `underlying` is the error that caused it, when one did.
    public init(_ path: String, entry: String? = nil, _ message: String, kind: Kind = .invalidInput,
                underlying: (any Error)? = nil) {
        self.kind = kind
        self.detail = ErrorDetail(at: Location(file: path, entry: entry), message, underlying: underlying)
    }

    /// The entry of an archive (or the image of a gallery) at fault, when there is one.
    public var entry: String? {
        get { detail.location.entry }
        set { detail.location.entry = newValue }
    }
}
