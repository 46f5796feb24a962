import FoundationEssentials
import GalleryFormat
import GallerySystem
import Synchronization
import SystemPackage

// A large gallery's autosave, written while the autosave waits. Every save writes the whole
// file (format 4.6 puts the blobs in gallery order), and at 100,000 images that is 700 MB and
// over a second after the autosave delay. So once the edits have paused, the new file is
// written and flushed beside the old one; when the autosave comes and the content is still
// what was written, the save only checks the old file and swaps the new one in. An edit
// meanwhile stops the writing and drops the file: the next pause writes again.
extension GalleryDocument {
    /// A save's new file and the gallery it holds, from the moment it is made to its swap.
    final class PendingSave: Sendable {
        /// The history's generation the content was taken from.
        let generation: Int
        /// The content with the save's revision, time and generator.
        let gallery: Gallery
        let thumbnail: [UInt8]
        let file: GalleryFile
        /// Where the file is named before the swap; already its name when `isNamed`.
        let savePath: FilePath
        /// The file system had no O_TMPFILE: the file has had its name from the start, and one
        /// that is dropped must be removed.
        let isNamed: Bool
        private let stopped = Mutex(false)

        init(generation: Int, gallery: Gallery, thumbnail: [UInt8], file: GalleryFile, savePath: FilePath, isNamed: Bool) {
            (self.generation, self.gallery, self.thumbnail) = (generation, gallery, thumbnail)
            (self.file, self.savePath, self.isNamed) = (file, savePath, isNamed)
        }

        /// Asks the writing to stop at its next blob.
        func stop() { stopped.withLock { $0 = true } }
        var isStopped: Bool { stopped.withLock { $0 } }
    }

    /// A save being written ahead, or written and waiting for the autosave.
    struct SavePreparation {
        let pending: PendingSave
        /// True once the file is whole and flushed; false when the writing failed or stopped.
        let written: Task<Bool, Never>
    }

    /// Whether this document's saves are written ahead: a file at least
    /// ``DocumentOptions/preparesSavesFrom`` bytes long, autosaved, and held for editing.
    private var preparesSaves: Bool {
        guard options.autosaves, lock != nil, let from = options.preparesSavesFrom, let diskRecord else { return false }
        return diskRecord.identity.size >= from
    }

    /// Called after every change of content: drops a preparation the change made stale, and
    /// writes the new content ahead once the edits have paused.
    func schedulePreparedSave() {
        guard let generation = history.isEmpty ? nil : history[position].generation else { return }
        if let preparation, preparation.pending.generation != generation { dropPreparation() }
        guard preparesSaves, hasUnsavedChanges, preparation == nil else { return }
        preparationTask?.cancel()
        let pause = options.savePreparationPause
        preparationTask = Task { [weak self] in
            do {
                try await Task.sleep(for: pause)
            } catch {
                return
            }
            await self?.prepareSave(of: generation)
        }
    }

    /// Starts writing the content of `generation` if it is still the content, unsaved and not
    /// being saved. A save that cannot start (an added file changed, the folder refuses a new
    /// file) is left to the autosave, which reports it.
    private func prepareSave(of generation: Int) {
        preparationTask = nil
        guard preparesSaves, !isSaving, preparation == nil, hasUnsavedChanges, history[position].generation == generation,
              let target = try? GalleryFileSystem.resolvedPath(FilePath(path)),
              let pending = try? startSave(of: generation, at: target) else { return }
        let (read, supplied, documentPath, durable) = (reader, supplies, path, options.durable)
        let written = Task.detached {
            do {
                try await Self.write(pending, copyingAttributesOf: target, durable: durable) { image in
                    guard !pending.isStopped else { throw CancellationError() }
                    return try Self.blobSource(for: image, reader: read, supplies: supplied, path: documentPath)
                }
                return true
            } catch {
                if pending.isNamed { GalleryFileSystem.remove(pending.savePath) }
                return false
            }
        }
        preparation = SavePreparation(pending: pending, written: written)
    }

    /// The new file for the content of `generation`: written ahead and whole, or nil when there
    /// is none. A preparation of other content is stopped and dropped; one of this content
    /// still being written is waited for (it is the writing this save would do).
    func takePreparedSave(of generation: Int) async -> PendingSave? {
        preparationTask?.cancel()
        preparationTask = nil
        guard let preparation else { return nil }
        self.preparation = nil
        guard preparation.pending.generation == generation else {
            Self.drop(preparation)
            return nil
        }
        return await preparation.written.value ? preparation.pending : nil
    }

    /// The revision of the save written ahead, once its file is whole; nil when there is none or
    /// its writing stopped. For the tests, which cannot otherwise tell it from an ordinary save.
    func preparedRevision() async -> UUID? {
        guard let preparation else { return nil }
        return await preparation.written.value ? preparation.pending.gallery.revision : nil
    }

    /// Stops and drops the save being written ahead, if any: the content, the file as read or
    /// the document's state changed under it.
    func dropPreparation() {
        preparationTask?.cancel()
        preparationTask = nil
        guard let preparation else { return }
        self.preparation = nil
        Self.drop(preparation)
    }

    private nonisolated static func drop(_ preparation: SavePreparation) {
        preparation.pending.stop()
        Task.detached {
            // A file still being written is removed by its writer; a finished one, here.
            if await preparation.written.value, preparation.pending.isNamed { GalleryFileSystem.remove(preparation.pending.savePath) }
        }
    }

    /// A save's first part, on the actor: the content to write, with its new revision and time,
    /// its thumbnail, and the new file beside the old one.
    func startSave(of generation: Int, at targetPath: FilePath) throws -> PendingSave {
        guard let snapshot = history.first(where: { $0.generation == generation }) else {
            throw DocumentError(.closed, path: path, "the content to save is no longer in the history")
        }
        var gallery = snapshot.gallery
        gallery.revision = UUID()
        gallery.modified = max(Timestamp.now, gallery.created)
        gallery.generator = Gallery.generatorName
        try checkAddedFiles(of: gallery)
        let thumbnail = try thumbnail(for: gallery)
        let folder = targetPath.removingLastComponent()
        let (file, isNamed) = try GalleryFile.createUnnamed(in: folder, for: targetPath)
        let savePath = isNamed ? file.filePath
            : folder.appending("." + targetPath.lastComponentName + ".save-" + UUID().uuidString.lowercased())
        return PendingSave(generation: generation, gallery: gallery, thumbnail: thumbnail, file: file, savePath: savePath,
                           isNamed: isNamed)
    }
}
