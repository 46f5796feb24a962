import Foundation
import GalleryImageHeaders
import GalleryTestSupport
import SystemPackage
import Testing
@testable import GalleryEditor

/// The slideshow's renditions (issue 33; the route `GET …/images/ID/rendition?side=N`): a request
/// is rounded up to one of a few long sides, so that screens of nearby sizes share one cached
/// file; a slide is never larger than its original (the original itself is served where the
/// browser shows its type); sizes that are not whole pixels in range are refused, naming them.
@Suite struct SlideRenditionTests {
    typealias Source = ImageThumbnails.SlideSource

    @Test func requestsAreRoundedUpToAFewSidesSoRenditionsCacheWell() {
        let photo = 6000  // a 24 MP photo's long side
        let cases: [(Int, Int)] = [(1, 1280), (800, 1280), (1280, 1280), (1281, 1920), (1920, 1920), (2000, 2560),
                                   (2560, 2560), (3000, 3840), (3840, 3840), (5120, 3840), (16_384, 3840)]
        for (requested, side) in cases {
            #expect(ImageThumbnails.slide(requested: requested, originalLongSide: photo, browsersShow: true)
                    == .rendition(longSide: side), "a request for \(requested)")
        }
        #expect(ImageThumbnails.slideSides == [1280, 1920, 2560, 3840])
    }

    @Test func aSlideIsNeverLargerThanItsOriginal() {
        // A JPEG no larger than the side asked for is served as it is: a rendition would only be as large.
        #expect(ImageThumbnails.slide(requested: 1280, originalLongSide: 1000, browsersShow: true) == .original)
        #expect(ImageThumbnails.slide(requested: 2600, originalLongSide: 3000, browsersShow: true) == .original)
        #expect(ImageThumbnails.slide(requested: 2000, originalLongSide: 2560, browsersShow: true) == .original)
        // A HEIC, which browsers cannot show, goes through a rendition at its own size, never enlarged.
        #expect(ImageThumbnails.slide(requested: 1280, originalLongSide: 1000, browsersShow: false) == .rendition(longSide: 1000))
        #expect(ImageThumbnails.slide(requested: 1280, originalLongSide: 4032, browsersShow: false) == .rendition(longSide: 1280))
    }

    @Test func badSidesAreRefusedNamingTheRouteAndTheValue() throws {
        #expect(try ImageThumbnails.requestedSlideSide("1920") == 1920)
        #expect(try ImageThumbnails.requestedSlideSide("16384") == 16_384)
        do {
            _ = try ImageThumbnails.requestedSlideSide(nil)
            Issue.record("a request without side was taken")
        } catch let error as EditorError {
            #expect("\(error)".contains("rendition") && "\(error)".contains("?side=N"), "\(error)")
            #expect(Responses.status(for: error).code == 422, "a refused request, as the editor answers every one (Specs/editor.md section 3)")
        }
        for bad in ["abc", "0", "-5", "12.5", "16385", "99999999999999999999", ""] {
            do {
                _ = try ImageThumbnails.requestedSlideSide(bad)
                Issue.record("side \(bad) was taken")
            } catch let error as EditorError {
                #expect("\(error)" == "rendition: side \"\(bad)\" is not a whole number of pixels from 1 to 16384", "\(error)")
                #expect(Responses.status(for: error).code == 422, "a refused request, as the editor answers every one (Specs/editor.md section 3)")
            }
        }
    }

    /// A flat 2600 × 1300 RGB PNG: large enough for a rendition to be smaller than it.
    static func widePNG() -> [UInt8] {
        let (width, height) = (2600, 1300)
        var row: [UInt8] = [0]
        for _ in 0..<width { row += [200, 80, 40] }
        let pixels = Array([[UInt8]](repeating: row, count: height).joined())
        return PNGBytes.file(width: UInt32(width), height: UInt32(height), bitDepth: 8, colourType: 2,
                             chunks: [PNGBytes.chunk("IDAT", PNGBytes.zlibCompressed(pixels))])
    }

    /// What the route serves, made by the grid's rendition code into its cache: a 1280 screen gets a
    /// 1280 × 640 JPEG (the picture is opaque), a 2000 one 2560 × 1280, a 4K one the original.
    @Test func theRenditionsAreMadeAtTheRoundedSideInTheThumbnailsCache() async throws {
        let cache = try TemporaryDirectory()
        let thumbnails = ImageThumbnails(folder: FilePath(cache.path).appending("thumbnails"))
        let png = Self.widePNG()
        for (requested, expected) in [(1280, (1280, 640)), (2000, (2560, 1280))] {
            guard case .rendition(let side) = ImageThumbnails.slide(requested: requested, originalLongSide: 2600, browsersShow: true) else {
                Issue.record("a request for \(requested) serves the original")
                continue
            }
            let made = try await thumbnails.rendition(sha256: "wide", longSide: side) { png }
            let header = try ImageHeader.parse(made.bytes)
            #expect(made.mediaType == "image/jpeg" && header.mediaType == .jpeg)
            #expect((header.width, header.height) == expected, "a request for \(requested)")
            #expect(FileManager.default.fileExists(atPath: cache.path + "/thumbnails/wide-\(side).jpeg"))
        }
        #expect(ImageThumbnails.slide(requested: 3840, originalLongSide: 2600, browsersShow: true) == .original)
    }
}
