import GalleryFormat
@testable import GalleryImageHeaders
import GalleryTestSupport
import Testing

/// What leading bytes say a file is, and what the header reader then says of it.
@Suite("Image types told by their leading bytes")
struct ImageKindTests {
    @Test(arguments: UnsupportedImageSamples.all)
    func eachTypeIsNamed(_ sample: UnsupportedImageSamples.Sample) throws {
        let kind = ImageKind.identify(sample.bytes)
        guard case .unsupported(let type) = kind else {
            Issue.record("\(sample.fileName): \(kind)")
            return
        }
        #expect(type.rawValue == sample.type)
        #expect(type.described == sample.described)
        #expect(kind.refusal == sample.refusal)
    }

    /// The header reader refuses such a file with that one phrase, and says what it is.
    @Test(arguments: UnsupportedImageSamples.all)
    func theHeaderReaderSaysItOnce(_ sample: UnsupportedImageSamples.Sample) throws {
        let error = try #require(throws: ImageHeaderError.self) { try ImageHeader.parse(sample.bytes) }
        #expect(error.description == sample.refusal)
        #expect(error.kind == ImageKind.identify(sample.bytes))
    }

    @Test func everyTypeOfTheFormatIsTaken() throws {
        let samples: [(String, MediaType)] = [
            ("images/1-sunset.jpg", .jpeg), ("images/2-tiles.png", .png), ("format-2.0/lossy.webp", .webp),
            ("format-2.0/lossless-alpha.webp", .webp), ("format-2.0/b.gif", .gif), ("format-2.0/sunset.avif", .avif),
            ("format-2.0/grid.avif", .avif), ("format-2.0/sunset.heic", .heic),
        ]
        for (path, type) in samples {
            let bytes = try FileBytes.read(TestPaths.fixture(path))
            #expect(ImageKind.identify(bytes) == .supported(type), "\(path)")
            #expect(ImageKind.identify(bytes).refusal == nil, "\(path)")
            #expect(try ImageHeader.parse(bytes).mediaType == type, "\(path)")
        }
    }

    /// Where a caller takes fewer types (`--accept`), the refusal names the type and what is taken.
    @Test func aTypeTheCallerDoesNotAcceptIsNamed() throws {
        let webp = try FileBytes.read(TestPaths.fixture("format-2.0/lossy.webp"))
        #expect(ImageKind.identify(webp).refusal(accepting: [.jpeg, .png]) == "a WebP image; only JPEG and PNG are accepted here")
        #expect(ImageKind.identify(webp).refusal(accepting: [.webp]) == nil)
        #expect(ImageKind.identify(Array("II*\0".utf8)).refusal(accepting: [.jpeg])
            == "a TIFF image; this gallery format takes JPEG, PNG, WebP, GIF, AVIF and HEIC")
    }

    /// The brands and the primary item must agree: a file branded AVIF whose item is HEVC is
    /// refused, naming both.
    @Test func brandsThatContradictTheItemAreRefused() throws {
        var heic = try FileBytes.read(TestPaths.fixture("format-2.0/sunset.heic"))
        // The major brand, bytes 8 to 11: heic becomes avif.
        heic.replaceSubrange(8 ..< 12, with: Array("avif".utf8))
        let error = try #require(throws: ImageHeaderError.self) { try ImageHeader.parse(heic) }
        #expect(error.description.contains("brands say AVIF") && error.description.contains("hvc1"), "\(error)")
    }

    /// Brands decide between AVIF and HEIC: the major one first, then the compatible ones in
    /// order; the generic HEIF brands alone give HEIF, which the format does not take; another
    /// ISOBMFF family is not an image type named here.
    @Test func isobmffBrands() {
        func box(_ major: String, _ compatible: [String], size: Int? = nil) -> [UInt8] {
            let length = size ?? 16 + 4 * compatible.count
            return [UInt8(length >> 24 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
                + Array("ftyp\(major)".utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
        }
        #expect(ImageKind.identify(box("avif", ["mif1", "miaf"])) == .supported(.avif))
        #expect(ImageKind.identify(box("heic", ["mif1", "heic"])) == .supported(.heic))
        #expect(ImageKind.identify(box("heix", [])) == .supported(.heic))
        #expect(ImageKind.identify(box("mif1", ["mif1", "miaf", "avif"])) == .supported(.avif))
        #expect(ImageKind.identify(box("msf1", ["msf1", "hevc"])) == .supported(.heic))
        #expect(ImageKind.identify(box("avis", ["avis", "msf1"])) == .supported(.avif))
        #expect(ImageKind.identify(box("mif1", ["mif1", "miaf"])) == .unsupported(.heif))
        #expect(ImageKind.identify(box("isom", ["isom", "iso2", "mp41"])) == .unknown)
        #expect(ImageKind.identify(box("qt  ", [])) == .unknown)
        // Brands past the box's declared end are another box's bytes, not brands.
        #expect(ImageKind.identify(box("mif1", ["mif1", "avif"], size: 20)) == .unsupported(.heif))
        #expect(ImageKind.identify(box("mif1", ["avif"], size: 0)) == .unsupported(.heif))
    }

    @Test func lookAlikesAreNotNamed() {
        // Text that starts like a BMP: no DIB header size where a BMP has it.
        #expect(ImageKind.identify(Array("BMW, Audi and Volvo sold more cars this year".utf8)) == .unknown)
        #expect(ImageKind.identify(Array("RIFF....WAVEfmt ".utf8)) == .unknown)
        #expect(ImageKind.identify(Array("GIF".utf8)) == .unknown)
        #expect(ImageKind.identify([]) == .unknown)
        #expect(ImageKind.identify([]).refusal == "not a JPEG, PNG, WebP, GIF, AVIF or HEIC image")
        #expect(ImageKind.identify(Array("<!doctype html>".utf8)).refusal == "not a JPEG, PNG, WebP, GIF, AVIF or HEIC image")
    }

    /// An unknown type: the reader says so once, not twice.
    @Test func anUnknownTypeIsRefusedOnce() throws {
        let error = try #require(throws: ImageHeaderError.self) { try ImageHeader.parse(Array("hello, world".utf8)) }
        #expect(error.description == "not a JPEG, PNG, WebP, GIF, AVIF or HEIC image")
        #expect(error.kind == .unknown)
    }
}
