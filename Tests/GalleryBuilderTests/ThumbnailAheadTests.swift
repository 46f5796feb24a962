import Foundation
import GalleryBuilder
import GalleryFormat
import GallerySystem
import GalleryTestSupport
import Testing

/// The first image's thumbnail made while the images are hashed: taken when it was made from
/// the first image's bytes, made again when it was not.
@Suite struct ThumbnailAheadTests {
    let samples = TestPaths.fixture("images")

    @Test func aThumbnailMadeAheadIsTakenWithoutReadingTheFileAgain() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.copy(samples + "/1-sunset.jpg")
        let image = try SourceImage.inspect(files: [path])[0]
        let expected = try GalleryBuilder(title: "", images: [image]).thumbnailPNG()
        var builder = GalleryBuilder(title: "Ahead", images: [image])
        builder.thumbnailAhead = ThumbnailAhead(firstImageAt: path)
        #expect(try builder.thumbnailPNG() == expected)

        // Once the file is gone only the thumbnail made ahead can be had: the builder without
        // it cannot read the first image.
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: FileSystemError.self) { try GalleryBuilder(title: "", images: [image]).thumbnailPNG() }
        #expect(try builder.thumbnailPNG() == expected)
    }

    @Test func aThumbnailMadeAheadOfOtherBytesIsMadeAgain() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.copy(samples + "/2-tiles.png")
        var before = GalleryBuilder(title: "", images: try SourceImage.inspect(files: [path]))
        before.thumbnailAhead = ThumbnailAhead(firstImageAt: path)
        let tiles = try before.thumbnailPNG()

        // The file is replaced after the thumbnail was begun and before it was hashed, as a
        // person saving over it would: the gallery's thumbnail must show what it stores.
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: samples + "/1-sunset.jpg", toPath: path)
        let sunset = try SourceImage.inspect(files: [path])[0]
        var builder = GalleryBuilder(title: "Replaced", images: [sunset])
        builder.thumbnailAhead = before.thumbnailAhead
        let made = try builder.thumbnailPNG()
        #expect(made == (try GalleryBuilder(title: "", images: [sunset]).thumbnailPNG()))
        #expect(made != tiles)
    }
}
