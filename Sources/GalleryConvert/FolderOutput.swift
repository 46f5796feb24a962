import FoundationEssentials
import GalleryFormat
import GallerySystem
import SystemPackage
import Synchronization

/// A folder written whole or not at all, for every conversion whose output is a folder.
///
/// The content goes into a hidden sibling, `.NAME.partial-XXXXXX`: a sibling because only on
/// the same file system is a rename atomic. `commit` renames it into place. An existing output
/// is replaced only with `overwrite`, and only when the caller's `ReplaceRule` allows it, so a
/// mistyped path cannot lose a folder of other things. The replacing is one exchange of names
/// (`renameat2(RENAME_EXCHANGE)`) where the file system can, or else the old output is moved
/// aside first; the old one is removed only once the new one is in place. So a failure at any
/// point leaves the old output or the new one, never a mixture, and a staging folder that was
/// never committed is removed when the `FolderOutput` goes.
///
/// Errors are ``ConversionError``s naming the output folder (and the entry, for one file):
/// `.outputExists` for an output that is not to be replaced, `.cannotWrite` for the rest.
public final class FolderOutput: Sendable {
    /// The output folder, without trailing slashes.
    public let destination: String
    /// Where the content is written until `commit`.
    public let staging: String
    private let overwrite: Bool
    private let rule: ReplaceRule
    private let committed = Mutex(false)

    /// Refuses an output that is not to be replaced, then makes the staging folder.
    public init(_ destination: String, overwrite: Bool, replacing rule: ReplaceRule = .anything) throws {
        self.destination = try Self.check(destination, overwrite: overwrite, replacing: rule)
        self.overwrite = overwrite
        self.rule = rule
        staging = try Self.makeFolder(beside: self.destination, marked: "partial")
    }

    deinit {
        if !committed.withLock({ $0 }) { try? GalleryFileSystem.removeTree(FilePath(staging)) }
    }

    /// What `init` checks first, for a caller with long work to do (fetching, say) before it
    /// writes anything: an output that would be refused at the end is refused now.
    ///
    /// - Returns: the destination without trailing slashes.
    @discardableResult
    public static func check(_ destination: String, overwrite: Bool, replacing rule: ReplaceRule = .anything) throws -> String {
        let path = GalleryFileSystem.withoutTrailingSlashes(destination)
        let name = GalleryFileSystem.fileName(of: path)
        // Its staging sibling would be named after nothing, or after a folder above it.
        guard !name.isEmpty, name != ".", name != ".." else {
            throw ConversionError(destination, "cannot be an output folder: name a new folder", kind: .outputExists)
        }
        if try exists(path) {
            guard overwrite else { throw ConversionError(path, "already exists (use --force to replace it)", kind: .outputExists) }
            if let refusal = rule.refusal(path) { throw ConversionError(path, refusal, kind: .outputExists) }
        }
        return path
    }

    /// Makes a folder inside the staging folder.
    public func makeFolder(_ relative: String) throws {
        do {
            try GalleryFileSystem.makeFolder(FilePath(staging).appending(relative))
        } catch where error.kind == .alreadyExists {
            return
        } catch {
            throw ConversionError(destination, entry: relative, "cannot be created: \(error.reason)", kind: .cannotWrite,
                underlying: error)
        }
    }

    /// Writes a file inside the staging folder.
    public func write(_ relative: String, bytes: [UInt8]) throws {
        let file = try create(relative)
        do {
            try file.write(bytes, at: 0)
        } catch {
            throw ConversionError(destination, entry: relative, "cannot be written: \(error)", kind: .cannotWrite,
                underlying: error)
        }
    }

    /// Opens a new file inside the staging folder.
    public func create(_ relative: String) throws -> GalleryFile {
        do {
            return try GalleryFile.create(FilePath(staging).appending(relative))
        } catch {
            throw ConversionError(destination, entry: relative, "cannot be written: \(error)", kind: .cannotWrite,
                underlying: error)
        }
    }

