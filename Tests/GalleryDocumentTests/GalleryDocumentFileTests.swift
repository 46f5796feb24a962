import Foundation
@testable import GalleryDocument
import GalleryFormat
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// The file as the document last read or wrote it (`GalleryDocument.file`): after a save it is
/// the written file with the gallery the manifest was made from, read back by nobody, and it
/// says what a fresh read of the file says.
@Suite("Document file")
struct GalleryDocumentFileTests {
    let directory: TemporaryDirectory
    var path: String { directory.file("trip.imagegallery") }

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A save's reader of its new file holds the saved image list itself, not a second copy
    /// decoded from the manifest it has just written (at 100,000 images the decode is 37 MB of
    /// JSON, and the copy as much memory again as the document's own list).
    @Test func aSavesReaderHoldsTheSavedImagesWithoutDecodingThemAgain() async throws {
        let document = try await GalleryDocument.create(at: path, title: "Trip", options: directory.documentOptions())
        for seed in 1 ... 3 { try await document.insertImage(data: TestImage.png(seed: seed), filename: "\(seed).png") }
        try await document.save()
        let saved = try await document.gallery
        let file = try #require(await document.file)
        let sameStorage = file.reader.gallery.images.withUnsafeBufferPointer { theirs in
            saved.images.withUnsafeBufferPointer { ours in theirs.baseAddress == ours.baseAddress }
        }
        #expect(sameStorage, "the reader decoded the manifest it had just written")
        _ = try await document.close()
        #expect(await document.file == nil, "a closed document holds no file")
    }

    /// What the save's reader says is what a reader of the file says, down to the format version
    /// the writer chose (a cover makes it 1.1) and the revision, and its identity is the file's.
    @Test func aSavesReaderSaysWhatAFreshReadOfTheFileSays() async throws {
        let document = try await GalleryDocument.create(at: path, title: "Trip", options: directory.documentOptions())
        for seed in 1 ... 4 { try await document.insertImage(data: TestImage.png(seed: seed), filename: "\(seed).png") }
        let images = try await document.gallery.images
        try await document.moveImage(images[3].id, to: 0)
        try await document.setCover(images[2].id)
        try await document.setCaption("the harbour", of: images[1].id)
        try await document.save()
        let file = try #require(await document.file)
        let fresh = try GalleryReader(path: path)
        #expect(file.reader.gallery == fresh.gallery)
        #expect(file.reader.gallery.formatVersion == FormatVersion(major: 1, minor: 1))
        #expect(file.reader.diagnostics == fresh.diagnostics)
        #expect(file.identity == (try FileIdentity.of(path: FilePath(path))))
        for image in fresh.gallery.images {
            #expect(try file.reader.blobBytes(image) == fresh.blobBytes(image))
        }
        _ = try await document.close()
    }
}
