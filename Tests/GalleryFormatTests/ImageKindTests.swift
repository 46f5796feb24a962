import GalleryFormat
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

    @Test func jpegAndPNGAreTaken() throws {
        let jpeg = try FileBytes.read(TestPaths.fixture("images/1-sunset.jpg"))
        let png = try FileBytes.read(TestPaths.fixture("images/2-tiles.png"))
        #expect(ImageKind.identify(jpeg) == .supported(.jpeg))
        #expect(ImageKind.identify(png) == .supported(.png))
        #expect(ImageKind.identify(jpeg).refusal == nil)
    }

    /// Brands decide between AVIF and HEIC: the major one first, then the compatible ones in
    /// order; the generic HEIF brands alone give HEIF; another ISOBMFF family is not an image
    /// type named here.
    @Test func isobmffBrands() {
        func box(_ major: String, _ compatible: [String], size: Int? = nil) -> [UInt8] {
            let length = size ?? 16 + 4 * compatible.count
            return [UInt8(length >> 24 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
                + Array("ftyp\(major)".utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
        }
        #expect(ImageKind.identify(box("avif", ["mif1", "miaf"])) == .unsupported(.avif))
        #expect(ImageKind.identify(box("heic", ["mif1", "heic"])) == .unsupported(.heic))
        #expect(ImageKind.identify(box("heix", [])) == .unsupported(.heic))
        #expect(ImageKind.identify(box("mif1", ["mif1", "miaf", "avif"])) == .unsupported(.avif))
        #expect(ImageKind.identify(box("msf1", ["msf1", "hevc"])) == .unsupported(.heic))
        #expect(ImageKind.identify(box("avis", ["avis", "msf1"])) == .unsupported(.avif))
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
        #expect(ImageKind.identify([]).refusal == "not a JPEG or PNG image")
        #expect(ImageKind.identify(Array("<!doctype html>".utf8)).refusal == "not a JPEG or PNG image")
    }

    /// An unknown type: the reader says so once, not "not a JPEG or PNG image" twice.
    @Test func anUnknownTypeIsRefusedOnce() throws {
        let error = try #require(throws: ImageHeaderError.self) { try ImageHeader.parse(Array("hello, world".utf8)) }
        #expect(error.description == "not a JPEG or PNG image")
        #expect(error.kind == .unknown)
    }
}
