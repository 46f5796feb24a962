import GalleryFormat

// Autosave, as UIDocument's: a while after the last edit, and not later than a bound after the
// first unsaved one, so that steady editing still reaches the disk.
extension GalleryDocument {
    func scheduleAutosave() {
        autosaveTask?.cancel()
        autosaveTask = nil
        guard options.autosaves, hasUnsavedChanges, lock != nil else { return }
        let now = ContinuousClock.now
        let latest = (firstUnsavedEdit ?? now).advanced(by: options.autosaveMaximum)
        let due = min(now.advanced(by: options.autosaveIdle), latest)
        autosaveTask = Task { [weak self] in
            do {
                try await Task.sleep(until: due, clock: .continuous)
            } catch {
                return
            }
            await self?.autosave()
        }
    }

    private func autosave() {
        guard !Task.isCancelled, hasUnsavedChanges, lock != nil else { return }
        autosaveTask = nil
        // A failure is kept in `saveError` and the state; the edits stay in memory.
        _ = try? saveNow()
    }
}
