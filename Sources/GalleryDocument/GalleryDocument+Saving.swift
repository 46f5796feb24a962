import Dispatch
import FoundationEssentials
import GalleryFormat
import GallerySystem
import SystemPackage

// Safe saves: a new file beside the old one, flushed, swapped in, the folder flushed; the old
// file checked before and after the swap, so that another writer's bytes are never lost.
//
// The writing itself (seconds for a gallery of gigabytes) runs off the actor: edits, undo and
// redo go on meanwhile, and are saved by the next save. Everything that reads or changes the
// document's state happens on the actor, before the writing and after it; a save waits for
// one under way, and nothing reloads the document while one is.
extension GalleryDocument {
    /// Writes unsaved edits. If someone else changed the file since it was read, their file
    /// stays, ours is kept as an unresolved version, and the state becomes inConflict.
    ///
    /// - Returns: ``DocumentCloseResult/saved(revision:)``, ``DocumentCloseResult/unchanged``
    ///   when there was nothing to save, or ``DocumentCloseResult/keptAsVersion(_:)`` after a
    ///   conflict.
    /// - Throws: ``DocumentError`` when the document is closed or read-only, the file has
    ///   several hard links, or an added file changed; `FileSystemError` when writing fails.
    ///   After a failure the file is untouched, the edits are kept, and the state is
    ///   ``DocumentState/savingError`` until a save succeeds.
    @discardableResult
    public func save() async throws -> DocumentCloseResult {
        try requireEditable()
        return try await saveNow()
    }

