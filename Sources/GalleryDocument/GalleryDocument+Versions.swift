import FoundationEssentials
import GalleryFormat
import GallerySystem
import SystemPackage

// NSFileVersion's questions and answers: which versions there are, which are unresolved, and
// how a conflict is settled (keep one, or merge them all).
extension GalleryDocument {
    /// The document's file as it is now, as a version (origin ``DocumentVersion/Origin/current``).
    ///
    /// - Throws: ``DocumentError/Kind/closed`` when the document is not open.
    public func currentVersion() throws -> DocumentVersion {
        try requireOpen()
        let gallery = reader?.gallery ?? history[position].gallery
        return DocumentVersion(
            id: gallery.revision, documentID: gallery.id, documentPath: try GalleryFileSystem.resolvedPath(FilePath(path)).string,
            origin: .current, revision: gallery.revision, parentRevisions: [], time: WallClock.date,
            host: CurrentProcess.hostName, isResolved: true, file: try GalleryFileSystem.resolvedPath(FilePath(path)).string,
            title: gallery.title, imageCount: gallery.images.count)
    }

    /// Every other version: kept in the store, or left beside the file by a sync client.
    /// Looks again on every call (a sync client may have left a copy since), oldest first.
    ///
    /// - Throws: ``DocumentError/Kind/closed`` when the document is not open.
    public func otherVersions() throws -> [DocumentVersion] {
        try requireOpen()
        refreshUnresolved()
        return unresolved
    }

    /// The versions waiting for a decision.
    public func unresolvedVersions() throws -> [DocumentVersion] {
        try otherVersions().filter { !$0.isResolved }
    }

