import Foundation
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
    case stateChanged(DocumentState)
    /// The content changed: an edit, undo, redo, revert, or a reload of someone else's save.
    case contentChanged(Gallery)
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
    /// Runs when a save has written and flushed the new file, just before it is swapped in,
    /// with the document's file (links resolved). A write to the document here must end in a
    /// conflict, never in lost bytes: the tests use it to write during the save window.
    public var beforeSwap: (@Sendable (_ target: String) throws -> Void)?

    public init() {}
}

/// Why a document operation was refused or failed; each names the document.
public struct DocumentError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case closed
        case editingDisabled
        case hardLinked(count: Int)
        case noSuchImage
        case ambiguousImage
        case indexOutOfRange
        case changedSinceAdded
        case unknownVersion
        case notAGallery
        case differentDocument
        /// The edit would make a gallery that readers refuse: it breaks the rule with this id
        /// (format sections 6 and 10). The edit was not made.
        case breaksFormatRule(DiagnosticCode)
    }

    public var kind: Kind
    public var path: String
    public var message: String

    public init(_ kind: Kind, path: String, _ message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// What `open()` found.
public struct DocumentOpenResult: Sendable {
    public var state: DocumentState
    /// Who holds the document, when it is open for reading only because of them.
    public var lockHolder: LockOwner?
    /// Why editing is disabled, in words.
    public var readOnlyReason: String?
    public var unresolvedVersions: [DocumentVersion]
}

/// What `close()` did with unsaved edits.
public enum DocumentCloseResult: Sendable, Hashable {
    /// There was nothing to save.
    case unchanged
    case saved(revision: UUID)
    /// Someone else had changed the file: the edits were kept as an unresolved version.
    case keptAsVersion(UUID)
}
