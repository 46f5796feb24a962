import Foundation
@testable import GalleryDocument
import GalleryFormat
import GalleryMetadata
import GalleryTestSupport
import Testing

/// A strip through the document layer (issue 32): one edit, undone and redone like any other,
/// saved as a new revision, kept as a version on conflict. Ids, order and captions stay; the
/// stripped blobs get their new SHA-256 and size, and are made again from the originals when a
/// save writes them rather than held in memory.
@Suite("Document: strip")
struct GalleryDocumentStripTests {
    let directory: TemporaryDirectory
    var path: String { directory.file("trip.imagegallery") }
    /// A JPEG exiftool 12.57 wrote a GPS position, a city, a serial number, an owner and an artist into.
    let photo: [UInt8]

    init() throws {
        directory = try TemporaryDirectory()
        photo = try FileBytes.read(TestPaths.fixture("fuzz/metadata/accepted-gps-identity-jpeg.bin"))
    }

    /// Saved: the photo (captioned), a plain PNG, and the photo again under another id.
    func start() async throws -> (GalleryDocument, [GalleryImage]) {
        let document = try await GalleryDocument.create(at: path, title: "Trip", options: directory.documentOptions())
        let images = [
            try await document.insertImage(data: photo, filename: "IMG_20240601_101500.jpg", caption: "Paris"),
            try await document.insertImage(data: TestImage.png(seed: 1), filename: "tiles.png"),
            try await document.insertImage(data: photo, filename: "again.jpg"),
        ]
        try await document.save()
        return (document, images)
    }

    func privacy(ofImageAt index: Int, in file: String) throws -> ImagePrivacy {
        let reader = try GalleryReader(path: file)
        let image = reader.gallery.images[index]
        return ImageMetadata.privacy(of: try reader.blobBytes(image), type: image.mediaType)
    }

    @Test func aStripIsOneEditThatKeepsIdsOrderAndCaptions() async throws {
        let (document, images) = try await start()
        let report = try await document.stripMetadata(.location)
        #expect(report.changed.map(\.position) == [1, 3])
        #expect(report.changed.first?.removed.contains("EXIF GPS") == true)
        #expect(report.left.isEmpty)

        let stripped = try await document.gallery
        #expect(stripped.images.map(\.id) == images.map(\.id))
        #expect(stripped.images.map(\.caption) == ["Paris", nil, nil])
        #expect(stripped.images[0].sha256 != images[0].sha256 && stripped.images[0].sha256 == stripped.images[2].sha256)
        #expect(stripped.images[1] == images[1], "an image without a location is not touched")
        #expect(await document.hasUnsavedChanges)

        try await document.undo()
        #expect(try await document.gallery.images == images, "undo brings back the originals")
        try await document.redo()
        #expect(try await document.gallery.images == stripped.images)
        try await document.save()

        let disk = try DiskGallery.read(path)
        #expect(disk.images.map(\.id) == images.map(\.id))
        try DiskGallery.expectValid(path)
        let after = try privacy(ofImageAt: 0, in: path)
        #expect(after.location.isEmpty, "\(after.location)")
        #expect(after.identity.contains("EXIF BodySerialNumber"), "a location strip keeps identity")
        #expect(disk.images[0].byteSize == UInt64(try DiskGallery.blobs(path)[images[0].id]!.count))
    }

    @Test func undoAfterTheSaveBringsTheLocationBack() async throws {
        let (document, images) = try await start()
        _ = try await document.stripMetadata([.location, .identity])
        try await document.save()
        #expect(try privacy(ofImageAt: 0, in: path).identity.isEmpty)
        // The originals are only in the file as it was before the save.
        try await document.undo()
        try await document.save()
        #expect(try DiskGallery.read(path).images.map(\.sha256) == images.map(\.sha256))
        #expect(try privacy(ofImageAt: 0, in: path).location.contains("EXIF GPS"))
    }

    @Test func neutralNamesReplaceOriginalFileNames() async throws {
        let (document, _) = try await start()
        let report = try await document.stripMetadata([], neutralNames: true)
        #expect(report.renamed == 3 && report.changed.isEmpty)
        #expect(try await document.gallery.images.map(\.filename) == ["001.jpg", "002.png", "003.jpg"])
    }

    @Test func aStripThatMeetsAnotherWriterIsKeptAsAVersion() async throws {
        let (document, _) = try await start()
        let theirs = directory.file("theirs.imagegallery")
        try Disk.run("/bin/cp", [path, theirs])
        let other = GalleryDocument(path: theirs, options: directory.documentOptions())
        try await other.open()
        try await other.setTitle("Their trip")
        try await other.save()
        _ = try await other.close()

        _ = try await document.stripMetadata(.location)
        try Disk.run("/bin/cp", [theirs, path])
        let result = try await document.save()
        guard case .keptAsVersion(let id) = result else {
            Issue.record("the save returned \(result), not keptAsVersion")
            return
        }
        let version = try #require(try await document.otherVersions().first { $0.id == id })
        #expect(try privacy(ofImageAt: 0, in: version.file).location.isEmpty, "the version holds the stripped images")
        #expect(try privacy(ofImageAt: 0, in: path).location.contains("EXIF GPS"), "their file is theirs")
    }

    @Test func purgingVersionsEmptiesTheStoreOfTheDocument() async throws {
        let (document, _) = try await start()
        let id = try await document.gallery.id
        let folder = directory.versionStore.folder(for: id).string
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileBytes.write(Array("{}".utf8), to: folder + "/old.base.json")
        try await document.purgeVersions()
        #expect(!FileManager.default.fileExists(atPath: folder))
    }
}
