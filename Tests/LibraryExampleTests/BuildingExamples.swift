import Foundation
import GalleryBuilder
import GalleryFormat
import Testing

/// The code of "Building a gallery" (GalleryBuilder.docc/BuildingAGallery.md): a folder of
/// sample images built into a gallery in a scratch folder, then read back.
@Suite("Building a gallery")
struct BuildingExamples {
    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
    }

    @Test func buildsAGalleryFromAFolder() throws {
        let folder = Repository.images
        let output = scratch.file("holiday.imagegallery")

        let (files, skipped) = try GalleryBuilder.imageFiles(in: [folder])

        let images = try SourceImage.inspect(files: files)

        var builder = GalleryBuilder(title: "Holiday", images: images)
        builder.date = Timestamp(rfc3339: "2026-07-01T12:00:00Z")
        let result = try builder.write(to: output) { event in
            if case .placeholderThumbnail(let image, let reason) = event {
                print("\(image): no thumbnail (\(reason)); a grey one is stored")
            }
        }
        print("\(result.gallery.images.count) images, \(result.storedBytes) bytes")

        #expect(skipped.map { URL(fileURLWithPath: $0).lastPathComponent } == ["README.md"])
        let read = try GalleryReader(path: output).gallery
        #expect(read == result.gallery)
        #expect(read.title == "Holiday")
        #expect(read.images.count == files.count)
        #expect(read.created == Timestamp(rfc3339: "2026-07-01T12:00:00Z"))
        // Natural order: the sample "10-fractal.jpg" comes after "9-…".
        #expect(read.images.last?.filename == "10-fractal.jpg")
    }
}
