import FoundationEssentials
import GalleryFormat
import GallerySystem
import SystemPackage

// NSFilePresenter's relinquishPresentedItem(toWriter:): a document that presents itself holds
// its lock for as long as it is open, yet a writer of this host that waits for the lock (an
// `imagegallery add --wait` while the editor shows the gallery) gets it. The document lets go
// without saving, refuses edits while the writer works, takes the lock back once the writer is
// done, and then looks at the file as the presenter does: a clean document reads the writer's
// file; one with unsaved edits keeps them as a version and becomes inConflict. A writer that
// does not wait (no `--wait`) is refused as before.
extension GalleryDocument {
    /// Lets the lock go if a live writer of this host waits for it (its wish file is there).
    func relinquishIfWanted() async {
        guard presenter != nil, let target = try? GalleryFileSystem.resolvedPath(FilePath(path)).string,
              let writer = DocumentLock.writerWaiting(for: target), writer.session != session else { return }
        // A save under way finishes first: the writer then sees our last save, not half of one.
        await waitForSave()
        guard lock != nil, relinquishedToWriter == nil, !history.isEmpty else { return }
        autosaveTask?.cancel()
        autosaveTask = nil
        lock?.release()
        lock = nil
        relinquishedToWriter = writer
        readOnlyReason = "\(writer) is changing it; editing resumes when it is done"
        setState(settledState())
        retakeTask = Task { [weak self] in
            while await self?.retake() == false {
                try? await Task.sleep(for: Self.retakePause)
            }
        }
    }

    /// How often a document that let its lock go tries to take it back.
    static let retakePause = Duration.milliseconds(50)

    /// Takes the lock back once no writer waits for it and the one that had it let go. False
    /// while it cannot yet; true once done (or when there is nothing left to take back).
    func retake() async -> Bool {
        guard relinquishedToWriter != nil, !history.isEmpty, let target = try? GalleryFileSystem.resolvedPath(FilePath(path)).string else {
            return true
        }
        // Until the writer has taken the lock its wish stays, and the lock must stay free for it.
        if let writer = DocumentLock.writerWaiting(for: target), writer.session != session { return false }
        guard case .acquired(let taken)? = try? DocumentLock.acquire(for: target, session: session) else { return false }
        lock = taken
        relinquishedToWriter = nil
        readOnlyReason = nil
        retakeTask = nil
        setState(settledState())
        // What the writer did: read in, or beside our unsaved edits as a conflict.
        _ = try? await checkForChanges()
        scheduleAutosave()
        return true
    }

    /// Before closing: waits for the lock to come back (up to ``DocumentOptions/lockWait``, and
    /// at least 10 s), so that unsaved edits are saved and not dropped.
    ///
    /// - Throws: ``DocumentError/Kind/editingDisabled`` when the writer keeps the lock and there
    ///   are unsaved edits: the document stays open with them.
    func retakeForClosing() async throws {
        guard relinquishedToWriter != nil else { return }
        retakeTask?.cancel()
        retakeTask = nil
        let deadline = ContinuousClock.now.advanced(by: max(options.lockWait, .seconds(10)))
        while await !retake(), ContinuousClock.now < deadline {
            try? await Task.sleep(for: Self.retakePause)
        }
        guard relinquishedToWriter != nil else { return }
        let writer = relinquishedToWriter.map { "\($0)" } ?? "a writer"
        if hasUnsavedChanges {
            throw DocumentError(.editingDisabled, path: path,
                                "\(writer) still has the lock: the unsaved edits stay open here until it lets go")
        }
        relinquishedToWriter = nil
    }
}
