import Foundation
import GalleryFormat
import GalleryImaging
import GallerySystem
import Testing

/// The code of "Writing a gallery" (GalleryFormat.docc/WritingAGallery.md): galleries written
/// to a scratch folder, then read back.
@Suite("Writing a gallery")
struct WritingExamples {
    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
    }

    /// The gallery of the article's first steps, from two sample images.
    func describeImages() throws -> (Gallery, [InspectedImageFile], [String]) {
        let folder = Repository.images

        let files = [folder + "/1-sunset.jpg", folder + "/2-tiles.png"]
        let inspected = try ImageFile.inspectAll(files)
        let now = Timestamp(seconds: Int64(Date().timeIntervalSince1970))
        let images = inspected.map { file in
            GalleryImage(
                id: UUID(), mediaType: file.header.mediaType,
                width: file.header.width, height: file.header.height,
                byteSize: file.byteSize, sha256: file.sha256,
                filename: URL(fileURLWithPath: file.path).lastPathComponent, added: now)
        }
        let gallery = Gallery(id: UUID(), revision: UUID(), title: "Holiday", created: now, modified: now, images: images)

        return (gallery, inspected, files)
    }

    @Test func writesAGalleryFromImageFiles() throws {
        let (gallery, inspected, files) = try describeImages()
        let output = scratch.file("holiday.imagegallery")

        let firstImage = [UInt8](try Data(contentsOf: URL(fileURLWithPath: files[0])))
        let thumbnail = try GalleryThumbnail.png(firstImage: firstImage)

        let sources = Dictionary(inspected.map { ($0.sha256, $0.path) }, uniquingKeysWith: { first, _ in first })
        try GalleryWriter.write(gallery, thumbnail: thumbnail, to: output, overwrite: false) { image in
            // Asked once per distinct blob; every image came from `inspected`.
            .file(sources[image.sha256]!)
        }

        // What was written is what a reader finds, byte for byte and image for image.
        let reader = try GalleryReader(path: output)
        #expect(reader.gallery == gallery)
        var bytes: [UInt8] = []
        try reader.readBlob(reader.gallery.images[1]) { bytes.append(contentsOf: $0) }
        #expect(bytes == (try Repository.bytes(files[1])))
        #expect(GalleryValidator.validate(path: output, options: ValidationOptions(pixelChecker: ImagePixelChecker())).isValid)

        // overwrite: false never replaces a file (it finds out when it is about to link the new one).
        let before = try Repository.bytes(output)
        var again = gallery
        again.title = "Another"
        #expect {
            try GalleryWriter.write(again, thumbnail: thumbnail, to: output, overwrite: false) { image in
                .file(sources[image.sha256]!)
            }
        } throws: { error in
            (error as? FileSystemError)?.kind == .alreadyExists
        }
        #expect(try Repository.bytes(output) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["holiday.imagegallery"], "no temporary file is left")
    }

    @Test func anEmptyGalleryHasThePlaceholderThumbnail() throws {
        let now = Timestamp(seconds: 1_767_323_045)
        let empty = Gallery(id: UUID(), revision: UUID(), title: "Empty", created: now, modified: now)
        let output = scratch.file("empty.imagegallery")

        let placeholder = try GalleryThumbnail.png(firstImage: nil)
        try GalleryWriter.write(empty, thumbnail: placeholder, to: output, overwrite: false) { image in
            .bytes([])
        }

        #expect(try GalleryReader(path: output).gallery == empty)
        #expect(GalleryValidator.validate(path: output).isValid)
    }

    @Test func copiesImagesFromAnotherGallery() throws {
        let path = Repository.fixture("valid/three.imagegallery")
        let output = scratch.file("copy.imagegallery")

        let source = try GalleryReader(path: path)
        var copy = source.gallery
        copy.id = UUID()
        copy.revision = UUID()
        copy.title = "Copy of " + copy.title
        copy.images.removeLast()
        try GalleryWriter.write(copy, thumbnail: try source.thumbnail(), to: output, overwrite: false) { image in
            .entry(source.archive, try source.blobEntry(for: image))
        }

        let written = try GalleryReader(path: output)
        #expect(written.gallery.title == "Copy of Three samples")
        #expect(written.gallery.images == Array(source.gallery.images.prefix(2)))
        #expect(GalleryValidator.validate(path: output).isValid)
    }

    @Test func aGalleryThatBreaksARuleIsNotWritten() throws {
        let (gallery, _, _) = try describeImages()
        let output = scratch.file("broken.imagegallery")

        var tooLong = gallery
        tooLong.images[0].caption = String(repeating: "x", count: ManifestRules.maxCaptionScalars + 1)
        let broken = tooLong.brokenRule()

        #expect(broken?.code == .badValue)
        #expect(broken?.location.jsonPointer == "/images/0/caption")
        #expect(throws: GalleryError.self) {
            try GalleryWriter.write(tooLong, thumbnail: try GalleryThumbnail.png(firstImage: nil), to: output,
                                    overwrite: false) { _ in .bytes([]) }
        }
        #expect(!FileManager.default.fileExists(atPath: output), "nothing is written")
    }

    @Test func aSourceOfTheWrongSizeIsRefused() throws {
        let (gallery, _, _) = try describeImages()
        let output = scratch.file("short.imagegallery")
        #expect {
            try GalleryWriter.write(gallery, thumbnail: try GalleryThumbnail.png(firstImage: nil), to: output,
                                    overwrite: false) { _ in .bytes([0xFF, 0xD8, 0xFF]) }
        } throws: { error in
            (error as? GalleryError)?.code == .blobSizeMismatch
        }
        #expect(!FileManager.default.fileExists(atPath: output), "no partial file is left")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "nor a temporary one")
    }
}
