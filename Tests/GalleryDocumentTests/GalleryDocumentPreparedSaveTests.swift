import Foundation
@testable import GalleryDocument
import GalleryFormat
import GallerySystem
import GalleryTestSupport
import Testing

/// A large gallery's autosave written ahead while the autosave waits, then only swapped in; the
/// tests lower the size from which it happens to nothing, and keep the autosave itself away.
@Suite("Document saving: saves written ahead")
struct GalleryDocumentPreparedSaveTests {
    let directory: TemporaryDirectory
    var path: String { directory.file("trip.imagegallery") }

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Writes ahead after a 10 ms pause; the autosave itself never comes due (the tests save).
    func options() -> DocumentOptions {
        var options = directory.documentOptions(autosaves: true)
        options.autosaveIdle = .seconds(3600)
        options.autosaveMaximum = .seconds(3600)
        options.preparesSavesFrom = 0
        options.savePreparationPause = .milliseconds(10)
        return options
    }

    func create() async throws -> GalleryDocument {
        let document = try await GalleryDocument.create(at: path, title: "Trip", options: options())
        for seed in 1 ... 3 {
            try await document.insertImage(data: TestImage.png(seed: seed), filename: "\(seed).png")
        }
        try await document.save()
        return document
    }

    /// The save files a save leaves beside the document while it writes (a named one where the
    /// file system has no O_TMPFILE).
    func leftovers() -> [String] { Disk.names(in: directory.path).filter { $0.contains(".save-") } }

    /// Waits for the save written ahead; nil when none was written within the bound.
    func prepared(_ document: GalleryDocument) async -> UUID? {
        var revision: UUID?
        _ = await poll {
            revision = await document.preparedRevision()
            return revision != nil
        }
        return revision
    }

    @Test func aPausedEditIsWrittenAheadAndTheSaveOnlySwapsItIn() async throws {
        let document = try await create()
        let before = try FileBytes.read(path)
        let last = try #require(try await document.gallery.images.last)
        try await document.moveImage(last.id, to: 0)
        let revision = try #require(await prepared(document), "no save was written ahead within the bound")
        #expect(try FileBytes.read(path) == before, "writing ahead leaves the document's file alone")
        #expect(try await document.save() == .saved(revision: revision), "the save is the one written ahead")
        let saved = try DiskGallery.read(path)
        #expect(saved.revision == revision)
        #expect(saved.images.first?.id == last.id)
        try DiskGallery.expectValid(path)
        #expect(await document.hasUnsavedChanges == false)
        #expect(leftovers().isEmpty)
        try await document.close()
    }

    @Test func anEditAfterTheWritingDropsIt() async throws {
        let document = try await create()
        try await document.setTitle("First")
        let stale = try #require(await prepared(document), "no save was written ahead within the bound")
        try await document.setTitle("Second")
        let result = try await document.save()
        #expect(result != .saved(revision: stale), "the file written ahead held the content before the last edit")
        #expect(try DiskGallery.read(path).title == "Second")
        try DiskGallery.expectValid(path)
        #expect(leftovers().isEmpty)
        try await document.close()
    }

    /// Whatever the timing of the edits against the writing ahead (stopped in the middle,
    /// finished and dropped, taken), the file ends with the last edit and nothing beside it.
    @Test func editsWhileWritingAheadAlwaysSaveTheLastContent() async throws {
        let document = try await create()
        for round in 1 ... 12 {
            try await document.setTitle("Round \(round)")
            let images = try await document.gallery.images
            try await document.moveImage(images[round % images.count].id, to: 0)
            try await Task.sleep(for: .milliseconds(round % 4 * 5))
        }
        let expected = try await document.gallery
        try await document.save()
        let saved = try DiskGallery.read(path)
        #expect(saved.title == "Round 12")
        #expect(saved.images.map(\.id) == expected.images.map(\.id))
        try DiskGallery.expectValid(path)
        try await document.close()
        #expect(await poll { leftovers().isEmpty })
    }

    @Test func undoingBackToTheFileDropsTheWritingAhead() async throws {
        let document = try await create()
        try await document.setTitle("Undone")
        #expect(await prepared(document) != nil, "no save was written ahead within the bound")
        try await document.undo()
        #expect(await document.hasUnsavedChanges == false)
        #expect(await document.preparedRevision() == nil)
        #expect(try await document.save() == .unchanged)
        try await document.close()
    }

    /// The file written ahead took the document's mode then; a chmod since is the user's word.
    @Test func aModeSetAfterTheWritingAheadIsKept() async throws {
        let document = try await create()
        try await document.setTitle("Private")
        #expect(await prepared(document) != nil, "no save was written ahead within the bound")
        #expect(chmod(path, 0o640) == 0)
        try await document.save()
        #expect(try DiskGallery.read(path).title == "Private")
        #expect(Disk.status(path).map { $0.st_mode & 0o7777 } == 0o640)
        try await document.close()
    }

    /// Another program's save after the file was written ahead: the swap is refused as any
    /// save's is, their file stays and ours becomes a version.
    @Test func aFileChangedAfterTheWritingAheadEndsInAConflict() async throws {
        let document = try await create()
        try await document.setTitle("Ours")
        #expect(await prepared(document) != nil, "no save was written ahead within the bound")
        let theirs = try await otherRevision(of: path, in: directory) { other in try await other.setTitle("Theirs") }
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: theirs, toPath: path)
        let theirsBytes = try FileBytes.read(path)
        let result = try await document.save()
        guard case .keptAsVersion = result else {
            Issue.record("the save returned \(result), not keptAsVersion")
            return
        }
        #expect(try FileBytes.read(path) == theirsBytes, "their file stays, byte for byte")
        #expect(leftovers().isEmpty)
        try await document.close()
    }
}