    /// Puts the finished folder in place. Whatever is at the destination now is checked again,
    /// as at the start: it may have appeared, or changed, while the content was written.
    public func commit() throws {
        // Flushed first, so that after a crash the renamed folder does not come back empty.
        do {
            try GalleryFileSystem.synchronizeDirectory(FilePath(staging))
        } catch {
            throw ConversionError(destination, "cannot be written: \(error)", kind: .cannotWrite, underlying: error)
        }
        let old: String?
        if try Self.exists(destination) {
            guard overwrite else {
                throw ConversionError(destination, "appeared while it was written; it was not replaced", kind: .outputExists)
            }
            if let refusal = rule.refusal(destination) { throw ConversionError(destination, refusal, kind: .outputExists) }
            old = try swapIn()
        } else {
            // rename(2) refuses a folder with entries, or a file, that appeared since the check;
            // it would replace an empty folder, which is all that could be lost.
            do {
                try GalleryFileSystem.rename(FilePath(staging), to: FilePath(destination))
            } catch {
                let inTheWay: Set<FileSystemError.Kind> = [.alreadyExists, .notDirectory, .isDirectory]
                let appeared = inTheWay.contains(error.kind) ? true : error.code == .directoryNotEmpty
                throw appeared
                    ? ConversionError(destination, "appeared while it was written; it was not replaced", kind: .outputExists)
                    : ConversionError(destination, "cannot be put in place: \(error.reason)", kind: .cannotWrite,
                        underlying: error)
            }
            old = nil
        }
        committed.withLock { $0 = true }
        // The new folder is in place: what remains of the old one is only in the way.
        if let old { try? GalleryFileSystem.removeTree(FilePath(old)) }
        // A failed flush of the parent does not undo a finished output, so it is not an error.
        let parent = GalleryFileSystem.directory(of: destination)
        try? GalleryFileSystem.synchronizeDirectory(FilePath(parent.isEmpty ? "." : parent))
    }

    /// Replaces the destination with the staging folder; returns where the old one now is.
    private func swapIn() throws -> String {
        do {
            // The old one now sits at the staging name.
            if try GalleryFileSystem.exchange(FilePath(staging), FilePath(destination)) { return staging }
        } catch {
            throw ConversionError(destination, "cannot be replaced: \(error)", kind: .cannotWrite, underlying: error)
        }
        // No exchange on this file system: two renames, with a moment in between when there is
        // nothing at the destination, and the old one put back if the second fails.
        let aside = Self.unusedName(beside: destination, marked: "old")
        do {
            try GalleryFileSystem.rename(FilePath(destination), to: FilePath(aside))
        } catch {
            throw ConversionError(destination, "cannot be replaced: \(error.reason)", kind: .cannotWrite, underlying: error)
        }
        do {
            try GalleryFileSystem.rename(FilePath(staging), to: FilePath(destination))
        } catch {
            try? GalleryFileSystem.rename(FilePath(aside), to: FilePath(destination))
            throw ConversionError(destination, "cannot be put in place: \(error.reason)", kind: .cannotWrite, underlying: error)
        }
        return aside
    }

    /// Whether anything (a link not followed) is at `path`.
    private static func exists(_ path: String) throws -> Bool {
        do {
            return try FileStatus.exists(FilePath(path))
        } catch {
            throw ConversionError(path, "cannot be examined: \(error.reason)", kind: .cannotWrite, underlying: error)
        }
    }

    /// Makes `.NAME.MARK-XXXXXX` beside `path`, with the permissions a new folder of the user's has.
    private static func makeFolder(beside path: String, marked mark: String) throws -> String {
        for _ in 0 ..< 100 {
            let candidate = unusedName(beside: path, marked: mark)
            do {
                try GalleryFileSystem.makeFolder(FilePath(candidate))
                return candidate
            } catch where error.kind == .alreadyExists {
                continue
            } catch {
                throw ConversionError(path, "cannot be created: \(error.reason)", kind: .cannotWrite, underlying: error)
            }
        }
        throw ConversionError(path, "cannot be created: no unused name for a folder beside it", kind: .cannotWrite)
    }

    /// `.NAME.MARK-XXXXXX` beside `path`, NAME cut to 100 bytes so the whole fits in a file name.
    private static func unusedName(beside path: String, marked mark: String) -> String {
        let parent = GalleryFileSystem.directory(of: path)
        var name = ""
        for character in GalleryFileSystem.fileName(of: path) {
            guard name.utf8.count + character.utf8.count <= 100 else { break }
            name.append(character)
        }
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let suffix = String((0 ..< 6).map { _ in letters.randomElement()! })
        return FilePath(parent).appending("." + name + "." + mark + "-" + suffix).string
    }
}

