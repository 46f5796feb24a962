import Foundation
@testable import GalleryDocument
import GalleryFormat
import GalleryTestSupport
import Testing

/// A presenting document lets its lock go to a writer of this host that waits for it (as an
/// NSFilePresenter relinquishes to a writer), refuses edits meanwhile, takes the lock back once
/// the writer is done, and then reads the writer's file, or keeps its unsaved edits beside it.
@Suite("Document relinquishing its lock to a waiting writer")
struct GalleryDocumentRelinquishingTests {
    let directory: TemporaryDirectory
    var path: String { directory.file("trip.imagegallery") }

    /// How long a writer waits, and a check waits for the document: the whole suite runs side by
    /// side on two cores, where the presenter's task can wait long for a thread. Never a bound on speed.
    /// The two threads of Swift's pool also run the synchronous tests, each holding one for as
    /// long as its programs run, and a job queued meanwhile waits behind every one of them: CI
    /// once saw the presenter's task wait more than 120 s, and this suite alone beside some 150
    /// such tests takes 20 s where it takes 1 s on its own.
    static let patience = Duration.seconds(600)

    init() throws {
        directory = try TemporaryDirectory()
    }

    func savedDocument(autosaves: Bool = true, lockWait: Duration = .zero) async throws -> GalleryDocument {
        var options = directory.documentOptions()
        options.autosaves = autosaves
        options.lockWait = lockWait
        let document = try await GalleryDocument.create(at: path, title: "Trip", options: options)
        _ = try await document.insertImage(data: TestImage.png(seed: 1), filename: "1.png")
        try await document.save()
        return document
    }

    /// A writer as `imagegallery caption --wait` is one: it waits for the lock (on a thread of
    /// its own, as another process would), then saves a new title while holding it.
    func waitingWriter(title: String, waiting: Duration = Self.patience) async throws -> Bool {
        let path = self.path
        let lock: DocumentLock? = try await Blocking.run {
            if case .acquired(let lock) = try DocumentLock.acquire(for: path, waiting: waiting) { return lock }
            return nil
        }
        guard let lock else { return false }
        #expect(DocumentLock.writerWaiting(for: path) == nil, "the writer's wish is withdrawn once it has the lock")
        let theirs = try await otherRevision(of: path, in: directory) { try await $0.setTitle(title) }
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: theirs, toPath: path)
        lock.release()
        return true
    }

    @Test func aCleanDocumentLetsAWaitingWriterInAndThenReadsItsFile() async throws {
        let document = try await savedDocument()
        try await document.startPresenting()
        #expect(try await waitingWriter(title: "Their trip"))
        #expect(await poll(timeout: Self.patience) { (try? await document.gallery.title) == "Their trip" })
        #expect(await poll(timeout: Self.patience) { await document.state == .normal })
        // The lock is the document's again: it edits and saves as before.
        #expect(DocumentLock.holder(of: path)?.session == document.session)
        try await document.setTitle("Ours again")
        try await document.save()
        #expect(try DiskGallery.read(path).title == "Ours again")
        _ = try await document.close()
    }

    @Test func unsavedEditsStayAndMeetTheWritersFileAsAConflict() async throws {
        let document = try await savedDocument(autosaves: false)
        try await document.startPresenting()
        try await document.setTitle("Our trip")
        #expect(try await waitingWriter(title: "Their trip"))
        #expect(await poll(timeout: Self.patience) { await document.state == .inConflict })
        #expect(try await document.gallery.title == "Their trip")
        let ours = try #require(try await document.unresolvedVersions().first { $0.origin == .ours })
        #expect(ours.title == "Our trip")
        #expect(try DiskGallery.read(path).title == "Their trip", "the writer's save stays on disk")
        _ = try await document.close()
    }

    @Test func editsAreRefusedWithTheWriterNamedWhileItHasTheLock() async throws {
        let document = try await savedDocument()
        try await document.startPresenting()
        let path = self.path
        let lock = try await Blocking.run { () -> DocumentLock? in
            if case .acquired(let lock) = try DocumentLock.acquire(for: path, waiting: Self.patience) { return lock }
            return nil
        }
        let held = try #require(lock)
        #expect(await document.state == .editingDisabled)
        #expect(await document.relinquishedToWriter?.session == held.owner.session)
        await #expect(throws: DocumentError.self) { try await document.setTitle("Not now") }
        #expect(await document.readOnlyReason?.contains("is changing it") == true)
        held.release()
        #expect(await poll(timeout: Self.patience) { await document.state == .normal })
        try await document.setTitle("Now")
        #expect(try await document.gallery.title == "Now")
        _ = try await document.close()
        #expect(try DiskGallery.read(path).title == "Now")
    }

    @Test func aWriterThatDoesNotWaitIsRefusedAsBefore() async throws {
        let document = try await savedDocument()
        try await document.startPresenting()
        #expect(try await waitingWriter(title: "Never", waiting: .zero) == false)
        #expect(DocumentLock.holder(of: path)?.session == document.session)
        _ = try await document.close()
    }

    @Test func aDocumentThatDoesNotPresentItselfKeepsItsLock() async throws {
        let document = try await savedDocument()
        #expect(try await waitingWriter(title: "Never", waiting: .milliseconds(600)) == false)
        #expect(DocumentLock.holder(of: path)?.session == document.session)
        #expect(DocumentLock.writerWaiting(for: path) == nil, "a writer that gave up withdraws its wish")
        _ = try await document.close()
    }

    @Test func closingWaitsForTheLockAndSavesTheEditsMadeBefore() async throws {
        let document = try await savedDocument(autosaves: false, lockWait: Self.patience)
        try await document.startPresenting()
        try await document.setTitle("Before the writer")
        let path = self.path
        let lock = try #require(try await Blocking.run { () -> DocumentLock? in
            if case .acquired(let lock) = try DocumentLock.acquire(for: path, waiting: Self.patience) { return lock }
            return nil
        })
        // The writer lets go a moment after the close began (on a thread of its own, as another
        // process would); the close waits for the lock and then saves.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.3)
            lock.release()
        }
        _ = try await document.close()
        #expect(try DiskGallery.read(path).title == "Before the writer")
        #expect(DocumentLock.holder(of: path) == nil)
    }
}
