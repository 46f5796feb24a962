// The undo history's bounds: every step is a snapshot of the content, and a step of a
// 100,000-image gallery that moved or changed an image holds its own copy of the image list
// (about 10 MB), so a long session of such edits grew without end.
extension GalleryDocument {
    /// Undo steps kept at most, whatever their size.
    static let maxUndoSteps = 1_000

    /// Drops the oldest steps past either bound (`maxUndoSteps`, and the options'
    /// `undoImageRecords` counted over distinct lists: a title's edit shares its list with the
    /// step before); the current step and those after it stay.
    func trimHistory() {
        var lists = Set<UnsafeRawPointer?>()
        var records = 0
        for snapshot in history {
            let list = snapshot.gallery.images.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            if lists.insert(list).inserted { records += snapshot.gallery.images.count }
        }
        var dropped = 0
        while dropped < position && (history.count - dropped > Self.maxUndoSteps || records > options.undoImageRecords) {
            let list = history[dropped].gallery.images.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            // A list the next step shares is still held.
            let next = history[dropped + 1].gallery.images.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            if list != next { records -= history[dropped].gallery.images.count }
            dropped += 1
        }
        guard dropped > 0 else { return }
        history.removeFirst(dropped)
        position -= dropped
        trimmedSteps += dropped
    }
}
