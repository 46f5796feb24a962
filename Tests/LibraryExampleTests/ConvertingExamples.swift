import Foundation
import GalleryConvert
import GalleryFormat
import Testing

/// The code of "Converting a gallery" (GalleryConvert.docc/ConvertingAGallery.md): a fixture
/// gallery detected, unpacked, packed back and exported, and the seed apps' JSON read.
@Suite("Converting a gallery")
struct ConvertingExamples {
    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
    }

    @Test func unpacksPacksAndExportsAGallery() throws {
        let input = Repository.fixture("valid/three.imagegallery")
        let folder = scratch.file("three")
        let output = scratch.file("three-again.imagegallery")
        let imagesFolder = scratch.file("three-images")

        let detected = try FormatDetection.detect(input)
        guard detected.format == .gallery else {
            throw ConversionError(input, "is not a gallery file")
        }

        let unpacked = try UnpackedGallery.unpack(galleryAt: input, to: folder, overwrite: false)
        print("\(unpacked.imageCount) images in \(unpacked.blobCount) blobs under \(unpacked.path)")

        let packed = try UnpackedGallery.pack(folder: folder, to: output, overwrite: false)
        let canonical = packed.manifestWasCanonical ?? false

        let exported = try ImageFolderExport.write(galleryAt: input, to: imagesFolder, overwrite: false)
        for name in exported.files {
            print(name)
        }

        #expect(try FormatDetection.detect(folder).format == .unpacked)
        #expect(try FormatDetection.detect(imagesFolder).format == .images)
        #expect(unpacked.imageCount == 3 && unpacked.blobCount == 3)
        #expect(canonical)
        #expect(try Repository.bytes(output) == Repository.bytes(input))
        #expect(exported.files == ["001-1-sunset.jpg", "002-2-tiles.png", "003-3-lighthouse.jpg"])
        #expect(try Repository.bytes(imagesFolder + "/001-1-sunset.jpg") == Repository.bytes(Repository.images + "/1-sunset.jpg"))
        // An existing output is kept unless the call says to replace it.
        #expect(throws: ConversionError.self) {
            try UnpackedGallery.unpack(galleryAt: input, to: folder, overwrite: false)
        }
    }

    @Test func readsTheSeedAppsJSON() throws {
        let seedFile = Repository.fixture("seed-json/store.json")

        let document = try SeedJSON.read(path: seedFile)
        for gallery in document.galleries {
            print("\(gallery.title): \(gallery.images.map(\.url))")
        }

        #expect(document.form == .store)
        #expect(document.galleries.map(\.title) == ["Trip", "Trip", "Patterns / tiles"])
        #expect(document.galleries[0].images.map(\.url) == ["http://example.invalid/images/1-sunset.jpg",
                                                             "http://example.invalid/images/4-dunes.jpg"])
        #expect(document.galleries[2].images.isEmpty)
    }
}
