import Foundation
@testable import GalleryDocument
import GalleryFormat
import GalleryImaging
import GalleryTestSupport
import Testing

/// The chosen cover through the document layer (issue 33): one undoable edit, written as format
/// 1.1 with a thumbnail made from it, and dropped (the first image standing in again) when its
/// image goes, by whatever edit.
@Suite("Document: cover")
struct GalleryDocumentCoverTests {
    let directory: TemporaryDirectory
    var path: String { directory.file("trip.imagegallery") }

    init() throws { directory = try TemporaryDirectory() }

    func start() async throws -> (GalleryDocument, [GalleryImage]) {
        let document = try await GalleryDocument.create(at: path, title: "Trip", options: directory.documentOptions())
        var images: [GalleryImage] = []
        for seed in 1 ... 3 {
            images.append(try await document.insertImage(data: TestImage.png(seed: seed, width: 40, height: 30),
                                                         filename: "\(seed).png"))
        }
        try await document.save()
        return (document, images)
    }

    /// The thumbnail the file stores, and the one made from image `seed`.
    func thumbnails(seed: Int) throws -> (stored: [UInt8], expected: [UInt8]) {
        (try GalleryReader(path: path).thumbnail(),
         try GalleryThumbnail.png(firstImage: TestImage.png(seed: seed, width: 40, height: 30)))
    }

    @Test func aCoverIsAnEditSavedWithItsThumbnail() async throws {
        let (document, images) = try await start()
        let before = try thumbnails(seed: 1)
        #expect(before.stored == before.expected)

        try await document.setCover(images[2].id)
        #expect(await document.hasUnsavedChanges)
        try await document.save()
        let saved = try GalleryReader(path: path).gallery
        #expect(saved.cover == images[2].id)
        #expect(saved.formatVersion == FormatVersion(major: 1, minor: 1))
        let after = try thumbnails(seed: 3)
        #expect(after.stored == after.expected, "the thumbnail shows the cover")
        #expect(after.stored != before.stored)
        try DiskGallery.expectValid(path)

        // Reordering keeps the cover; the thumbnail stays.
        try await document.moveImage(images[0].id, to: 2)
        try await document.save()
        #expect(try GalleryReader(path: path).gallery.cover == images[2].id)
        #expect(try thumbnails(seed: 3).stored == after.stored)

        // Unset: 1.0 again, and the first image (now image 2) on the thumbnail.
        try await document.setCover(nil)
        try await document.save()
        let unset = try GalleryReader(path: path).gallery
        #expect(unset.cover == nil && unset.formatVersion == .one)
        let first = try thumbnails(seed: 2)
        #expect(first.stored == first.expected)
    }

    @Test func removingTheCoversImageFallsBackToTheFirst() async throws {
        let (document, images) = try await start()
        try await document.setCover(images[1].id)
        try await document.removeImages([images[1].id])
        #expect(try await document.gallery.cover == nil)
        try await document.save()
        #expect(try GalleryReader(path: path).gallery.formatVersion == .one)
        let first = try thumbnails(seed: 1)
        #expect(first.stored == first.expected)

        try await document.undo()
        #expect(try await document.gallery.cover == images[1].id, "undo brings back the image and its place as cover")
    }

    @Test func anUnknownImageIsRefused() async throws {
        let (document, _) = try await start()
        await #expect(throws: DocumentError.self) { try await document.setCover(UUID()) }
        #expect(await !document.hasUnsavedChanges)
    }
}
