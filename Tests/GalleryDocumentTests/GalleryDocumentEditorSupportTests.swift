import Foundation
@testable import GalleryDocument
import GalleryFormat
import GalleryTestSupport
import Testing

/// What an editor needs of a document beyond edits: to know that a save is under way, and the
/// bytes of any image, saved or not.
@Suite("Document for editors")
struct GalleryDocumentEditorSupportTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test func aSaveIsAnnouncedBeforeItEndsAndNotWhenThereIsNothingToSave() async throws {
        let document = try await GalleryDocument.create(at: directory.file("a.imagegallery"), title: "A",
                                                        options: directory.documentOptions())
        let events = await document.events()
        _ = try await document.insertImage(data: TestImage.png(seed: 1), filename: "1.png")
        try await document.save()
        try await document.save()  // unchanged: no second announcement
        _ = try await document.close()
        var names: [String] = []
        for await event in events {
            switch event {
            case .saving: names.append("saving")
            case .saved: names.append("saved")
            default: break
            }
        }
        #expect(names == ["saving", "saved"])
    }

    @Test func imageDataGivesTheBytesOfAddedAndOfSavedImages() async throws {
        let path = directory.file("b.imagegallery")
        let document = try await GalleryDocument.create(at: path, title: "B", options: directory.documentOptions())
        let bytes = TestImage.png(seed: 2)
        let file = try TestImage.write(seed: 3, to: directory.file("3.png"))
        let added = try await document.insertImage(data: bytes, filename: "2.png")
        let fromFile = try await document.insertImages(fromFiles: [file])[0]
        #expect(try await document.imageData(added.id) == bytes)
        #expect(try await document.imageData(fromFile.id) == (try FileBytes.read(file)))
        try await document.save()
        _ = try await document.close()

        let reopened = GalleryDocument(path: path, options: directory.documentOptions())
        try await reopened.open()
        #expect(try await reopened.imageData(added.id) == bytes)
        await #expect(throws: DocumentError.self) { try await reopened.imageData(UUID()) }
        _ = try await reopened.close()
    }

    /// What the editor's routes ask with the image at hand: the same bytes as by id, also for an
    /// image removed since it was taken while the file still holds it, and never bytes of
    /// another image, for an image the document never had.
    @Test func imageDataOfAnImageAtHandNeedsNoLookUp() async throws {
        let path = directory.file("d.imagegallery")
        let document = try await GalleryDocument.create(at: path, title: "D", options: directory.documentOptions())
        let first = try await document.insertImage(data: TestImage.png(seed: 4), filename: "4.png")
        let second = try await document.insertImage(data: TestImage.png(seed: 5), filename: "5.png")
        #expect(try await document.imageData(of: first) == TestImage.png(seed: 4))
        try await document.save()
        let taken = try await document.gallery.images
        try await document.removeImages([second.id])
        #expect(try await document.imageData(of: taken[1]) == TestImage.png(seed: 5))
        await #expect(throws: DocumentError.self) { try await document.imageData(second.id) }
        var stranger = second
        stranger.sha256 = SHA256Hasher.of(TestImage.png(seed: 6))
        // Not in memory, not in the file: the file's reader finds no such blob.
        await #expect(throws: (any Error).self) { try await document.imageData(of: stranger) }
        _ = try await document.close()
    }
}

/// A save writes off the document: edits go on while it writes, and the next save takes them.
/// The time limits only catch a save that never lets go: with the whole suite sharing two cores,
/// CI saw these take over a minute of wall clock without anything being wrong.
@Suite("Document saves while editing")
struct GalleryDocumentSaveWhileEditingTests {
    @Test(.timeLimit(.minutes(10))) func editsMadeWhileASaveWritesAreKeptAndSavedByTheNext() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("c.imagegallery")
        let (writing, wrote) = AsyncStream<Void>.makeStream()
        let (going, go) = AsyncStream<Void>.makeStream()
        var options = directory.documentOptions()
        let gate = OneShot()
        options.afterWriting = {
            guard gate.fire() else { return }
            wrote.yield()
            for await _ in going { break }
        }
        let document = try await GalleryDocument.create(at: path, title: "C", options: options)
        let image = try await document.insertImage(data: TestImage.png(seed: 4), filename: "4.png")
        let save = Task { try await document.save() }
        for await _ in writing { break }
        // The save is held after writing: the document still takes an edit at once.
        try await document.setCaption("During the save", of: image.id)
        #expect(await document.hasUnsavedChanges)
        go.yield()
        guard case .saved = try await save.value else {
            Issue.record("the first save did not save")
            return
        }
        #expect(try DiskGallery.read(path).images.first?.caption == nil, "the first save wrote its snapshot")
        #expect(await document.hasUnsavedChanges, "the edit made during the save is still to be saved")
        #expect(try await document.gallery.images.first?.caption == "During the save")
        try await document.save()
        #expect(try DiskGallery.read(path).images.first?.caption == "During the save")
        #expect(await document.hasUnsavedChanges == false)
        _ = try await document.close()
    }

    @Test(.timeLimit(.minutes(10))) func aSecondSaveWaitsForTheFirstAndAPresenterLooksAfterIt() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("d.imagegallery")
        let (writing, wrote) = AsyncStream<Void>.makeStream()
        let (going, go) = AsyncStream<Void>.makeStream()
        var options = directory.documentOptions()
        let gate = OneShot()
        options.afterWriting = {
            guard gate.fire() else { return }
            wrote.yield()
            for await _ in going { break }
        }
        let document = try await GalleryDocument.create(at: path, title: "D", options: options)
        _ = try await document.insertImage(data: TestImage.png(seed: 5), filename: "5.png")
        let first = Task { try await document.save() }
        for await _ in writing { break }
        try await document.setTitle("Second")
        let second = Task { try await document.save() }
        // Looking at the file while our own save writes must not take our swap for theirs.
        let look = Task { try await document.checkForChanges() }
        go.yield()
        _ = try await first.value
        _ = try await second.value
        #expect(try await look.value == .unchanged)
        #expect(try DiskGallery.read(path).title == "Second")
        #expect(await document.state == .normal)
        #expect(try await document.unresolvedVersions().isEmpty)
        _ = try await document.close()
    }
}