extension FolderOutput {
    /// Which existing output `overwrite` may replace. It is asked before anything is written
    /// and again just before the swap, about whatever is at the path then: a folder, a file or a
    /// link (never followed, so replacing a link never touches what it points to).
    public struct ReplaceRule: Sendable {
        /// Nil when the thing at the path may be replaced; else why not, as the rest of the
        /// message after the path.
        public let refusal: @Sendable (_ existing: String) -> String?

        /// A rule from a closure that, given what is at the path, says why it may not be replaced, or
        /// nil when it may.
        public init(refusal: @escaping @Sendable (_ existing: String) -> String?) {
            self.refusal = refusal
        }

        /// Anything may be replaced.
        public static let anything = ReplaceRule { _ in nil }

        /// What `convert` itself writes as a folder, and nothing else: an empty folder, an
        /// unpacked gallery (`mimetype`, `manifest.json`, `thumbnail.png`, `images/` of files),
        /// or a folder of image files (`.jpg`, `.jpeg`, `.jpe`, `.jfif`, `.png`). A folder with
        /// anything more (notes, a `.git` folder) is kept, even with --force.
        public static let galleryFolder = ReplaceRule { path in
            guard FolderOutput.kind(of: path) == .folder else { return "exists and is not a folder; it is not replaced by one" }
            guard let names = FolderOutput.entries(of: path) else { return "cannot be listed; it is not replaced" }
            if isUnpackedGallery(path, names) || names.allSatisfy({ isImageFile(FilePath(path).appending($0).string) }) { return nil }
            // Named in the message: what neither form explains (a `.git` beside a manifest, say).
            let foreign = names.filter { !unpackedNames.contains($0) && !isImageFile(FilePath(path).appending($0).string) }.sorted()
            let holds = foreign.isEmpty ? "" : " (it holds " + foreign.prefix(3).joined(separator: ", ") + (foreign.count > 3 ? ", …)" : ")")
            return "is a folder that is neither an unpacked gallery nor a folder of images\(holds); it is not replaced, even with --force"
        }

        private static let unpackedNames = [GalleryPackage.mimetypeEntry, GalleryPackage.manifestEntry,
                                            GalleryPackage.thumbnailEntry, String(GalleryPackage.blobFolder.dropLast())]

        private static func isUnpackedGallery(_ path: String, _ names: [String]) -> Bool {
            let blobs = String(GalleryPackage.blobFolder.dropLast())
            guard names.contains(GalleryPackage.mimetypeEntry), names.contains(GalleryPackage.manifestEntry) else { return false }
            return names.allSatisfy { name in
                guard unpackedNames.contains(name) else { return false }
                let entry = FilePath(path).appending(name)
                guard name == blobs else { return FolderOutput.kind(of: entry.string) == .file }
                guard let images = FolderOutput.entries(of: entry.string) else { return false }
                return images.allSatisfy { !GalleryFileSystem.isHidden($0) && FolderOutput.kind(of: entry.appending($0).string) == .file }
            }
        }

        private static func isImageFile(_ path: String) -> Bool {
            let name = GalleryFileSystem.fileName(of: path)
            let ext = GalleryFileSystem.splitExtension(name).extension.lowercased()
            return !GalleryFileSystem.isHidden(name) && [".jpg", ".jpeg", ".jpe", ".jfif", ".png"].contains(ext)
                && FolderOutput.kind(of: path) == .file
        }
    }

    /// What is at a path, for a `ReplaceRule`; a link is not followed.
    public enum EntryKind: Sendable { case missing, file, folder, link, other }

    /// What is at `path`, without following a link; `missing` when nothing is there or it cannot
    /// be examined.
    public static func kind(of path: String) -> EntryKind {
        guard let status = try? FileStatus.of(FilePath(path), followingLinks: false) else { return .missing }
        switch status.kind {
        case .regularFile: return .file
        case .directory: return .folder
        case .symbolicLink: return .link
        case .other: return .other
        }
    }

    /// The names in a folder, hidden ones included; nil when it cannot be listed.
    public static func entries(of folder: String) -> [String]? {
        try? GalleryFileSystem.entries(ofFolder: FilePath(folder))
    }
}