    /// Waits until no save is under way (a save's outcome is its caller's to report).
    func waitForSave() async {
        while isSaving {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in saveWaiters.append(continuation) }
        }
    }

    func saveNow() async throws -> DocumentCloseResult {
        await waitForSave()
        guard hasUnsavedChanges, !history.isEmpty else { return .unchanged }
        autosaveTask?.cancel()
        autosaveTask = nil
        isSaving = true
        defer {
            isSaving = false
            let waiters = saveWaiters
            saveWaiters = []
            for waiter in waiters { waiter.resume() }
            // Edits made while it wrote are still unsaved: they get an autosave of their own.
            scheduleAutosave()
        }
        do {
            // Cleared first: a save that ends by keeping our edits as a version may set it anew.
            // The state leaves savingError now, so that a second failure is a change watchers hear
            // of (it is how a save that began with `.saving` tells them it failed).
            saveError = nil
            setState(settledState())
            emit(.saving)
            let result = try await performSave()
            setState(settledState())
            return result
        } catch let error as FileSystemError {
            // The step that failed matters less than what it means for the user's file.
            let failure = FileSystemError(kind: error.kind, path: path, operation: "save (the file on disk is unchanged)",
                                          code: error.code)
            saveError = failure
            setState(settledState())
            throw failure
        } catch {
            saveError = error
            setState(settledState())
            throw error
        }
    }

    private func performSave() async throws -> DocumentCloseResult {
        let targetPath = try GalleryFileSystem.resolvedPath(FilePath(path))
        let target = targetPath.string
        let links = try GalleryFileSystem.linkCount(targetPath)
        if links > 1, !options.replacesHardLinkedFile {
            throw DocumentError(.hardLinked(count: links), path: path,
                                "the file has \(links) hard links; saving would leave the other names with the old "
                                + "content (allow it with replacesHardLinkedFile, or --break-hard-links)")
        }
        guard try diskIsAsRead(targetPath) else { return try handleExternalChange(target: target) }

        let generation = history[position].generation
        // A save written ahead while the autosave waited needs only the swap.
        let prepared = await takePreparedSave(of: generation)
        let pending = try prepared ?? startSave(of: generation, at: targetPath)
        let (gallery, file, savePath, isNamed) = (pending.gallery, pending.file, pending.savePath, pending.isNamed)
        var named = isNamed
        var committed = false
        defer { if named && !committed { GalleryFileSystem.remove(savePath) } }
        if prepared != nil {
            // A chmod or a new extended attribute since the writing ahead is the file's now.
            try Self.settle(file, like: targetPath, durable: options.durable)
        } else {
            // Where each blob comes from: the file as read and the supplies as they are now, taken
            // here on the actor (the writing happens off it), asked blob by blob as the writer
            // reaches it rather than made into a table of 100,000 sources first.
            let (read, supplied, documentPath) = (reader, supplies, path)
            try await Self.write(pending, copyingAttributesOf: targetPath, durable: options.durable) { image in
                try Self.blobSource(for: image, reader: read, supplies: supplied, path: documentPath)
            }
        }

        try await options.afterWriting?()
        try checkAddedFiles(of: gallery)
        if !isNamed {
            try file.link(as: savePath)
            named = true
        }

        // The last look before the swap...
        guard try diskIsAsRead(targetPath) else { return try handleExternalChange(target: target) }
        try options.beforeSwap?(target)
        if try GalleryFileSystem.exchange(savePath, targetPath) {
            // ...and a look at what the swap took out: a write that landed in between is put back.
            guard try replacedFileIsAsRead(savePath) else {
                _ = try GalleryFileSystem.exchange(savePath, targetPath)
                return try handleExternalChange(target: target)
            }
            committed = true
            GalleryFileSystem.remove(savePath)
        } else {
            // No atomic swap on this file system: the window is down to the rename itself.
            try GalleryFileSystem.replace(targetPath, with: savePath)
            committed = true
        }
        if options.durable { try GalleryFileSystem.synchronizeDirectory(targetPath.removingLastComponent()) }

        // What was written becomes what was read: the new file, through our own descriptor, and
        // the gallery its manifest was made from (decoding it again would give the same).
        let record = DiskRecord(identity: try file.identity(), fingerprint: try DiskRecord.fingerprint(file, size: try file.size))
        let previous = reader
        reader = try GalleryReader(written: ZipArchive(file: file), from: gallery)
        diskRecord = record
        // Undo and redo may bring back images whose bytes only the previous file holds; its
        // descriptor keeps them readable after the swap.
        if let previous {
            for snapshot in history {
                for image in snapshot.gallery.images where supplies[image.sha256] == nil && !isInReader(image.sha256)
                    && previous.archive.entry(named: image.path) != nil {
                    supplies[image.sha256] = .gallery(previous)
                }
            }
        }
        base = gallery
        // The content saved is the snapshot taken before writing; edits since stay unsaved.
        if let saved = history.firstIndex(where: { $0.generation == generation }) { history[saved].gallery = gallery }
        savedGeneration = generation
        firstUnsavedEdit = hasUnsavedChanges ? firstUnsavedEdit : nil
        supplies = supplies.filter { !isInReader($0.key) }
        if let previous { Self.letGo(of: previous) }
        emit(.saved(revision: gallery.revision))
        return .saved(revision: gallery.revision)
    }

    /// Drops what a document held on a thread of its own. A reader of a replaced file: its
    /// descriptor is the last reference to the old revision, already unlinked, and closing it
    /// frees the old file's blocks, 0.29 s for a gigabyte on ext4, which the save that is done
    /// need not wait for. What a close lets go: at 10,000 images the reader's entries, names
    /// and index are tens of thousands of objects (about 1 ms, RESULTS.md ac.3.4), which a
    /// command that closes and exits need not wait for.
    nonisolated static func letGo(of held: some Sendable) {
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(held) {} }
    }

    /// The new file's bytes, written, given the file's attributes and flushed on a thread of
    /// its own: the part of a save that takes time, done without holding the document.
    nonisolated static func write(_ pending: PendingSave, copyingAttributesOf target: FilePath, durable: Bool,
                                  blob: @escaping @Sendable (GalleryImage) throws -> BlobSource) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    try GalleryWriter.writeArchive(pending.gallery, thumbnail: pending.thumbnail, to: pending.file,
                                                   durable: durable, blob: blob)
                    try settle(pending.file, like: target, durable: durable)
                })
            }
        }
    }

    /// Gives the new file the old one's attributes, then flushes it.
    private nonisolated static func settle(_ file: GalleryFile, like target: FilePath, durable: Bool) throws {
        try file.copyAttributes(of: target)
        if durable { try file.synchronize() }
    }

    /// Whether the file still holds what was read. A new identity with the same content (a
    /// `touch`, a `chmod`) becomes the record, so the look after the swap compares with it.
    func diskIsAsRead(_ target: FilePath) throws -> Bool {
        guard let diskRecord else { return false }
        let (same, now) = try diskRecord.matches(path: target)
        if same, let now { self.diskRecord = now }
        return same
    }

    /// The swap renamed the old file, which changes its ctime: the rest must still agree.
    private func replacedFileIsAsRead(_ path: FilePath) throws -> Bool {
        guard let diskRecord, let now = try? DiskRecord.of(path: path) else { return false }
        let (was, is_) = (diskRecord.identity, now.identity)
        return was.device == is_.device && was.inode == is_.inode && was.size == is_.size
            && was.modifiedSeconds == is_.modifiedSeconds && was.modifiedNanoseconds == is_.modifiedNanoseconds
            && now.fingerprint == diskRecord.fingerprint
    }

    /// Where a save copies a blob from: raw from the file as read when it has it (that file is
    /// checked unchanged before the swap), else from where it was added.
    func blobSource(for image: GalleryImage) throws -> BlobSource {
        try Self.blobSource(for: image, reader: reader, supplies: supplies, path: path)
    }

    /// `blobSource(for:)` from a snapshot of the document's file and supplies, for the writer's thread.
    nonisolated static func blobSource(for image: GalleryImage, reader: GalleryReader?, supplies: [SHA256Digest: BlobSupply],
                                       path: String) throws -> BlobSource {
        if let reader, let source = try reader.rawBlobSource(for: image) { return source }
        switch supplies[image.sha256] {
        case .file(let path, let crc32, _)?:
            return .checksummedFile(path, crc32: crc32)
        case .bytes(let bytes)?:
            return .bytes(bytes)
        case .gallery(let other)?:
            return .entry(other.archive, try other.blobEntry(for: image))
        case let stripped?:
            return .made { try stripped.bytes(of: image) }
        case nil:
            throw DocumentError(.noSuchImage, path: path, "the bytes of image \(image.id.manifestString) "
                                + "(\(image.path)) are not at hand")
        }
    }

    /// A file added by path that changed since it was hashed would make the gallery lie.
    func checkAddedFiles(of gallery: Gallery) throws {
        // Most saves have none (edits of order, captions, the title): no pass over the gallery then.
        guard supplies.values.contains(where: { if case .file = $0 { true } else { false } }) else { return }
        for image in gallery.distinctBlobs {
            guard case .file(let source, _, let identity)? = supplies[image.sha256], !isInReader(image.sha256) else { continue }
            guard (try? FileIdentity.of(path: FilePath(source))) == identity else {
                throw DocumentError(.changedSinceAdded, path: path,
                                    "\(source) changed after it was added; add it again, then save")
            }
        }
    }

    /// The thumbnail for `gallery`: the stored one when the cover's bytes are unchanged.
    func thumbnail(for gallery: Gallery) throws -> [UInt8] {
        if let reader, let cover = gallery.coverImage?.sha256, cover == reader.gallery.coverImage?.sha256,
           let stored = try? reader.thumbnail() {
            placeholderThumbnail = nil
            return stored
        }
        let made = try DocumentThumbnail.made(for: gallery) { image in try self.bytes(of: image) }
        placeholderThumbnail = gallery.coverImage.flatMap { first in
            made.placeholderReason.map { (image: name(of: first), reason: $0) }
        }
        return made.png
    }

    /// An image as a command names it: the file it was added from, else its file name, else its id.
    private func name(of image: GalleryImage) -> String {
        if case .file(let source, _, _)? = supplies[image.sha256] { return source }
        return image.filename ?? image.id.manifestString
    }

    /// The bytes of the image with `id`, wherever the document holds them now (the file as read,
    /// an added file, another gallery): what an editor serves for display and download.
    ///
    /// - Throws: ``DocumentError`` (``DocumentError/Kind/noSuchImage``) when the document has no
    ///   such image or its bytes are not at hand; `FileSystemError` or `GalleryError` when
    ///   reading them fails.
    public func imageData(_ id: UUID) throws -> [UInt8] {
        guard let image = try gallery.images.first(where: { $0.id == id }) else {
            throw DocumentError(.noSuchImage, path: path, "no image has the id \(id.manifestString)")
        }
        return try imageData(of: image)
    }

    /// The bytes of `image`, taken from this document's gallery by the caller, as
    /// ``imageData(_:)`` gives them without finding the image by its id again: at 100,000 images
    /// that is a walk of the list, and the editor's first screen asked it for up to 200 images
    /// it held already. An image removed since it was taken is served while its bytes are at hand.
    ///
    /// - Throws: as ``imageData(_:)``, ``DocumentError/Kind/noSuchImage`` when its bytes are not at hand.
    package func imageData(of image: GalleryImage) throws -> [UInt8] {
        guard let bytes = try bytes(of: image) else {
            throw DocumentError(.noSuchImage, path: path, "the bytes of image \(image.id.manifestString) (\(image.path)) are not at hand")
        }
        return bytes
    }

    /// An image's bytes in memory (for the thumbnail), checked against its SHA-256.
    func bytes(of image: GalleryImage) throws -> [UInt8]? {
        guard let supply = supplies[image.sha256] else { return try reader?.blobBytes(image) }
        return try supply.bytes(of: image)
    }
}
