import Foundation
@testable import GalleryDocument
import GalleryFormat
import GalleryTestSupport
import Testing

/// The presenter: an open document hears of others' changes to its file through inotify and
/// acts on them at once, without a save of its own to find them.
@Suite("Document presenter")
struct GalleryDocumentPresenterTests {
    let directory: TemporaryDirectory
    var path: String { directory.file("trip.imagegallery") }

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A saved document of two images, open and presenting.
    func presentingDocument() async throws -> GalleryDocument {
        let document = try await GalleryDocument.create(at: path, title: "Trip", options: directory.documentOptions())
        _ = try await document.insertImage(data: TestImage.png(seed: 1), filename: "1.png")
        _ = try await document.insertImage(data: TestImage.png(seed: 2), filename: "2.png")
        try await document.save()
        try await document.startPresenting()
        return document
    }

    /// Someone else's save, as another program makes it: a new file renamed over ours.
    func theirSave(_ change: @escaping (GalleryDocument) async throws -> Void) async throws {
        let theirs = try await otherRevision(of: path, in: directory, change: change)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: theirs, toPath: path)
    }

    @Test func aCleanDocumentReadsTheirSaveByItself() async throws {
        let document = try await presentingDocument()
        let events = await document.events()
        try await theirSave { try await $0.setTitle("Their trip") }
        #expect(await poll { (try? await document.gallery.title) == "Their trip" })
        #expect(await document.state == .normal)
        #expect(await document.hasUnsavedChanges == false)
        _ = try await document.close()
        var contents: [String] = []
        for await event in events { if let gallery = event.content { contents.append(gallery.title) } }
        #expect(contents.contains("Their trip"))
    }

    @Test func unsavedEditsAreKeptAsAVersionAndTheDocumentIsInConflict() async throws {
        let document = try await presentingDocument()
        try await document.setTitle("Our trip")
        try await theirSave { try await $0.setTitle("Their trip") }
        #expect(await poll { await document.state == .inConflict })
        #expect(try await document.gallery.title == "Their trip")
        let versions = try await document.unresolvedVersions()
        let ours = try #require(versions.first { $0.origin == .ours })
        #expect(ours.title == "Our trip")
        // Keep mine: our version becomes the document's content again, as an edit to save.
        try await document.replace(with: ours)
        #expect(try await document.gallery.title == "Our trip")
        try await document.save()
        #expect(try DiskGallery.read(path).title == "Our trip")
        _ = try await document.close()
    }

    @Test func aSyncClientCopyAppearingPutsTheDocumentInConflict() async throws {
        let document = try await presentingDocument()
        let copy = try await otherRevision(of: path, in: directory, name: "copy.imagegallery") { try await $0.setTitle("Phone") }
        try FileManager.default.moveItem(atPath: copy, toPath: directory.file("trip.sync-conflict-20261125-080000-ABCDEF1.imagegallery"))
        #expect(await poll { await document.state == .inConflict })
        #expect(try await document.unresolvedVersions().contains { $0.origin == .syncCopy && $0.title == "Phone" })
        _ = try await document.close()
    }

    @Test func ourOwnSavesAreNotMistakenForSomeoneElses() async throws {
        let document = try await presentingDocument()
        for index in 0 ..< 5 {
            try await document.setTitle("Title \(index)")
            try await document.save()
        }
        try await Task.sleep(for: .milliseconds(500))
        #expect(await document.state == .normal)
        #expect(try await document.unresolvedVersions().isEmpty)
        #expect(try await document.checkForChanges() == .unchanged)
        _ = try await document.close()
    }

    @Test func afterStopPresentingAChangeIsOnlyFoundWhenAsked() async throws {
        let document = try await presentingDocument()
        await document.stopPresenting()
        try await theirSave { try await $0.setTitle("Their trip") }
        try await Task.sleep(for: .milliseconds(600))
        #expect(try await document.gallery.title == "Trip")
        #expect(try await document.checkForChanges() == .reloaded)
        #expect(try await document.gallery.title == "Their trip")
        _ = try await document.close()
    }
}
