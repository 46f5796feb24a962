import Foundation
import GalleryDocument
import GalleryFormat
import GalleryImaging
import SystemPackage
import Testing

/// The code of "Editing a document" (GalleryDocument.docc/EditingADocument.md): a fixture
/// gallery copied to a scratch folder, opened, edited, saved, closed and read back.
@Suite("Editing a document")
struct EditingExamples {
    let scratch: ScratchFolder
    /// A copy of `Fixtures/valid/three.imagegallery`.
    let path: String
    /// The version store of these examples: never the user's.
    let stateFolder: String

    init() throws {
        scratch = try ScratchFolder()
        path = try scratch.copy(Repository.fixture("valid/three.imagegallery"), as: "three.imagegallery")
        stateFolder = scratch.file("state")
    }

    @Test func opensEditsUndoesSavesAndCloses() async throws {
        let images = Repository.images

        var options = DocumentOptions()
        options.versionStore = VersionStore(root: FilePath(stateFolder).appending("versions"))
        let document = GalleryDocument(path: path, options: options)
        let opened = try await document.open()
        let canEdit = opened.state != .editingDisabled

        #expect(canEdit && opened.state == .normal)
        #expect(opened.readOnlyReason == nil && opened.lockHolder == nil)

        let added = try await document.insertImages(fromFiles: [images + "/4-dunes.jpg"])
        let dunes = added[0].id
        try await document.setCaption("Dunes at noon", of: dunes)
        try await document.moveImage(dunes, to: 0)
        try await document.undo()

        // The move is undone; the insertion and the caption stay, and can be redone past.
        let edited = try await document.gallery
        #expect(edited.images.map(\.filename) == ["1-sunset.jpg", "2-tiles.png", "3-lighthouse.jpg", "4-dunes.jpg"])
        #expect(edited.images[3].caption == "Dunes at noon")
        #expect(await document.changeCount == 2)
        #expect(await document.canRedo)
        #expect(await document.hasUnsavedChanges)

        let outcome = try await document.save()

        guard case .saved(let revision) = outcome else {
            Issue.record("the save found the file changed: \(outcome)")
            return
        }
        #expect(await document.hasUnsavedChanges == false)
        #expect(await document.state == .normal)

        try await document.close()

        let saved = try GalleryReader(path: path).gallery

        #expect(await document.state == .closed)
        #expect(saved.revision == revision)
        #expect(saved.id == edited.id, "a save keeps the document's identity")
        #expect(saved.images.map(\.filename) == edited.images.map(\.filename))
        #expect(saved.images[3].caption == "Dunes at noon")
        #expect(saved.images[3].sha256 == (try ImageFile.inspect(images + "/4-dunes.jpg")).sha256)
        #expect(GalleryValidator.validate(path: path).isValid)
        #expect(!FileManager.default.fileExists(atPath: scratch.file(".three.imagegallery.lock")), "close releases the lock")
    }

    @Test func undoingBackToTheSavedContentIsClean() async throws {
        var options = DocumentOptions()
        options.versionStore = VersionStore(root: FilePath(stateFolder).appending("versions"))
        let document = GalleryDocument(path: path, options: options)
        try await document.open()
        try await document.setTitle("Renamed")
        try await document.undo()
        #expect(await document.hasUnsavedChanges == false)
        #expect(try await document.close() == .unchanged)
        #expect(try GalleryReader(path: path).gallery.title == "Three samples")
    }

