import FoundationEssentials
import GalleryFormat

/// Where a document stands, as UIDocument's states: one value, the most pressing first.
public enum DocumentState: Sendable, Hashable, CustomStringConvertible {
    /// Open and editable; saves go through.
    case normal
    /// Not open (before `open()` and after `close()`).
    case closed
    /// Other versions are waiting to be resolved (a save found the file changed by someone
    /// else, or a sync client left a conflict copy). Editing and saving still work.
    case inConflict
    /// The last save failed; the edits are kept in memory and the file on disk is untouched.
    case savingError
    /// Someone else holds the document, or it cannot be written: it is open for reading only.
    case editingDisabled

    /// The state in words, for messages: "in conflict", "editing disabled".
    public var description: String {
        switch self {
        case .normal: "normal"
        case .closed: "closed"
        case .inConflict: "in conflict"
        case .savingError: "saving error"
        case .editingDisabled: "editing disabled"
        }
    }
}

/// What a document tells those who watch it (the seed's store posted notifications).
public enum DocumentEvent: Sendable {
    /// The document's state became this.
    case stateChanged(DocumentState)
    /// The content changed: an edit, undo, redo, revert, or a reload of someone else's save.
    case contentChanged(Gallery)
    /// A save began (autosave, an explicit save or the one `close()` makes); ``saved(revision:)``,
    /// ``conflict(_:)`` or a state of ``DocumentState/savingError`` tells how it ended. An editor
    /// shows "Saving…" in between, however long a large gallery takes.
    case saving
    /// A save reached the disk.
    case saved(revision: UUID)
    /// A save found someone else's changes: ours became the unresolved `version`.
    case conflict(DocumentVersion)
}

/// How a document behaves.
public struct DocumentOptions: Sendable {
    /// Autosave this long after the last edit...
    public var autosaveIdle: Duration = .seconds(2)
    /// ...and at most this long after the first unsaved edit, however busy the editing.
    public var autosaveMaximum: Duration = .seconds(30)
    /// Whether the document saves by itself; ``GalleryDocument/GalleryDocument/close()`` saves
    /// either way.
    public var autosaves = true
    /// Flush to disk before and after the rename (never turn off for documents people keep).
    public var durable = true
    /// Save a document that has several hard links by replacing this name only (the other
    /// names keep the old content). Without it such a save is refused.
    public var replacesHardLinkedFile = false
    /// Open for reading only, without taking the lock (to list versions, or to show).
    public var readsOnly = false
    /// How long `open()` waits for another editor of this host to let go.
    public var lockWait: Duration = .zero
    /// Where other versions are kept.
    public var versionStore: VersionStore = .standard
    /// Image records the undo history keeps at most across its steps' distinct image lists:
    /// past it the oldest steps go. The default, about 100 MB, is ten steps of a
    /// 100,000-image gallery and a thousand (the most kept at any size) of a 1,000-image one.
    public var undoImageRecords = 1_000_000
    /// Files at least this many bytes long have their autosave written ahead: once the edits
    /// have paused for ``savePreparationPause``, the new file is written and flushed beside the
    /// old one, and the autosave, if the content is still what was written, only swaps it in.
    /// An edit meanwhile drops that file. The default, 64 MiB, is where a save starts to take
    /// a noticeable part of a second; nil never writes ahead.
    public var preparesSavesFrom: UInt64? = 64 << 20
    /// How long the edits must pause before a save is written ahead.
    public var savePreparationPause: Duration = .milliseconds(500)
    /// Runs when a save has written and flushed the new file, just before it is swapped in,
    /// with the document's file (links resolved). A write to the document here must end in a
    /// conflict, never in lost bytes: the tests use it to write during the save window.
    public var beforeSwap: (@Sendable (_ target: String) throws -> Void)?
    /// Runs off the document once a save's new file is written and flushed, before the save
    /// comes back to the document to swap it in: the tests use it to edit during a save.
    public var afterWriting: (@Sendable () async throws -> Void)?

    /// The defaults: autosave after 2 s (30 s at most), durable saves, the standard version store.
    public init() {}
}

/// Why a document operation was refused or failed; each names the document.
public struct DocumentError: Error, Sendable, DetailedError {
    /// What was refused or failed, for callers that react to it.
    public enum Kind: Sendable, Hashable {
        /// The document is not open.
        case closed
        /// The document is open for reading only (someone else holds it, or its folder cannot be
        /// written).
        case editingDisabled
        /// The file has `count` hard links; saving would leave the others with the old content
        /// (allow it with ``DocumentOptions/replacesHardLinkedFile``).
        case hardLinked(count: Int)
        /// No image has the id or reference given, or its bytes are not at hand.
        case noSuchImage
        /// A reference names several images.
        case ambiguousImage
        /// A position outside the gallery, or a transfer to the document itself.
        case indexOutOfRange
        /// A file added by path changed before the save could copy it; add it again.
        case changedSinceAdded
        /// A version's file cannot be read.
        case unknownVersion
        /// Bytes that are not an image of a type the format takes, or an empty gallery asked for a blob.
        case notAGallery
        /// A version of another document (another id) was offered to this one.
        case differentDocument
        /// The edit would make a gallery that readers refuse: it breaks the rule with this id
        /// (format sections 6 and 10). The edit was not made.
        case breaksFormatRule(DiagnosticCode)
    }

    /// What was refused.
    public var kind: Kind
    /// The document (as it was opened), what happened, and the error underneath; printed as
    /// `PATH: message`.
    public var detail: ErrorDetail

    /// An error from its parts; `underlying` is the error that caused it, when one did.
    public init(_ kind: Kind, path: String, _ message: String, underlying: (any Error)? = nil) {
        self.kind = kind
        self.detail = ErrorDetail(at: Location(file: path), message, underlying: underlying)
    }
}

/// What `open()` found.
public struct DocumentOpenResult: Sendable {
    /// The state after opening: ``DocumentState/normal``, ``DocumentState/inConflict`` or
    /// ``DocumentState/editingDisabled``.
    public var state: DocumentState
    /// Who holds the document, when it is open for reading only because of them.
    public var lockHolder: LockOwner?
    /// Why editing is disabled, in words.
    public var readOnlyReason: String?
    /// Versions waiting for a decision (a conflict left earlier, a sync client's copy).
    public var unresolvedVersions: [DocumentVersion]
}

/// What `close()` did with unsaved edits.
public enum DocumentCloseResult: Sendable, Hashable {
    /// There was nothing to save.
    case unchanged
    /// The edits were written; the file's gallery has this revision.
    case saved(revision: UUID)
    /// Someone else had changed the file: the edits were kept as an unresolved version.
    case keptAsVersion(UUID)
}
