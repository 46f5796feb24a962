import Foundation
import GalleryBuilder
import GalleryFormat
import GallerySystem
import GalleryTestSupport
import Testing

/// The builder through its public API, on the bundled sample images: what every writer of the
/// package now relies on.
@Suite struct GalleryBuilderTests {
    let samples = TestPaths.fixture("images")

    @Test func aFolderGivesItsImagesInNaturalOrderAndSkipsTheRest() throws {
        let folder = try TemporaryDirectory()
        for name in ["10-fractal.jpg", "2-tiles.png"] { _ = try folder.copy(samples + "/" + name) }
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: folder.file("notes.txt")))
        try Data("hidden".utf8).write(to: URL(fileURLWithPath: folder.file(".hidden")))
        let (images, skipped) = try GalleryBuilder.imageFiles(in: [folder.path])
        #expect(images.map { URL(fileURLWithPath: $0).lastPathComponent } == ["2-tiles.png", "10-fractal.jpg"])
        #expect(skipped == [folder.file("notes.txt")])
    }

    @Test func aMissingSourceIsNamed() throws {
        let error = #expect(throws: GalleryBuildError.self) { try GalleryBuilder.imageFiles(in: ["/nonexistent/photos"]) }
        #expect(error?.kind == .noSuchSource)
        #expect(error?.description == "/nonexistent/photos: no such file or folder")
    }

    @Test func theSameImagesGiveTheSameBytes() throws {
        let folder = try TemporaryDirectory()
        let paths = try GalleryBuilder.imageFiles(in: [samples]).images
        let builder = GalleryBuilder(title: "Samples", date: Timestamp(rfc3339: "2026-01-02T03:04:05Z"),
                                     images: try SourceImage.inspect(files: paths))
        let first = try builder.write(to: folder.file("a.imagegallery"))
        let second = try builder.write(to: folder.file("b.imagegallery"))
        #expect(try FileBytes.read(folder.file("a.imagegallery")) == FileBytes.read(folder.file("b.imagegallery")))
        #expect(first.gallery.id == second.gallery.id)

        let read = try GalleryReader(path: folder.file("a.imagegallery")).gallery
        #expect(read == first.gallery)
        #expect(read.images.map(\.filename) == paths.map { URL(fileURLWithPath: $0).lastPathComponent })
        #expect(first.storedBytes == builder.storedBytes)
    }

    @Test func anImageGivenTwiceIsStoredOnce() throws {
        let folder = try TemporaryDirectory()
        let image = try SourceImage.inspect(files: [samples + "/1-sunset.jpg"])[0]
        let result = try GalleryBuilder(title: "Twice", images: [image, image]).write(to: folder.file("g.imagegallery"))
        #expect(result.gallery.images.count == 2)
        #expect(result.gallery.distinctBlobs.count == 1)
        #expect(result.storedBytes == image.byteSize)
    }

    @Test func aFirstImageWithDamagedPixelsGetsAPlaceholderAndAnEvent() throws {
        let folder = try TemporaryDirectory()
        // A sound header over missing scan data: taken in, but no thumbnail can be decoded from it.
        var bytes = try FileBytes.read(samples + "/1-sunset.jpg")
        bytes = Array(bytes.prefix(bytes.count / 8))
        try FileBytes.write(bytes, to: folder.file("cut.jpg"))
        let image = try SourceImage.inspect(files: [folder.file("cut.jpg")])[0]
        var placeholders: [String] = []
        try GalleryBuilder(title: "Cut", images: [image]).write(to: folder.file("g.imagegallery")) { event in
            if case .placeholderThumbnail(let name, _) = event { placeholders.append(name) }
        }
        #expect(placeholders == [folder.file("cut.jpg")])
        #expect(try GalleryReader(path: folder.file("g.imagegallery")).gallery.images.count == 1)
    }

    @Test func aSourceChangedBeforeTheCommitLeavesNothing() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.copy(samples + "/2-tiles.png")
        let image = try SourceImage.inspect(files: [path])[0]
        // Rewritten after it was hashed, at the same length (a shorter file the copy itself
        // refuses): the gallery would describe bytes it does not hold.
        var bytes = try FileBytes.read(path)
        bytes[bytes.count / 2] ^= 0xFF
        try FileBytes.write(bytes, to: path)
        let error = #expect(throws: GalleryBuildError.self) {
            try GalleryBuilder(title: "Changed", images: [image]).write(to: folder.file("g.imagegallery"))
        }
        #expect(error?.kind == .sourceChanged)
        #expect(!FileManager.default.fileExists(atPath: folder.file("g.imagegallery")))
    }

    @Test func anExistingOutputIsKeptUnlessReplacing() throws {
        let folder = try TemporaryDirectory()
        let output = folder.file("g.imagegallery")
        try FileBytes.write([1, 2, 3], to: output)
        let error = #expect(throws: GalleryBuildError.self) { try GalleryBuilder.checkOutput(output, overwrite: false) }
        #expect(error?.kind == .outputExists)
        #expect(throws: FileSystemError.self) { try GalleryBuilder(title: "New").write(to: output) }
        #expect(try FileBytes.read(output) == [1, 2, 3])
        try GalleryBuilder(title: "New").write(to: output, overwrite: true)
        #expect(try GalleryReader(path: output).gallery.title == "New")
    }
}
