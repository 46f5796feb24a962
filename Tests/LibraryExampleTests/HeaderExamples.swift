import Foundation
import GalleryImageHeaders
import Testing

/// The code of "Reading an image's header" (GalleryImageHeaders.docc/ReadingAnImageHeader.md),
/// run on the sample images.
@Suite("Reading an image's header")
struct HeaderExamples {
    @Test func readsTheHeaderOfAPhoto() throws {
        let photo = Repository.images + "/1-sunset.jpg"

        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo)))
        let header = try ImageHeader.parse(bytes)
        print("\(header.mediaType.name), \(header.width)×\(header.height), \(header.bitDepth) bits a sample")

        #expect(header.mediaType == .jpeg && header.width == 800 && header.height == 600)
        #expect(MediaType.sniff(bytes.prefix(ImageKind.identifyingBytes)) == .jpeg)
    }

    @Test func aCutHeaderIsRefusedWithWhereItEnds() throws {
        let photo = Repository.images + "/1-sunset.jpg"
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo)))
        let cut = Array(bytes.prefix(20))
        var refused: ImageHeaderError?

        do {
            _ = try ImageHeader.parse(cut)
        } catch let error as ImageHeaderError {
            print("refused: \(error.detail)")
            refused = error
        }

        #expect(refused != nil && refused?.kind == nil && refused?.problem == nil)
    }

    @Test func aFileOfAnotherTypeSaysWhatItIs() {
        let bitmap: [UInt8] = Array("BM".utf8) + [UInt8](repeating: 0, count: 12) + [40, 0, 0, 0] + [UInt8](repeating: 0, count: 46)

        let kind = ImageKind.identify(bitmap.prefix(ImageKind.identifyingBytes))
        if let refusal = kind.refusal {
            print(refusal)
        }

        #expect(kind.refusal != nil)
        #expect(MediaType.sniff(bitmap) == nil)
    }
}
