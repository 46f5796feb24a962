import FoundationEssentials
import GalleryFormat
import GallerySystem
import SystemPackage

/// A gallery file open for editing: UIDocument's lifecycle, carried to a Linux folder that two
/// shells, a file manager and a sync client may all touch.
///
/// Edits change the content in memory and are undoable; saves write a new file beside the old
/// one and swap it in, after checking under the document's lock that nobody else wrote since
/// it was read. If someone did, nothing is lost: their file stays and ours is kept as an
/// unresolved version (see `GalleryDocument+Versions`).
///
/// An actor: edits, saves and autosaves never interleave. Its calls that touch the disk
/// (open, save, close, versions) do blocking I/O on the actor's executor. Start with
/// <doc:EditingADocument>.
public actor GalleryDocument {
    /// The path the document was opened by (a symbolic link stays one: saves go to its target).
    public nonisolated let path: String
    /// How the document behaves: autosave, durability, the version store.
    public nonisolated let options: DocumentOptions
    /// This editing session: the lock records it.
    public nonisolated let session = UUID()

    /// Where the document stands; watchers of ``events()`` are told each change.
    public internal(set) var state: DocumentState = .closed
    /// Why the last save failed, while `state` is `.savingError`.
    public internal(set) var saveError: (any Error)?
    /// Why the document is read-only, while `state` is `.editingDisabled`.
    public internal(set) var readOnlyReason: String?
    /// Who holds the document, while it is open for reading only because of them.
    public private(set) var lockHolder: LockOwner?

    /// The content as edited, with undo and redo.
    var history: [Snapshot] = []
    var position = 0
    var nextGeneration = 1
    var savedGeneration = 0
    /// Undo steps dropped from the front of the history (`trimHistory`).
    var trimmedSteps = 0
    /// The gallery as last read from or written to disk: the base of a later merge.
    var base: Gallery?
    /// The file as last read, its blobs the cheapest source for a save.
    var reader: GalleryReader? {
        didSet {
            readerBlobs = nil
            // A save written ahead copied its blobs from the file this reader read.
            dropPreparation()
        }
    }
    /// The blobs `reader` holds, for a lookup per image instead of a scan of the manifest; made at
    /// the first lookup (`isInReader`), not on the open: at 100,000 images it is 25 ms of the
    /// editor's first paint, for an edit or a save that may never come.
    var readerBlobs: Set<SHA256Digest>?
    var diskRecord: DiskRecord?
    /// Blobs that are not in `reader`: added, transferred or taken from a version.
    var supplies: [SHA256Digest: BlobSupply] = [:]
    /// Set by a save that stored the grey placeholder as the thumbnail because the first image's
    /// pixels could not be had: that image (its source path, file name or id) and why. A command
    /// says so (issue 28); nil after a save that made the thumbnail, or kept the stored one.
    public internal(set) var placeholderThumbnail: (image: String, reason: String)?
    var lock: DocumentLock?
    var unresolved: [DocumentVersion] = []
    var watchers: [UUID: AsyncStream<DocumentEvent>.Continuation] = [:]
    var autosaveTask: Task<Void, Never>?
    /// The save being written ahead for the autosave, and the wait before it starts (see
    /// `GalleryDocument+PreparedSave`).
    var preparation: SavePreparation?
    var preparationTask: Task<Void, Never>?
    var firstUnsavedEdit: ContinuousClock.Instant?
    /// Whether a save is being written, and who waits for it (see `GalleryDocument+Saving`).
    var isSaving = false
    var saveWaiters: [CheckedContinuation<Void, Never>] = []
    /// The watch on the document's folder while it presents itself (see `startPresenting()`).
    var presenter: FolderWatch?
    /// The writer the lock went to, while it has it or is about to take it; nil once the lock
    /// is taken back (see `GalleryDocument+Relinquishing`).
    public internal(set) var relinquishedToWriter: LockOwner?
    var retakeTask: Task<Void, Never>?
    var lastEdit: ContinuousClock.Instant?

    struct Snapshot: Sendable {
        var gallery: Gallery
        var generation: Int
    }

    /// A document for the file at `path`, closed: nothing is read or locked until ``open()``.
    public init(path: String, options: DocumentOptions = DocumentOptions()) {
        self.path = path
        self.options = options
    }

    // MARK: Reading the content

    /// The gallery as it is now, edits included.
    ///
    /// - Throws: ``DocumentError/Kind/closed`` when the document is not open.
    public var gallery: Gallery {
        get throws {
            guard let snapshot = history.isEmpty ? nil : history[position] else {
                throw DocumentError(.closed, path: path, "the document is not open")
            }
            return snapshot.gallery
        }
    }

    /// True when the content differs from the file: undoing back to the saved state is clean.
    public var hasUnsavedChanges: Bool { !history.isEmpty && history[position].generation != savedGeneration }

    /// How many edits separate the content from the file: undo counts down, redo and edits up.
    /// When the saved state is no longer in the history (an edit after undoing past it), every
    /// edit up to the current one counts.
    public var changeCount: Int {
        guard !history.isEmpty else { return 0 }
        if let saved = history.firstIndex(where: { $0.generation == savedGeneration }) { return abs(position - saved) }
        // Steps the bound dropped from the front are edits since the file too (the saved state
        // was among them).
        return position + (trimmedSteps > 0 ? trimmedSteps : 1)
    }

    /// True when there is an edit to undo.
    public var canUndo: Bool { position > 0 }
    /// True when an undone edit can be redone (an edit after undoing drops what was undone).
    public var canRedo: Bool { position + 1 < history.count }

    /// A stream of what happens to the document from now on, one per watcher. It ends when
    /// the document closes; a slow watcher misses the oldest events past 256 unread.
    public func events() -> AsyncStream<DocumentEvent> {
        let (stream, continuation) = AsyncStream<DocumentEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        watchers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.forget(id) }
        }
        return stream
    }

    private func forget(_ id: UUID) { watchers[id] = nil }

    func emit(_ event: DocumentEvent) {
        for continuation in watchers.values { continuation.yield(event) }
    }

    func setState(_ new: DocumentState) {
        guard new != state else { return }
        state = new
        emit(.stateChanged(new))
    }

    /// The state that follows from the document's situation, most pressing first.
    func settledState() -> DocumentState {
        if history.isEmpty { return .closed }
        if lock == nil { return .editingDisabled }
        if saveError != nil { return .savingError }
        if unresolved.contains(where: { !$0.isResolved }) { return .inConflict }
        return .normal
    }

    // MARK: Lifecycle

    /// Creates an empty gallery at `path` (which must not exist) and opens it.
    ///
    /// - Throws: `FileSystemError` (kind `alreadyExists` when `path` exists), or what
    ///   ``open()`` throws.
    public static func create(at path: String, title: String, options: DocumentOptions = DocumentOptions()) async throws
        -> GalleryDocument {
        let now = Timestamp.now
        let gallery = Gallery(id: UUID(), revision: UUID(), title: title, created: now, modified: now)
        try GalleryWriter.write(gallery, thumbnail: try DocumentThumbnail.png(for: gallery, blob: { _ in nil }),
                                to: path, overwrite: false, durable: options.durable) { _ in
            throw DocumentError(.notAGallery, path: path, "an empty gallery has no blobs")
        }
        let document = GalleryDocument(path: path, options: options)
        _ = try await document.open()
        return document
    }

    /// Reads the file and takes the document's lock. Without the lock (someone else edits it,
    /// or its folder cannot be written) the document is open for reading only. Opening an
    /// open document does nothing and returns how it stands.
    ///
    /// Waits up to ``DocumentOptions/lockWait`` for another editor of this host, blocking the
    /// actor meanwhile.
    ///
    /// - Throws: `FileSystemError` when the file cannot be read; the reader's `GalleryError`
    ///   when it is not a valid gallery. The lock is released again on failure.
    @discardableResult
    public func open() async throws -> DocumentOpenResult {
        guard history.isEmpty else { return openResult() }
        // What a previous open found is no longer true.
        (lockHolder, readOnlyReason, saveError, unresolved) = (nil, nil, nil, [])
        // The lock first, so that what is read is what the holder of the lock may replace.
        if options.readsOnly {
            readOnlyReason = "it was opened for reading only"
        } else {
            try takeLock()
        }
        do {
            try load()
        } catch {
            lock?.release()
            lock = nil
            throw error
        }
        if lock != nil { removeLeftoverSaves() }
        refreshUnresolved()
        setState(settledState())
        return openResult()
    }

    private func takeLock() throws {
        do {
            switch try DocumentLock.acquire(for: try GalleryFileSystem.resolvedPath(FilePath(path)).string, session: session,
                                            waiting: options.lockWait) {
            case .acquired(let lock):
                self.lock = lock
            case .heldBy(let holder):
                lockHolder = holder
                readOnlyReason = "\(holder) is editing it"
            }
        } catch let error as FileSystemError where error.kind == .permissionDenied || error.code == .readOnlyFileSystem {
            readOnlyReason = "its folder cannot be written (\(error.description))"
        }
    }

    private func openResult() -> DocumentOpenResult {
        DocumentOpenResult(state: state, lockHolder: lockHolder, readOnlyReason: readOnlyReason,
                           unresolvedVersions: unresolved.filter { !$0.isResolved })
    }

    /// Reads the file as it is now, dropping the undo history.
    func load() throws {
        let target = try GalleryFileSystem.resolvedPath(FilePath(path))
        var (record, reader) = (try DiskRecord.of(path: target), try GalleryReader(path: target.string))
        // The record must describe the bytes read: a writer between the two reads means again,
        // a few times, then giving up on a file that never holds still.
        var attempts = 1
        while try !record.matches(path: target).same {
            guard attempts < 5 else {
                throw FileSystemError(kind: .other, path: path, operation: "read it while another program keeps writing it",
                                      code: .resourceBusy)
            }
            attempts += 1
            (record, reader) = (try DiskRecord.of(path: target), try GalleryReader(path: target.string))
        }
        self.reader = reader
        diskRecord = record
        base = reader.gallery
        history = [Snapshot(gallery: reader.gallery, generation: nextGeneration)]
        savedGeneration = nextGeneration
        nextGeneration += 1
        position = 0
        trimmedSteps = 0
        firstUnsavedEdit = nil
    }

    /// Saves what is unsaved, then lets the document go: the lock is released and the state
    /// becomes closed. If the save fails the document stays open (state savingError) and the
    /// error is thrown, so nothing is lost. Closing a closed document does nothing.
    ///
    /// Closing ends every stream of ``events()``. A document that is open for reading only
    /// has nothing to save and just closes.
    @discardableResult
    public func close() async throws -> DocumentCloseResult {
        guard !history.isEmpty else { return .unchanged }
        autosaveTask?.cancel()
        autosaveTask = nil
        var result = DocumentCloseResult.unchanged
        await waitForSave()
        // Edits made before the lock went to a writer are saved once it is back, never dropped.
        try await retakeForClosing()
        if hasUnsavedChanges, lock != nil {
            result = try await saveNow()
        }
        // After the save: a document whose last save failed stays open, and still hears of changes.
        stopPresenting()
        lock?.release()
        lock = nil
        Self.letGo(of: (history, reader, supplies))
        history = []
        reader = nil
        supplies = [:]
        setState(.closed)
        for continuation in watchers.values { continuation.finish() }
        watchers = [:]
        return result
    }

    /// Drops unsaved edits and reads the file again, with a new undo history.
    ///
    /// - Throws: ``DocumentError/Kind/closed`` when the document is not open; what reading
    ///   the file throws.
    public func revert() async throws {
        try requireOpen()
        await waitForSave()
        try load()
        saveError = nil
        refreshUnresolved()
        setState(settledState())
        emit(.contentChanged(history[position].gallery))
    }

    func requireOpen() throws {
        guard !history.isEmpty else { throw DocumentError(.closed, path: path, "the document is not open") }
    }

    func requireEditable() throws {
        try requireOpen()
        guard lock != nil else {
            throw DocumentError(.editingDisabled, path: path, "open for reading only: \(readOnlyReason ?? "it is locked")")
        }
    }

    /// Save files a killed save left beside the document (only the lock holder can tell they
    /// are nobody's work in progress).
    private func removeLeftoverSaves() {
        guard let target = try? GalleryFileSystem.resolvedPath(FilePath(path)) else { return }
        let folder = target.removingLastComponent()
        let prefix = "." + target.lastComponentName + ".save-"
        guard let names = try? GalleryFileSystem.entries(ofFolder: folder) else { return }
        for name in names where name.hasPrefix(prefix) { GalleryFileSystem.remove(folder.appending(name)) }
    }
}
