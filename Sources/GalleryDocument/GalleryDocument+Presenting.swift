import FoundationEssentials
import GalleryFormat
import GallerySystem
import SystemPackage

// NSFilePresenter's part: an open document hears of changes others make to its file (another
// editor's save, `imagegallery add`, a sync client's download or conflict copy) and acts on
// them at once instead of at its next save. The decision is the same one a save makes: a
// document with no unsaved edits reads the new file; one with unsaved edits keeps them as an
// unresolved version and becomes inConflict. Nothing of either side is lost.
extension GalleryDocument {
    /// What a look at the file found.
    public enum PresentedChange: Sendable, Equatable {
        /// The file is as the document last read or wrote it.
        case unchanged
        /// Someone else's file was read in (there were no unsaved edits).
        case reloaded
        /// Someone else's file was read in and our unsaved edits were kept as this version.
        case keptAsVersion(UUID)
        /// The file is as read, but the versions beside it (sync-client conflict copies) changed.
        case versionsChanged
        /// The file is gone (deleted, moved or trashed by someone else); the document keeps its
        /// content, and a save writes it anew.
        case fileGone
    }

    /// Starts watching the document's folder (inotify): each change to its file, or a
    /// sync-client copy of it appearing or going, makes the document look at the file, as
    /// ``checkForChanges()`` does, and tell its watchers through ``events()``. It stops when the
    /// document closes, or on ``stopPresenting()``.
    ///
    /// While it presents itself, the document also lets its lock go to a writer of this host
    /// that waits for it, and takes it back after (see ``relinquishedToWriter``).
    ///
    /// - Throws: ``DocumentError/Kind/closed`` when the document is not open; `FileSystemError`
    ///   when the folder cannot be watched.
    public func startPresenting() throws {
        try requireOpen()
        guard presenter == nil else { return }
        let target = try GalleryFileSystem.resolvedPath(FilePath(path)).string
        let name = GalleryFileSystem.fileName(of: target)
        let wish = DocumentLock.wishPath(for: target).lastComponentName
        presenter = try FolderWatch(folder: GalleryFileSystem.directory(of: target)) { [weak self] names, _ in
            if names.contains(wish) { Task { await self?.relinquishIfWanted() } }
            guard names.contains(where: { $0 == name || SyncConflictCopies.client(of: $0, forDocument: name) != nil }) else { return }
            Task { try? await self?.checkForChanges() }
        }
        // A writer may have been waiting before the watch began.
        Task { await relinquishIfWanted() }
    }

    /// Stops watching the file (``close()`` does this too).
    public func stopPresenting() {
        presenter?.stop()
        presenter = nil
    }

    /// Looks at the file now and acts on what changed (see ``PresentedChange``). Called by the
    /// presenter; callable by anyone who knows the file changed.
    ///
    /// - Throws: ``DocumentError/Kind/closed``; `FileSystemError` or `GalleryError` when a
    ///   changed file cannot be read or our edits cannot be kept (they stay in memory then).
    @discardableResult
    public func checkForChanges() async throws -> PresentedChange {
        try requireOpen()
        // Our own save swaps the file: look once it is done (a change of theirs is then still seen).
        await waitForSave()
        try requireOpen()
        // The writer the lock went to is still at work: the document looks once it has the lock back.
        guard relinquishedToWriter == nil else { return .unchanged }
        let resolved = try GalleryFileSystem.resolvedPath(FilePath(path))
        guard (try? FileStatus.of(resolved, followingLinks: true)) != nil else { return .fileGone }
        if try diskIsAsRead(resolved) {
            let before = unresolved.map(\.id)
            refreshUnresolved()
            setState(settledState())
            guard unresolved.map(\.id) != before else { return .unchanged }
            emit(.stateChanged(state))
            return .versionsChanged
        }
        switch try handleExternalChange(target: resolved.string) {
        case .keptAsVersion(let id): return .keptAsVersion(id)
        case .unchanged, .saved: return .reloaded
        }
    }
}
