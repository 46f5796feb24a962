import Foundation
import GalleryFormat
import GalleryImageHeaders
import GalleryImaging
import Testing

/// The code of "Inspecting images and making thumbnails"
/// (GalleryImaging.docc/InspectingAndThumbnailing.md), run on the sample images.
@Suite("Inspecting images and making thumbnails")
struct ImagingExamples {
    @Test func inspectsAFileAndMakesItsThumbnail() throws {
        let photo = Repository.images + "/1-sunset.jpg"

        let inspected = try ImageFile.inspect(photo)
        let header = inspected.header
        print("\(header.mediaType.rawValue), \(header.width)×\(header.height), \(inspected.byteSize) bytes")
        print("blob name: \(inspected.sha256.hex)")

        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo)))
        let thumbnail = try Thumbnailer.thumbnail(of: bytes, longSide: 256, limits: GalleryThumbnail.limits)
        let png = thumbnail.png()

        #expect(header.mediaType == .jpeg)
        #expect(header.width == 800 && header.height == 600)
        #expect(inspected.byteSize == UInt64(bytes.count))
        #expect(inspected.sha256 == SHA256Hasher.of(bytes))
        #expect(thumbnail.width == 256 && thumbnail.height == 192)
        let written = try ImageHeader.parse(png)
        #expect(written.mediaType == .png && written.width == 256 && written.height == 192)
    }

    @Test func turnsARotatedPhotoUpright() throws {
        let photo = Repository.images + "/5-balloon-rotated.jpg"
        let header = try ImageFile.inspect(photo).header
        let bytes = try Repository.bytes(photo)
        let thumbnail = try Thumbnailer.thumbnail(of: bytes, longSide: 256, limits: GalleryThumbnail.limits)
        // The header gives the stored size; the thumbnail is the image as seen, its sides swapped.
        #expect((header.width > header.height) != (thumbnail.width > thumbnail.height))
    }

    @Test func tellsAnImagePastTheLimitsFromADamagedOne() throws {
        let photo = Repository.images + "/1-sunset.jpg"
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo)))
        var strict = DecodeLimits()
        strict.maxWorkPixels = 1_000
        do {
            _ = try Thumbnailer.thumbnail(of: bytes, longSide: 256, limits: strict)
        } catch let error as ImageDecodeError where error.kind == .pastLimit {
            print("not decoded here: \(error.message)")
        }

        let refusal = #expect(throws: ImageDecodeError.self) {
            try Thumbnailer.thumbnail(of: bytes, longSide: 256, limits: strict)
        }
        #expect(refusal?.kind == .pastLimit)
        #expect(throws: ImageDecodeError.self) {
            try Thumbnailer.thumbnail(of: Array(bytes.prefix(bytes.count / 2)), longSide: 256)
        }
        #expect(throws: NotAnImageError.self) {
            try ImageFile.inspect(Repository.images + "/README.md")
        }
    }
}
