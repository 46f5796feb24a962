import GalleryFormat

// Autosave, as UIDocument's: a while after the last edit, and not later than a bound after the
// first unsaved one, so that steady editing still reaches the disk.
extension GalleryDocument {
    /// Called after every change of content. One task waits per stretch of unsaved edits; edits
    /// only move its due time, so a stream of edits cannot keep postponing the bound.
    func scheduleAutosave() {
        guard options.autosaves, hasUnsavedChanges, lock != nil else {
            autosaveTask?.cancel()
            autosaveTask = nil
            dropPreparation()
            return
        }
        lastEdit = ContinuousClock.now
        schedulePreparedSave()
        guard autosaveTask == nil else { return }
        autosaveTask = Task { [weak self] in
            while let due = await self?.autosaveDue() {
                do {
                    try await Task.sleep(until: due, clock: .continuous)
                } catch {
                    return
                }
                guard await self?.autosaveIfDue() == false else { return }
            }
        }
    }

    /// When the pending autosave is due, or nil when there is nothing to save.
    private func autosaveDue() -> ContinuousClock.Instant? {
        guard hasUnsavedChanges, lock != nil, let lastEdit else { return nil }
        let latest = (firstUnsavedEdit ?? lastEdit).advanced(by: options.autosaveMaximum)
        return min(lastEdit.advanced(by: options.autosaveIdle), latest)
    }

    /// Saves if the due time has come; false when it moved on (an edit came in meanwhile).
    private func autosaveIfDue() async -> Bool {
        guard !Task.isCancelled else { return true }
        guard let due = autosaveDue() else {
            autosaveTask = nil
            return true
        }
        guard ContinuousClock.now >= due else { return false }
        autosaveTask = nil
        // A failure is kept in `saveError` and the state; the edits stay in memory.
        _ = try? await saveNow()
        return true
    }
}