    @Test func anEditThatBreaksARuleIsRefused() async throws {
        var options = DocumentOptions()
        options.versionStore = VersionStore(root: FilePath(stateFolder).appending("versions"))
        let document = GalleryDocument(path: path, options: options)
        try await document.open()
        let first = try await document.gallery.images[0].id
        let caption = String(repeating: "x", count: ManifestRules.maxCaptionScalars + 1)
        await #expect {
            try await document.setCaption(caption, of: first)
        } throws: { error in
            (error as? DocumentError)?.kind == .breaksFormatRule(.badValue)
        }
        #expect(await document.canUndo == false, "nothing was changed")
        try await document.close()
    }

    @Test func autosavesAfterAPause() async throws {
        let path = scratch.file("holiday.imagegallery")

        var options = DocumentOptions()
        options.autosaveIdle = .milliseconds(500)
        options.autosaveMaximum = .seconds(10)
        options.versionStore = VersionStore(root: FilePath(stateFolder).appending("versions"))

        let document = try await GalleryDocument.create(at: path, title: "Holiday", options: options)

        // Should autosave never come, closing ends the stream below (after a save of its own,
        // which the state after the loop tells apart). Long: the whole suite shares two cores,
        // and a clean-clone run once held this test's tasks back for minutes (it is no bound on speed).
        let watchdog = Task {
            try await Task.sleep(for: .seconds(600))
            try await document.close()
        }
        defer { watchdog.cancel() }

        let events = await document.events()
        try await document.setTitle("Dunes and lighthouses")
        for await event in events {
            if case .saved = event { break }
        }

        #expect(await document.state == .normal, "saved by autosave, not by the watchdog's close")
        #expect(await document.hasUnsavedChanges == false)
        #expect(try GalleryReader(path: path).gallery.title == "Dunes and lighthouses")
        try await document.close()
    }

    @Test func aSecondEditorOpensForReadingOnly() async throws {
        var options = DocumentOptions()
        options.versionStore = VersionStore(root: FilePath(stateFolder).appending("versions"))
        let document = GalleryDocument(path: path, options: options)
        try await document.open()

        let other = GalleryDocument(path: path, options: options)
        let second = try await other.open()

        #expect(second.state == .editingDisabled)
        #expect(second.lockHolder?.session == document.session)
        #expect(second.readOnlyReason?.contains("is editing it") == true)
        await #expect {
            try await other.setTitle("Mine")
        } throws: { error in
            (error as? DocumentError)?.kind == .editingDisabled
        }
        try await other.close()
        try await document.close()
    }

    /// Someone else rewrites the file (a program that takes no lock) while our edit is unsaved:
    /// the save keeps ours as a version, and the merge brings both together.
    @Test func aConflictIsKeptAsAVersionAndMerged() async throws {
        var options = DocumentOptions()
        options.versionStore = VersionStore(root: FilePath(stateFolder).appending("versions"))
        let document = GalleryDocument(path: path, options: options)
        try await document.open()
        let first = try await document.gallery.images[0].id
        try await document.setCaption("Ours", of: first)

        // The other program: same document, another title.
        let theirs = try GalleryReader(path: path)
        var changed = theirs.gallery
        changed.title = "Their title"
        changed.revision = UUID()
        try GalleryWriter.write(changed, thumbnail: try theirs.thumbnail(), to: path, overwrite: true) { image in
            .entry(theirs.archive, try theirs.blobEntry(for: image))
        }

        let outcome = try await document.save()

        guard case .keptAsVersion(let kept) = outcome else {
            Issue.record("the save did not see the other write: \(outcome)")
            return
        }
        #expect(await document.state == .inConflict)
        #expect(try await document.gallery.title == "Their title", "the document shows the file that won")
        #expect(try await document.gallery.images[0].caption == nil)

        let pending = try await document.unresolvedVersions()
        let conflicts = try await document.mergeUnresolvedVersions()

        #expect(pending.map(\.id) == [kept])
        #expect(pending[0].origin == .ours)
        #expect(conflicts.isEmpty, "\(conflicts)")
        #expect(await document.state == .normal)
        #expect(try await document.unresolvedVersions().isEmpty)
        try await document.close()

        let merged = try GalleryReader(path: path).gallery
        #expect(merged.title == "Their title")
        #expect(merged.images[0].caption == "Ours")
        #expect(GalleryValidator.validate(path: path).isValid)
    }

    @Test func mergesThreeGalleries() throws {
        let base = try GalleryReader(path: path).gallery
        var ours = base
        ours.images[0].caption = "Sunset"
        var theirs = base
        theirs.images.reverse()

        let outcome = try GalleryMerge.merge(base: base, ours: ours, theirs: theirs)
        let merged = outcome.gallery
        let unsettled = outcome.conflicts.map(\.description)

        #expect(unsettled.isEmpty)
        #expect(merged.images.map(\.filename) == ["3-lighthouse.jpg", "2-tiles.png", "1-sunset.jpg"])
        #expect(merged.images[2].caption == "Sunset")

        // Both sides captioning one image differently is a conflict; ours is kept.
        theirs.images[2].caption = "Evening"
        let clash = try GalleryMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(clash.conflicts.map(\.kind) == [.imageField(id: base.images[0].id, field: "caption")])
        #expect(clash.gallery.images.first { $0.id == base.images[0].id }?.caption == "Sunset")
    }
}
