import Foundation
@testable import GalleryDocument
import GalleryFormat
import GalleryTestSupport
import Testing

/// Edits, undo and redo, transfers between documents, and what a save writes.
@Suite("Document editing")
struct GalleryDocumentEditingTests {
    let directory: TemporaryDirectory
    var path: String { directory.file("trip.imagegallery") }

    init() throws {
        directory = try TemporaryDirectory()
    }

    func create(_ name: String = "trip.imagegallery", title: String = "Trip") async throws -> GalleryDocument {
        try await GalleryDocument.create(at: directory.file(name), title: title, options: directory.documentOptions())
    }

    /// A document holding images of the given seeds, saved.
    func createSaved(_ name: String = "trip.imagegallery", seeds: [Int]) async throws -> (GalleryDocument, [GalleryImage]) {
        let document = try await create(name)
        var images: [GalleryImage] = []
        for seed in seeds {
            images.append(try await document.insertImage(data: TestImage.png(seed: seed), filename: "\(seed).png"))
        }
        try await document.save()
        return (document, images)
    }

    // MARK: Images in

    @Test func insertFromFilesAndFromDataThenSave() async throws {
        let document = try await create()
        let a = try TestImage.write(seed: 1, to: directory.file("a.png"), width: 12, height: 7)
        let b = try TestImage.write(seed: 2, to: directory.file("b.png"))
        let files = try await document.insertImages(fromFiles: [a, b])
        #expect(files.map(\.filename) == ["a.png", "b.png"])
        #expect(files.map(\.mediaType) == [.png, .png])
        #expect(files[0].width == 12 && files[0].height == 7 && files[1].width == 8 && files[1].height == 6)
        #expect(files[0].byteSize == UInt64(try FileBytes.read(a).count))
        #expect(files[0].sha256 == SHA256Hasher.of(try FileBytes.read(a)))

        let cBytes = TestImage.png(seed: 3)
        let c = try await document.insertImage(data: cBytes, filename: "c.png", source: "https://example.com/c.png",
                                               caption: "Sea", at: 0)
        #expect(c.caption == "Sea" && c.filename == "c.png" && c.source == "https://example.com/c.png")
        #expect(try await document.gallery.images.map(\.id) == [c.id, files[0].id, files[1].id])
        #expect(await document.hasUnsavedChanges)

        let result = try await document.save()
        guard case .saved(let revision) = result else {
            Issue.record("save returned \(result)")
            return
        }
        #expect(await document.hasUnsavedChanges == false)
        #expect(await document.state == .normal)

        let disk = try DiskGallery.read(path)
        #expect(disk.revision == revision)
        #expect(disk.images.map(\.id) == [c.id, files[0].id, files[1].id])
        #expect(disk.images.map(\.filename) == ["c.png", "a.png", "b.png"])
        #expect(disk.images[0].caption == "Sea")
        #expect(disk.images.map(\.sha256) == [c.sha256, files[0].sha256, files[1].sha256])
        let blobs = try DiskGallery.blobs(path)
        #expect(blobs[c.id] == cBytes)
        #expect(blobs[files[0].id] == (try FileBytes.read(a)))
        #expect(blobs[files[1].id] == (try FileBytes.read(b)))
        try DiskGallery.expectValid(path)
        try await document.close()
    }

    @Test func theSameBytesTwiceAreStoredOnce() async throws {
        let document = try await create()
        let bytes = TestImage.png(seed: 4)
        let first = try await document.insertImage(data: bytes, filename: "one.png")
        let second = try await document.insertImage(data: bytes, filename: "two.png")
        #expect(first.id != second.id && first.sha256 == second.sha256)
        try await document.save()
        let reader = try GalleryReader(path: path)
        #expect(reader.gallery.images.count == 2)
        #expect(reader.archive.entries.filter { $0.name.hasPrefix("images/") }.count == 1)
        try DiskGallery.expectValid(path)
        try await document.close()
    }

