import FoundationEssentials
import GalleryFormat
import GallerySystem
public import SystemPackage

/// One kept state of a document, outside the document itself: NSFileVersion's counterpart.
public struct DocumentVersion: Sendable, Codable, Hashable, Identifiable {
    /// Where a version came from.
    public enum Origin: String, Sendable, Codable {
        /// The document's file as it is now.
        case current
        /// Our edits, which a save could not write because someone else had changed the file.
        case ours
        /// Someone else's file as a conflicting save found it (kept in case it is overwritten).
        case theirs
        /// A conflict copy a sync client left beside the document.
        case syncCopy = "sync-copy"
        /// What the document was before it was replaced with another version.
        case replaced
    }

    /// The version's own id: its record and bytes are named by it.
    public var id: UUID
    /// The document's id (the gallery's `id`), shared by all its versions.
    public var documentID: UUID
    /// The document's file (symbolic links resolved) this version belongs to.
    public var documentPath: String
    /// Where the version came from.
    public var origin: Origin
    /// The gallery's revision id.
    public var revision: UUID
    /// The revisions it descends from: the lineage a merge takes its base from (empty when
    /// not known, as for a sync client's copy).
    public var parentRevisions: [UUID]
    /// When the version was kept (for a sync copy, the copy's modification time).
    public var time: Date
    /// The host that kept it; for a sync copy, the client's name.
    public var host: String
    /// False while the version waits for a decision (keep, merge or remove).
    public var isResolved: Bool
    /// Where the version's bytes are: in the store, or beside the document for a sync copy.
    public var file: String
    /// The version's title, to tell versions apart in a list.
    public var title: String
    /// How many images the version holds.
    public var imageCount: Int
    /// Images that could not be kept because another program overwrote the file in place
    /// before their bytes were saved.
    public var missingImages: [UUID] = []
    /// The manifest of the common ancestor, kept beside the version for a later merge.
    public var baseManifest: String?
}

/// The folder of kept versions: `$XDG_STATE_HOME/imagegallery/versions/<document id>/`, one
/// `<version id>.imagegallery` and one `<version id>.json` record per version. Records are
/// written by temporary file and rename, so processes can share the store.
public struct VersionStore: Sendable, Hashable {
    /// The store's folder; one folder per document below it.
    public var root: FilePath

    /// A store rooted at `root`, made when first written to.
    public init(root: FilePath) { self.root = root }

    /// `$XDG_STATE_HOME/imagegallery/versions`, else `~/.local/state/imagegallery/versions`.
    public static var standard: VersionStore { VersionStore(root: UserFolders.state().appending("versions")) }

    /// The folder of one document's versions: `ROOT/<document id>`.
    public func folder(for documentID: UUID) -> FilePath { root.appending(documentID.manifestString) }

    /// The document's folder, made (private to the user) if needed.
    private func existingFolder(for documentID: UUID) throws -> FilePath {
        let folder = folder(for: documentID)
        try GalleryFileSystem.makeFolders(folder, permissions: .ownerReadWriteExecute)
        return folder
    }

    /// The versions kept for one document file, oldest first.
    public func versions(documentID: UUID, documentPath: String) -> [DocumentVersion] {
        let folder = folder(for: documentID)
        guard let names = try? GalleryFileSystem.entries(ofFolder: folder) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return names.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".base.json") }.compactMap { name in
            // A record that does not decode is someone else's file or half-written by an old
            // version of this tool: it is passed over, not trusted.
            guard let bytes = try? GalleryFileSystem.contents(of: folder.appending(name)),
                  let version = try? decoder.decode(DocumentVersion.self, from: Data(bytes)),
                  // By bytes, as the kernel names files: String's == is canonical equivalence, so
                  // "café" composed and decomposed, two files, would share their versions.
                  FilePath(version.documentPath) == FilePath(documentPath) else { return nil }
            return version
        }.sorted { ($0.time, $0.id.uuidString) < ($1.time, $1.id.uuidString) }
    }

    /// Where a new version's bytes go; the caller writes them, then calls `record`.
    ///
    /// - Throws: `FileSystemError` when the document's folder cannot be made.
    public func newFile(documentID: UUID, version: UUID) throws -> FilePath {
        try existingFolder(for: documentID).appending(version.manifestString + ".imagegallery")
    }

    /// Keeps a base manifest for a later merge; returns its path.
    public func keepBase(_ gallery: Gallery, documentID: UUID) throws -> FilePath {
        let path = try existingFolder(for: documentID).appending(gallery.revision.manifestString + ".base.json")
        if PathKind.of(path) == .regularFile { return path }
        let bytes = Manifest.encode(gallery)
        try GalleryFileSystem.saveSafely(to: path, replacing: true) { file in try file.write(bytes, at: 0) }
        return path
    }

    /// Writes (or rewrites) a version's record, by temporary file and rename.
    ///
    /// - Throws: `FileSystemError` when the folder cannot be made, or when the
    ///   record cannot be written.
    public func record(_ version: DocumentVersion) throws {
        let folder = try existingFolder(for: version.documentID)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let bytes = [UInt8](try encoder.encode(version))
        try GalleryFileSystem.saveSafely(to: folder.appending(version.id.manifestString + ".json"), replacing: true) { file in
            try file.write(bytes, at: 0)
        }
    }

    /// Forgets a version and deletes its bytes when they are in the store.
    public func remove(_ version: DocumentVersion) {
        let folder = folder(for: version.documentID)
        // Compared by components: a file named "<folder>-x" beside the store is not in it.
        let file = FilePath(version.file)
        if file.starts(with: folder), file != folder { GalleryFileSystem.remove(file) }
        GalleryFileSystem.remove(folder.appending(version.id.manifestString + ".json"))
    }
}
