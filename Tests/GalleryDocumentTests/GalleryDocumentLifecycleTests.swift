import Foundation
@testable import GalleryDocument
import GalleryFormat
import GallerySystem
import GalleryTestSupport
import Testing

/// Create, open, close, a second editor, revert, events: the document's life as a whole.
@Suite("Document lifecycle")
struct GalleryDocumentLifecycleTests {
    let directory: TemporaryDirectory
    var path: String { directory.file("trip.imagegallery") }

    init() throws {
        directory = try TemporaryDirectory()
    }

    func create(title: String = "Trip") async throws -> GalleryDocument {
        try await GalleryDocument.create(at: path, title: title, options: directory.documentOptions())
    }

    @Test func createOpensANormalEmptyDocument() async throws {
        let document = try await create()
        #expect(await document.state == .normal)
        let gallery = try await document.gallery
        #expect(gallery.title == "Trip" && gallery.images.isEmpty)
        #expect(await document.hasUnsavedChanges == false)
        #expect(await document.canUndo == false)
        #expect(await document.canRedo == false)
        #expect(await document.lockHolder == nil)
        #expect(await document.readOnlyReason == nil)
        #expect(Disk.exists(DocumentLock.lockPath(for: path).string), "an editor holds the lock")
        // The file is a valid gallery with the same id.
        #expect(try DiskGallery.read(path).id == gallery.id)
        try DiskGallery.expectValid(path)

        #expect(try await document.close() == .unchanged)
        #expect(await document.state == .closed)
        #expect(!Disk.exists(DocumentLock.lockPath(for: path).string), "close lets the lock go")
    }

