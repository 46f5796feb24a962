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
}