    @Test func whatIsNotAnImageIsRefused() async throws {
        let document = try await create()
        let error = await #expect(throws: DocumentError.self) {
            try await document.insertImage(data: Array("plain text".utf8), filename: "notes.txt")
        }
        #expect(error?.kind == .notAGallery)
        let text = directory.file("notes.png")
        try FileBytes.write(Array("plain text, named like a PNG".utf8), to: text)
        await #expect(throws: (any Error).self) { try await document.insertImages(fromFiles: [text]) }
        await #expect(throws: (any Error).self) {
            try await document.insertImages(fromFiles: [directory.file("missing.png")])
        }
        #expect(try await document.gallery.images.isEmpty)
        #expect(await document.hasUnsavedChanges == false)
        #expect(await document.canUndo == false)
        try await document.close()
    }

    @Test func anInsertPastTheEndIsRefused() async throws {
        let document = try await create()
        let error = await #expect(throws: DocumentError.self) {
            try await document.insertImage(data: TestImage.png(seed: 1), at: 1)
        }
        #expect(error?.kind == .indexOutOfRange)
        #expect(try await document.gallery.images.isEmpty)
        try await document.close()
    }

    /// A file added by path is copied when the document saves: if it changed in between (here
    /// one byte, the size unchanged), the save is refused and the file on disk is left as it was.
    @Test func aFileThatChangedAfterItWasAddedIsRefused() async throws {
        let document = try await create()
        let image = try TestImage.write(seed: 5, to: directory.file("changing.png"))
        try await document.insertImages(fromFiles: [image])
        let before = try FileBytes.read(path)
        var changed = try FileBytes.read(image)
        changed[changed.count - 20] ^= 0xFF
        try FileBytes.write(changed, to: image)
        let error = await #expect(throws: DocumentError.self) { try await document.save() }
        #expect(error?.kind == .changedSinceAdded)
        #expect(await document.state == .savingError)
        #expect(await document.saveError != nil)
        #expect(try FileBytes.read(path) == before)
        #expect(Disk.names(in: directory.path).filter { $0.contains(".save-") }.isEmpty, "no save file is left behind")
        try await document.revert()
        #expect(await document.state == .normal)
        try await document.close()
    }

    /// The same when the added file changed size: refused, as the same kind of error (the
    /// caller tells the user to add the file again).
    @Test func aFileThatChangedSizeAfterItWasAddedIsRefused() async throws {
        let document = try await create()
        let image = try TestImage.write(seed: 5, to: directory.file("changing.png"))
        try await document.insertImages(fromFiles: [image])
        let before = try FileBytes.read(path)
        try TestImage.write(seed: 6, to: image, width: 9, height: 9)
        await #expect(throws: (any Error).self) { try await document.save() }
        let error = await #expect(throws: DocumentError.self) { try await document.save() }
        #expect(error?.kind == .changedSinceAdded)
        #expect(await document.state == .savingError)
        #expect(try FileBytes.read(path) == before)
        #expect(Disk.names(in: directory.path).filter { $0.contains(".save-") }.isEmpty, "no save file is left behind")
        try await document.revert()
        try await document.close()
    }

    // MARK: Changing what is there

    @Test func removeMoveTitleAndCaption() async throws {
        let (document, images) = try await createSaved(seeds: [1, 2, 3, 4])
        let ids = images.map(\.id)

        try await document.moveImage(ids[0], to: 3)
        #expect(try await document.gallery.images.map(\.id) == [ids[1], ids[2], ids[3], ids[0]])
        try await document.moveImage(ids[3], to: 0)
        #expect(try await document.gallery.images.map(\.id) == [ids[3], ids[1], ids[2], ids[0]])

        try await document.removeImages([ids[1], ids[2]])
        #expect(try await document.gallery.images.map(\.id) == [ids[3], ids[0]])

        try await document.setTitle("Renamed")
        try await document.setCaption("Fourth", of: ids[3])
        try await document.setCaption("First", of: ids[0])
        try await document.setCaption("", of: ids[0])  // empty removes it
        let gallery = try await document.gallery
        #expect(gallery.title == "Renamed")
        #expect(gallery.images.map(\.caption) == ["Fourth", nil])

        try await document.save()
        let disk = try DiskGallery.read(path)
        #expect(disk.title == "Renamed")
        #expect(disk.images.map(\.id) == [ids[3], ids[0]])
        #expect(disk.images.map(\.caption) == ["Fourth", nil])
        let reader = try GalleryReader(path: path)
        #expect(reader.archive.entries.filter { $0.name.hasPrefix("images/") }.count == 2, "removed blobs are not kept")
        let blobs = try DiskGallery.blobs(path)
        #expect(blobs[ids[3]] == TestImage.png(seed: 4) && blobs[ids[0]] == TestImage.png(seed: 1))
        try DiskGallery.expectValid(path)
        try await document.close()
    }

    @Test func badReferencesAreRefused() async throws {
        let (document, images) = try await createSaved(seeds: [1, 2])
        let unknown = UUID()
        let kinds: [DocumentError.Kind?] = [
            await #expect(throws: DocumentError.self) { try await document.removeImages([images[0].id, unknown]) }?.kind,
            await #expect(throws: DocumentError.self) { try await document.moveImage(unknown, to: 0) }?.kind,
            await #expect(throws: DocumentError.self) { try await document.moveImage(images[0].id, to: 2) }?.kind,
            await #expect(throws: DocumentError.self) { try await document.setCaption("x", of: unknown) }?.kind,
            await #expect(throws: DocumentError.self) {
                try await document.setTitle(String(repeating: "x", count: 1001))
            }?.kind,
        ]
        #expect(kinds == [.noSuchImage, .noSuchImage, .indexOutOfRange, .noSuchImage, .breaksFormatRule(.badValue)])
        #expect(try await document.gallery.images.map(\.id) == images.map(\.id), "a refused edit changes nothing")
        #expect(await document.hasUnsavedChanges == false)
        try await document.close()
    }

    @Test func imagesAreFoundByPositionIdOrFileName() async throws {
        let (document, images) = try await createSaved(seeds: [1, 2])
        #expect(try await document.image(matching: "2").id == images[1].id)
        #expect(try await document.image(matching: images[0].id.manifestString).id == images[0].id)
        // A number is a position: an id whose first 8 characters are all digits (one in 43) is
        // named by 9, the 9th being the dash.
        let id = images[1].id.manifestString
        #expect(try await document.image(matching: String(id.prefix(Int(id.prefix(8)) == nil ? 8 : 9))).id == images[1].id)
        #expect(try await document.image(matching: "1.png").id == images[0].id)
        await #expect(throws: DocumentError.self) { try await document.image(matching: "3") }
        try await document.close()
    }

    // MARK: Undo and redo

    @Test func undoAndRedoWalkTheHistory() async throws {
        let document = try await create()
        let a = try await document.insertImage(data: TestImage.png(seed: 1))
        try await document.setTitle("Two")
        try await document.setCaption("cap", of: a.id)
        #expect(await document.canUndo)
        #expect(await document.canRedo == false)

        try await document.undo()
        #expect(try await document.gallery.images[0].caption == nil)
        try await document.undo()
        #expect(try await document.gallery.title == "Trip")
        #expect(await document.canRedo)
        try await document.redo()
        #expect(try await document.gallery.title == "Two")

        // A new edit drops what could have been redone.
        try await document.setTitle("Three")
        #expect(await document.canRedo == false)
        try await document.redo()  // nothing to redo: harmless
        #expect(try await document.gallery.title == "Three")

        try await document.undo()
        try await document.undo()
        try await document.undo()
        #expect(try await document.gallery.images.isEmpty)
        #expect(try await document.gallery.title == "Trip")
        #expect(await document.canUndo == false)
        try await document.undo()  // nothing to undo: harmless
        try await document.close()
    }

    /// The undo history is bounded: each step that moves an image holds a copy of the image
    /// list, so a long session on a large gallery grew without end. Past the bound the oldest
    /// steps go; a title's edit shares its list and costs no records.
    @Test func theUndoHistoryKeepsItsNewestStepsWithinItsBound() async throws {
        var options = directory.documentOptions()
        options.undoImageRecords = 100
        let document = try await GalleryDocument.create(at: path, title: "Trip", options: options)
        var ids: [UUID] = []
        for seed in 0 ..< 10 { ids.append(try await document.insertImage(data: TestImage.png(seed: seed)).id) }
        // 10 + 9 + … + 1 = 55 records so far, and the empty list: within the bound.
        for step in 0 ..< 30 { try await document.moveImage(ids[step % 10], to: 9) }
        for step in 0 ..< 40 { try await document.setTitle("Title \(step)") }
        let newest = try await document.gallery
        var undone = 0
        while await document.canUndo {
            try await document.undo()
            undone += 1
        }
        // Ten lists of ten images fit; the forty titles share the last one's list.
        #expect(undone == 40 + 9, "\(undone) steps could be undone")
        #expect(try await document.gallery.title == "Trip")
        for _ in 0 ..< undone { try await document.redo() }
        #expect(try await document.gallery == newest)
        #expect(await document.changeCount == 10 + 30 + 40, "every edit since the save still counts")
        try await document.close()
    }

    @Test func undoingBackToTheSavedStateIsClean() async throws {
        let document = try await create()
        try await document.setTitle("One")
        #expect(await document.hasUnsavedChanges)
        try await document.undo()
        #expect(await document.hasUnsavedChanges == false, "back at the opened content")
        try await document.redo()
        #expect(await document.hasUnsavedChanges)

        try await document.save()
        #expect(await document.hasUnsavedChanges == false)
        #expect(await document.changeCount == 0)
        try await document.setTitle("Two")
        try await document.setTitle("Three")
        #expect(await document.changeCount == 2)
        try await document.undo()
        try await document.undo()
        #expect(await document.hasUnsavedChanges == false, "back at the saved content")
        #expect(await document.changeCount == 0)
        try await document.undo()
        #expect(await document.hasUnsavedChanges, "before the save is not what is on disk")
        #expect(await document.changeCount == 1)
        #expect(try await document.gallery.title == "Trip")
        try await document.redo()
        #expect(await document.hasUnsavedChanges == false)
        #expect(await document.changeCount == 0)
        #expect(try await document.save() == .unchanged)
        #expect(try DiskGallery.read(path).title == "One")
        try await document.close()
    }

    @Test func anEditThatChangesNothingIsNoEdit() async throws {
        let document = try await create()
        try await document.setTitle("Trip")
        #expect(await document.canUndo == false)
        #expect(await document.hasUnsavedChanges == false)
        try await document.close()
    }

    /// Undo goes back past a save: the saved removal is undone, and saving that must work (the
    /// removed image's bytes were in the file the document read before the save).
    @Test func undoingASavedRemovalCanBeSaved() async throws {
        let (document, images) = try await createSaved(seeds: [1, 2])
        try await document.removeImages([images[0].id])
        try await document.save()
        #expect(try DiskGallery.read(path).images.map(\.id) == [images[1].id])

        try await document.undo()
        #expect(try await document.gallery.images.map(\.id) == images.map(\.id))
        do {
            let result = try await document.save()
            #expect(result != .unchanged)
        } catch {
            Issue.record("saving the undone removal failed: \(error)")
        }
        #expect(await document.state == .normal)
        #expect(try DiskGallery.read(path).images.map(\.id) == images.map(\.id))
        #expect(try DiskGallery.blobs(path)[images[0].id] == TestImage.png(seed: 1))
        try DiskGallery.expectValid(path)
        _ = try? await document.revert()
        try await document.close()
    }

    // MARK: Between documents

    @Test func transferMovesImagesWithTheirBytes() async throws {
        let (source, images) = try await createSaved("source.imagegallery", seeds: [1, 2, 3])
        let destination = try await create("destination.imagegallery", title: "Destination")
        let added = try await destination.insertImage(data: TestImage.png(seed: 9), filename: "9.png")

        let moved = try await source.transferImages([images[2].id, images[0].id], to: destination, at: 0)
        #expect(moved.map(\.id) == [images[2].id, images[0].id], "free ids are kept")
        #expect(try await source.gallery.images.map(\.id) == [images[1].id])
        #expect(try await destination.gallery.images.map(\.id) == [images[2].id, images[0].id, added.id])

        // The source saves first: the destination must still have the moved images' bytes.
        try await source.save()
        try await destination.save()
        let destinationPath = directory.file("destination.imagegallery"), sourcePath = directory.file("source.imagegallery")
        #expect(try DiskGallery.read(destinationPath).images.map(\.id) == [images[2].id, images[0].id, added.id])
        #expect(try DiskGallery.read(sourcePath).images.map(\.id) == [images[1].id])
        let blobs = try DiskGallery.blobs(destinationPath)
        #expect(blobs[images[2].id] == TestImage.png(seed: 3) && blobs[images[0].id] == TestImage.png(seed: 1))
        try DiskGallery.expectValid(destinationPath)
        try DiskGallery.expectValid(sourcePath)
        try await source.close()
        try await destination.close()
    }

    @Test func transferCopiesImagesAndRenewsTakenIds() async throws {
        let (source, images) = try await createSaved("source.imagegallery", seeds: [1, 2])
        let destination = try await create("destination.imagegallery", title: "Destination")
        // Added to the source and not saved yet: its bytes are only in memory.
        let unsaved = try await source.insertImage(data: TestImage.png(seed: 7), filename: "7.png")

        let first = try await source.transferImages([images[0].id, unsaved.id], to: destination, copy: true)
        #expect(first.map(\.id) == [images[0].id, unsaved.id])
        // The same again: those ids are taken in the destination now.
        let second = try await source.transferImages([images[0].id], to: destination, copy: true)
        #expect(second.count == 1 && second[0].id != images[0].id && second[0].sha256 == images[0].sha256)
        #expect(try await source.gallery.images.map(\.id) == [images[0].id, images[1].id, unsaved.id], "a copy keeps them")

        try await destination.save()
        let destinationPath = directory.file("destination.imagegallery")
        let disk = try DiskGallery.read(destinationPath)
        #expect(disk.images.map(\.id) == [images[0].id, unsaved.id, second[0].id])
        let blobs = try DiskGallery.blobs(destinationPath)
        #expect(blobs[unsaved.id] == TestImage.png(seed: 7) && blobs[second[0].id] == TestImage.png(seed: 1))
        try DiskGallery.expectValid(destinationPath)
        try await source.close()
        try await destination.close()
    }

    /// A transfer to a document that cannot take it leaves the source as it was.
    @Test func aRefusedTransferRemovesNothing() async throws {
        let (source, images) = try await createSaved("source.imagegallery", seeds: [1])
        let holder = try await create("destination.imagegallery")
        let readOnly = GalleryDocument(path: directory.file("destination.imagegallery"), options: directory.documentOptions())
        try await readOnly.open()
        let error = await #expect(throws: DocumentError.self) {
            try await source.transferImages([images[0].id], to: readOnly)
        }
        #expect(error?.kind == .editingDisabled)
        #expect(try await source.gallery.images.map(\.id) == [images[0].id])
        #expect(await source.hasUnsavedChanges == false)
        try await readOnly.close()
        try await holder.close()
        try await source.close()
    }
}