    @Test func createRefusesAnExistingFile() async throws {
        _ = try await create().close()
        let before = try FileBytes.read(path)
        await #expect(throws: (any Error).self) {
            _ = try await GalleryDocument.create(at: path, title: "Again", options: directory.documentOptions())
        }
        #expect(try FileBytes.read(path) == before)
    }

    @Test func openingAgainGivesTheSameContent() async throws {
        let created = try await create(title: "Holiday")
        let id = try await created.gallery.id
        try await created.close()

        let document = GalleryDocument(path: path, options: directory.documentOptions())
        #expect(await document.state == .closed)
        let result = try await document.open()
        #expect(result.state == .normal)
        #expect(result.lockHolder == nil && result.readOnlyReason == nil && result.unresolvedVersions.isEmpty)
        #expect(try await document.gallery.id == id)
        #expect(try await document.gallery.title == "Holiday")
        // Opening an open document is harmless.
        #expect(try await document.open().state == .normal)
        try await document.close()
    }

    @Test func closeSavesUnsavedEdits() async throws {
        let document = try await create()
        try await document.setTitle("Renamed")
        #expect(await document.hasUnsavedChanges)
        let result = try await document.close()
        guard case .saved(let revision) = result else {
            Issue.record("close returned \(result), not .saved")
            return
        }
        let disk = try DiskGallery.read(path)
        #expect(disk.title == "Renamed" && disk.revision == revision)
        #expect(await document.state == .closed)
        try DiskGallery.expectValid(path)
    }

    @Test func aClosedDocumentRefusesEditsAndReads() async throws {
        let document = try await create()
        try await document.close()
        let kinds: [DocumentError.Kind?] = [
            await #expect(throws: DocumentError.self) { _ = try await document.gallery }?.kind,
            await #expect(throws: DocumentError.self) { try await document.setTitle("No") }?.kind,
            await #expect(throws: DocumentError.self) { try await document.save() }?.kind,
            await #expect(throws: DocumentError.self) { try await document.revert() }?.kind,
        ]
        #expect(kinds == [.closed, .closed, .closed, .closed])
        #expect(try await document.close() == .unchanged, "closing twice is harmless")
    }

    @Test func openingAMissingFileFailsAndLeavesNoLock() async throws {
        let document = GalleryDocument(path: path, options: directory.documentOptions())
        await #expect(throws: (any Error).self) { try await document.open() }
        #expect(await document.state == .closed)
        #expect(!Disk.exists(DocumentLock.lockPath(for: path).string))
    }

    @Test func openingSomethingThatIsNotAGalleryFailsAndLetsTheLockGo() async throws {
        try FileBytes.write(Array("not a gallery\n".utf8), to: path)
        let document = GalleryDocument(path: path, options: directory.documentOptions())
        await #expect(throws: (any Error).self) { try await document.open() }
        #expect(await document.state == .closed)
        #expect(!Disk.exists(DocumentLock.lockPath(for: path).string))
        #expect(try FileBytes.read(path) == Array("not a gallery\n".utf8))
    }

    // MARK: A second editor

    /// The lock is a flock per open file description: a second document in this process sees
    /// the first as the holder, and is for reading only.
    @Test func aSecondEditorIsReadOnlyAndToldWhoHoldsIt() async throws {
        let first = try await create()
        let second = GalleryDocument(path: path, options: directory.documentOptions())
        let result = try await second.open()
        #expect(result.state == .editingDisabled)
        #expect(await second.state == .editingDisabled)
        #expect(result.lockHolder?.session == first.session)
        #expect(result.lockHolder?.pid == ProcessID.current)
        #expect(await second.lockHolder == result.lockHolder)
        #expect(result.readOnlyReason != nil)
        #expect(await second.readOnlyReason != nil)
        // Reading works...
        #expect(try await second.gallery.title == "Trip")
        // ...editing does not.
        let png = TestImage.png(seed: 1)
        let kinds: [DocumentError.Kind?] = [
            await #expect(throws: DocumentError.self) { try await second.setTitle("Mine") }?.kind,
            await #expect(throws: DocumentError.self) { try await second.insertImage(data: png) }?.kind,
            await #expect(throws: DocumentError.self) {
                try await second.insertImages(fromFiles: [TestImage.write(seed: 2, to: directory.file("b.png"))])
            }?.kind,
            await #expect(throws: DocumentError.self) { try await second.undo() }?.kind,
            await #expect(throws: DocumentError.self) { try await second.save() }?.kind,
            await #expect(throws: DocumentError.self) { try await second.removeOtherVersions() }?.kind,
        ]
        #expect(kinds == Array(repeating: .editingDisabled, count: kinds.count))
        #expect(try await second.gallery.title == "Trip")
        #expect(await second.hasUnsavedChanges == false)

        // The holder is untroubled, and the reader's close does not take the holder's lock file.
        try await first.setTitle("Holder's")
        #expect(try await first.save() != .unchanged)
        #expect(try await second.close() == .unchanged)
        #expect(Disk.exists(DocumentLock.lockPath(for: path).string))
        #expect(DocumentLock.holder(of: path)?.session == first.session)
        try await first.close()
    }

    /// A symbolic link and its target are one document: one lock.
    @Test func aLinkAndItsTargetShareOneLock() async throws {
        let first = try await create()
        let link = directory.file("link.imagegallery")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "trip.imagegallery")
        let second = GalleryDocument(path: link, options: directory.documentOptions())
        let result = try await second.open()
        #expect(result.state == .editingDisabled)
        #expect(result.lockHolder?.session == first.session)
        try await second.close()
        try await first.close()
    }

    /// Opened for reading only on purpose: no lock is taken, so an editor can still open it.
    @Test func readsOnlyOpensWithoutTheLock() async throws {
        try await create().close()
        var options = directory.documentOptions()
        options.readsOnly = true
        let reader = GalleryDocument(path: path, options: options)
        let result = try await reader.open()
        #expect(result.state == .editingDisabled)
        #expect(result.lockHolder == nil && result.readOnlyReason != nil)
        #expect(!Disk.exists(DocumentLock.lockPath(for: path).string))
        let editor = GalleryDocument(path: path, options: directory.documentOptions())
        #expect(try await editor.open().state == .normal)
        let error = await #expect(throws: DocumentError.self) { try await reader.setTitle("No") }
        #expect(error?.kind == .editingDisabled)
        try await editor.close()
        try await reader.close()
    }

    /// A reader reverts to see what the holder saved.
    @Test func aReadOnlyDocumentCanRevertToTheHoldersSave() async throws {
        let first = try await create()
        let second = GalleryDocument(path: path, options: directory.documentOptions())
        try await second.open()
        try await first.setTitle("Saved by the holder")
        try await first.save()
        #expect(try await second.gallery.title == "Trip")
        try await second.revert()
        #expect(try await second.gallery.title == "Saved by the holder")
        #expect(await second.state == .editingDisabled)
        try await second.close()
        try await first.close()
    }

    /// Once the holder has let go, opening the same document object again takes the lock: it
    /// must then be editable and must no longer name a holder or a read-only reason.
    @Test func reopeningAfterTheHolderLetsGoIsEditable() async throws {
        let first = try await create()
        let second = GalleryDocument(path: path, options: directory.documentOptions())
        #expect(try await second.open().state == .editingDisabled)
        try await second.close()
        try await first.close()

        let result = try await second.open()
        #expect(result.state == .normal)
        #expect(result.lockHolder == nil, "a stale holder is reported: \(String(describing: result.lockHolder))")
        #expect(result.readOnlyReason == nil, "a stale read-only reason is reported: \(result.readOnlyReason ?? "")")
        #expect(await second.lockHolder == nil)
        #expect(await second.readOnlyReason == nil)
        try await second.setTitle("Mine now")
        #expect(try await second.close() != .unchanged)
        #expect(try DiskGallery.read(path).title == "Mine now")
    }

    /// A failed save, undone back to the saved content and closed: reopening the document finds
    /// a sound file, so it must open normal, not with the old save's error.
    @Test func aDocumentClosedAfterAFailedSaveReopensNormal() async throws {
        let document = try await create()
        let otherName = directory.file("other-name.imagegallery")
        #expect(link(path, otherName) == 0)
        try await document.setTitle("Unsaveable")
        await #expect(throws: DocumentError.self) { try await document.save() }
        #expect(await document.state == .savingError)
        try await document.undo()
        #expect(await document.hasUnsavedChanges == false)
        #expect(try await document.close() == .unchanged)
        #expect(unlink(otherName) == 0)

        let result = try await document.open()
        #expect(result.state == .normal, "reopened as \(result.state)")
        #expect(await document.saveError == nil)
        try await document.close()
    }

    // MARK: Revert

    @Test func revertDropsUnsavedEdits() async throws {
        let document = try await create()
        try await document.setTitle("Edited")
        try await document.insertImage(data: TestImage.png(seed: 3), filename: "three.png")
        #expect(await document.hasUnsavedChanges)
        try await document.revert()
        let gallery = try await document.gallery
        #expect(gallery.title == "Trip" && gallery.images.isEmpty)
        #expect(await document.hasUnsavedChanges == false)
        #expect(await document.canUndo == false, "revert drops the undo history")
        #expect(await document.state == .normal)
        #expect(try await document.close() == .unchanged)
        #expect(try DiskGallery.read(path).title == "Trip")
    }

    // MARK: Events

    @Test func eventsReportStateContentAndSaves() async throws {
        _ = try await create().close()
        let document = GalleryDocument(path: path, options: directory.documentOptions())
        let stream = await document.events()
        try await document.open()
        try await document.setTitle("Evented")
        let result = try await document.save()
        try await document.revert()
        try await document.close()

        var events: [DocumentEvent] = []
        for await event in stream { events.append(event) }  // close finishes the stream

        #expect(events.compactMap(\.state) == [.normal, .closed])
        #expect(events.first?.state == .normal)
        #expect(events.last?.state == .closed)
        #expect(events.compactMap(\.content).map(\.title) == ["Evented", "Evented"], "the edit, then the revert")
        guard case .saved(let revision) = result else {
            Issue.record("save returned \(result)")
            return
        }
        #expect(events.compactMap(\.savedRevision) == [revision])
        #expect(try DiskGallery.read(path).revision == revision)
    }

    @Test func eachWatcherHasItsOwnStream() async throws {
        let document = try await create()
        let a = await document.events(), b = await document.events()
        try await document.setTitle("Twice")
        try await document.close()
        var seenA = 0, seenB = 0
        for await event in a where event.content != nil { seenA += 1 }
        for await event in b where event.content != nil { seenB += 1 }
        #expect(seenA == 1 && seenB == 1)
    }
}