    func refreshUnresolved() {
        guard let gallery = reader?.gallery, let target = try? GalleryFileSystem.resolvedPath(FilePath(path)).string else { return }
        let store = options.versionStore
        let kept = store.versions(documentID: gallery.id, documentPath: target)
        let byID = Dictionary(kept.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var found = kept.filter { $0.origin != .syncCopy }
        for copy in (try? SyncConflictCopies.copies(of: target, documentID: gallery.id)) ?? [] {
            guard let other = try? GalleryReader(path: copy.path) else { continue }
            // The same copy keeps its id while its content does, so its resolution is remembered.
            let id = UUID.nameBased(namespace: gallery.id,
                                    name: "sync-copy:\(GalleryFileSystem.fileName(of: copy.path)):\(other.gallery.revision)")
            let time = (try? FileIdentity.of(path: FilePath(copy.path))).map { Date(timeIntervalSince1970: Double($0.modifiedSeconds)) }
            found.append(DocumentVersion(
                id: id, documentID: gallery.id, documentPath: target, origin: .syncCopy,
                revision: other.gallery.revision, parentRevisions: [], time: time ?? WallClock.date,
                host: copy.client.rawValue, isResolved: byID[id]?.isResolved ?? false, file: copy.path,
                title: other.gallery.title, imageCount: other.gallery.images.count))
        }
        unresolved = found
    }

    /// Records that a version no longer needs a decision; the state leaves
    /// ``DocumentState/inConflict`` when it was the last.
    ///
    /// - Throws: ``DocumentError/Kind/closed``; `FileSystemError` when the record cannot be
    ///   written.
    public func markResolved(_ version: DocumentVersion) throws {
        try requireOpen()
        var resolved = version
        resolved.isResolved = true
        try options.versionStore.record(resolved)
        refreshUnresolved()
        setState(settledState())
    }

    /// Forgets every other version, deleting the store's copies and the sync clients' conflict
    /// copies beside the file.
    ///
    /// - Throws: ``DocumentError/Kind/closed`` or ``DocumentError/Kind/editingDisabled``.
    public func removeOtherVersions() throws {
        try requireEditable()
        for version in try otherVersions() {
            if version.origin == .syncCopy { GalleryFileSystem.remove(FilePath(version.file)) }
            options.versionStore.remove(version)
        }
        refreshUnresolved()
        setState(settledState())
    }

    /// Forgets every other version, as ``removeOtherVersions()`` does, and deletes everything
    /// the version store keeps of the document (the base manifests of merges too): after a
    /// strip, nothing on this machine but the file holds what was removed.
    ///
    /// - Throws: ``DocumentError/Kind/closed`` or ``DocumentError/Kind/editingDisabled``;
    ///   `FileSystemError` when the store's folder cannot be deleted.
    public func purgeVersions() throws {
        try removeOtherVersions()
        let gallery = history[position].gallery
        try GalleryFileSystem.removeTree(options.versionStore.folder(for: gallery.id))
    }

    /// Makes a version the document's content and saves it (undoably: undo returns to what
    /// was there before). The version itself stays until it is removed.
    ///
    /// - Throws: ``DocumentError/Kind/unknownVersion`` when its file cannot be read,
    ///   ``DocumentError/Kind/differentDocument`` when it is another document's; what
    ///   ``save()`` throws.
    public func replace(with version: DocumentVersion) async throws {
        try requireEditable()
        let other = try readVersion(version)
        var content = other.gallery
        content.revision = history[position].gallery.revision
        try adopt(content, from: other)
        _ = try await saveNow()
    }

    /// Settles every unresolved version by three-way merge with the current content (keyed by
    /// image id; see `GalleryMerge`), saves the result, and marks them resolved. Conflicts the
    /// merge could not settle are returned; for each, the current side was kept.
    ///
    /// - Throws: as ``replace(with:)`` does. When a version cannot be read, nothing is
    ///   changed.
    @discardableResult
    public func mergeUnresolvedVersions() async throws -> [GalleryMerge.Conflict] {
        try requireEditable()
        var merged = history[position].gallery
        // Without a kept ancestor (a sync client's copy), the stand-in base is made against the
        // content before any merge, so one copy's reorder is not undone by the next copy.
        let before = merged
        var conflicts: [GalleryMerge.Conflict] = []
        var readers: [GalleryReader] = []
        let pending = try unresolvedVersions()
        for version in pending {
            let other = try readVersion(version)
            let base = try version.baseManifest.flatMap { path -> Gallery? in
                guard let bytes = try? GalleryFileSystem.contents(of: FilePath(path)) else { return nil }
                return try Manifest.decodeOrThrow(bytes).0
            } ?? Self.commonBase(before, other.gallery)
            let outcome = try GalleryMerge.merge(base: base, ours: merged, theirs: other.gallery)
            merged = outcome.gallery
            conflicts += outcome.conflicts
            readers.append(other)
        }
        for other in readers { try adopt(merged, from: other, editing: false) }
        try edit { $0 = merged }
        _ = try await saveNow()
        for version in pending { try markResolved(version) }
        return conflicts
    }

    /// The content of `other` (or `content`, whose blobs it holds) as one undoable edit.
    private func adopt(_ content: Gallery, from other: GalleryReader, editing: Bool = true) throws {
        for image in content.distinctBlobs where supplies[image.sha256] == nil && !isInReader(image.sha256)
            && other.archive.entry(named: image.path) != nil {
            supplies[image.sha256] = .gallery(other)
        }
        if editing { try edit { $0 = content } }
    }

    private func readVersion(_ version: DocumentVersion) throws -> GalleryReader {
        let other: GalleryReader
        do {
            other = try GalleryReader(path: version.file)
        } catch {
            throw DocumentError(.unknownVersion, path: path, "version \(version.id.manifestString) cannot be read: \(error)",
                                underlying: error)
        }
        guard other.gallery.id == history[position].gallery.id else {
            throw DocumentError(.differentDocument, path: path,
                                "version \(version.id.manifestString) is another document (id \(other.gallery.id.manifestString))")
        }
        return other
    }

    /// A stand-in ancestor when none was kept (a sync client's copy): the images both sides
    /// have, and values that match neither side where they differ, so that such differences
    /// are reported as conflicts instead of one side silently winning.
    static func commonBase(_ ours: Gallery, _ theirs: Gallery) -> Gallery {
        var base = ours
        let unknown = "\u{0}"
        if ours.title != theirs.title { base.title = unknown }
        let theirsByID = Dictionary(theirs.images.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        base.images = ours.images.compactMap { image in
            guard let other = theirsByID[image.id] else { return nil }
            var common = image
            if image.caption != other.caption { common.caption = unknown }
            if image.filename != other.filename { common.filename = unknown }
            if image.source != other.source { common.source = unknown }
            return common
        }
        return base
    }
}
