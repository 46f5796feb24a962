import Foundation
import GalleryFormat
import GalleryImageHeaders
import GalleryImaging
import GallerySystem
import Testing

/// The code of "Reading a gallery" (GalleryFormat.docc/ReadingAGallery.md), run on the fixtures.
@Suite("Reading a gallery")
struct ReadingExamples {
    @Test func opensAGalleryAndReadsItsManifest() throws {
        let path = Repository.fixture("valid/three.imagegallery")

        let reader = try GalleryReader(path: path)
        let gallery = reader.gallery
        let names = gallery.images.map { $0.filename ?? $0.id.manifestString }

        #expect(gallery.title == "Three samples")
        #expect(names == ["1-sunset.jpg", "2-tiles.png", "3-lighthouse.jpg"])
        #expect(gallery.images.map(\.mediaType) == [.jpeg, .png, .jpeg])
        #expect(gallery.images[0].width == 800 && gallery.images[0].height == 600)
        #expect(reader.diagnostics.allSatisfy { $0.severity < .error })
    }

    @Test func readsAnImageAndTheThumbnail() throws {
        let path = Repository.fixture("valid/three.imagegallery")
        let reader = try GalleryReader(path: path)
        let gallery = reader.gallery

        let first = gallery.images[0]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(first.byteSize))
        try reader.readBlob(first) { chunk in
            bytes.append(contentsOf: chunk)
        }

        let thumbnail = try reader.thumbnail()

        #expect(bytes == (try Repository.bytes(Repository.images + "/1-sunset.jpg")))
        #expect(Array(thumbnail.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let header = try ImageHeader.parse(thumbnail)
        #expect(max(header.width, header.height) <= GalleryPackage.maxThumbnailSide)
    }

    @Test func aBlobThatDisagreesWithTheManifestIsRefused() throws {
        // The manifest is sound, so the file opens; the blob's bytes are not what it says.
        let reader = try GalleryReader(path: Repository.fixture("invalid/content/IG-BLB-003-sha256-mismatch.imagegallery"))
        #expect {
            try reader.readBlob(reader.gallery.images[0]) { _ in }
        } throws: { error in
            (error as? GalleryError)?.code == .blobHashMismatch
        }
    }

    @Test func aRefusedFileNamesTheRuleAndThePlace() throws {
        let path = Repository.fixture("invalid/IG-PKG-005-mimetype-second.imagegallery")

        var refusal = ""
        do {
            _ = try GalleryReader(path: path)
        } catch let error as GalleryError {
            // A stable id (IG-PKG-005), what is wrong, and where: entry, offset, JSON pointer.
            refusal = "\(error.code.id): \(error.message) (\(error.location.description))"
        } catch let error as FileSystemError {
            // No verdict on the content: the file could not be read (missing, a folder, no permission).
            refusal = error.description
        }

        #expect(refusal.hasPrefix("IG-PKG-005: "), "\(refusal)")
        #expect(refusal.contains("mimetype"))
    }

    @Test func aMissingFileIsAFileSystemError() {
        #expect {
            _ = try GalleryReader(path: Repository.fixture("valid/no-such-file.imagegallery"))
        } throws: { error in
            (error as? FileSystemError)?.kind == .notFound
        }
    }

    @Test func limitsBoundWhatAReaderAccepts() throws {
        let path = Repository.fixture("valid/three.imagegallery")

        var limits = GalleryLimits()
        limits.maxImages = 1_000
        limits.maxManifestBytes = 1 << 20
        let bounded = try GalleryReader(path: path, limits: limits)

        #expect(bounded.gallery.images.count == 3)
        var tight = GalleryLimits()
        tight.maxImages = 2
        #expect {
            _ = try GalleryReader(path: path, limits: tight)
        } throws: { error in
            (error as? GalleryError)?.code == .tooManyImages
        }
    }

    @Test func theValidatorReportsEveryFinding() throws {
        let path = Repository.fixture("invalid/content/IG-BLB-003-sha256-mismatch.imagegallery")

        let report = GalleryValidator.validate(path: path)
        let problems = report.diagnostics.filter { $0.severity >= .error }

        #expect(!report.isValid)
        #expect(problems.map(\.code.id).contains("IG-BLB-003"))
        #expect(GalleryValidator.validate(path: Repository.fixture("valid/three.imagegallery")).isValid)
    }

    @Test func aDeepValidationDecodesThePixels() throws {
        let path = Repository.fixture("invalid/deep/IG-BLB-008-png-truncated.imagegallery")
        #expect(GalleryValidator.validate(path: path).isValid, "the bytes agree with the manifest")

        let options = ValidationOptions(pixelChecker: ImagePixelChecker())
        let deepReport = GalleryValidator.validate(path: path, options: options)

        #expect(deepReport.diagnostics.map(\.code).contains(.blobPixelsCorrupt))
        #expect(!deepReport.isValid)
    }
}
