@testable import GalleryFormat
@testable import GalleryImageHeaders
import Testing

/// Captions from the image itself (issue 18, item 7): EXIF, XMP and PNG text chunks, read
/// under bounds, their encoding checked, controls and camera defaults dropped.
@Suite("An image's own description")
struct ImageDescriptionTests {
    static func be(_ value: Int, _ count: Int) -> [UInt8] {
        (0 ..< count).reversed().map { (shift: Int) -> UInt8 in UInt8(truncatingIfNeeded: value >> (8 * shift)) }
    }
    static func le(_ value: Int, _ count: Int) -> [UInt8] { be(value, count).reversed() }

    static func jpeg(_ segments: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        for segment in segments {
            bytes += [0xFF, 0xE1]
            bytes += be(segment.count + 2, 2)
            bytes += segment
        }
        return bytes + [0xFF, 0xDA, 0, 2, 0xFF, 0xD9]
    }

    /// An EXIF APP1 payload whose IFD0 holds one ImageDescription, in either byte order.
    static func exif(_ text: [UInt8], littleEndian: Bool = true) -> [UInt8] {
        let n = { (value: Int, count: Int) -> [UInt8] in littleEndian ? le(value, count) : be(value, count) }
        let value: [UInt8] = text + [0]
        let inline = value.count <= 4
        var entry: [UInt8] = n(0x010E, 2) + n(2, 2) + n(value.count, 4)
        entry += inline ? value + [UInt8](repeating: 0, count: 4 - value.count) : n(26, 4)
        var tiff: [UInt8] = littleEndian ? [0x49, 0x49, 0x2A, 0x00] : [0x4D, 0x4D, 0x00, 0x2A]
        tiff += n(8, 4) + n(1, 2)
        tiff += entry + n(0, 4)
        return Array("Exif\0\0".utf8) + tiff + (inline ? [] : value)
    }

    static func xmp(_ body: String) -> [UInt8] {
        Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array("""
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description><dc:description><rdf:Alt>\(body)</rdf:Alt>\
        </dc:description></rdf:Description></rdf:RDF></x:xmpmeta>
        """.utf8)
    }

    static func png(_ chunks: [(String, [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header: [UInt8] = be(1, 4) + be(1, 4) + [8, 0, 0, 0, 0]
        for (type, data) in [("IHDR", header)] + chunks + [("IEND", [])] {
            bytes += be(data.count, 4)
            bytes += Array(type.utf8)
            bytes += data
            bytes += [0, 0, 0, 0]
        }
        return bytes
    }

    func description(_ bytes: [UInt8]) -> String? {
        ImageDescription.of(size: UInt64(bytes.count), read: bytes.bytes(at:count:))
    }

    @Test func exifDescriptionsInEitherByteOrder() {
        #expect(description(Self.jpeg([Self.exif(Array("Harbour at dusk".utf8))])) == "Harbour at dusk")
        #expect(description(Self.jpeg([Self.exif(Array("Harbour at dusk".utf8), littleEndian: false)])) == "Harbour at dusk")
        #expect(description(Self.jpeg([Self.exif(Array("Cat".utf8))])) == "Cat")  // stored in the entry itself
    }

    @Test func xmpComesFirstAndTheDefaultLanguageWins() {
        let xmp = Self.xmp(#"<rdf:li xml:lang="fr">Le port</rdf:li><rdf:li xml:lang="x-default">The harbour &amp; &#x2014; &lt;boats&gt;</rdf:li>"#)
        #expect(description(Self.jpeg([Self.exif(Array("From EXIF".utf8)), xmp])) == "The harbour & — <boats>")
        #expect(description(Self.jpeg([Self.xmp(#"<rdf:li xml:lang="fr">Le port</rdf:li>"#)])) == "Le port")
    }

    @Test func encodingIsCheckedNotTrusted() {
        // Latin-1 "café" is not UTF-8; UTF-8 "café" is taken as it is.
        #expect(description(Self.jpeg([Self.exif([0x63, 0x61, 0x66, 0xE9])])) == "café")
        #expect(description(Self.jpeg([Self.exif(Array("café".utf8))])) == "café")
        #expect(description(Self.png([("tEXt", Array("Description\0".utf8) + [0x63, 0x61, 0x66, 0xE9])])) == "café")
    }

    @Test func controlsBidiOverridesAndCameraDefaultsAreDropped() {
        #expect(description(Self.jpeg([Self.exif(Array("  two\tlines\r\nand\u{7}a bell \u{202E}".utf8))])) == "two lines and a bell")
        #expect(description(Self.jpeg([Self.exif(Array("OLYMPUS DIGITAL CAMERA         ".utf8))])) == nil)
        #expect(description(Self.jpeg([Self.exif(Array("   ".utf8))])) == nil)
        let long = [UInt8](repeating: 0x78, count: 5_000)
        let cut = description(Self.jpeg([Self.exif(long)]))
        #expect(cut?.count == 2_000)
    }

    @Test func pngTextChunksBeforeTheImageData() {
        let utf8 = Array("Description\0".utf8) + [0, 0] + Array("en\0Beschreibung\0".utf8) + Array("Dünen im Wind".utf8)
        #expect(description(Self.png([("iTXt", utf8)])) == "Dünen im Wind")
        #expect(description(Self.png([("tEXt", Array("Title\0Not this".utf8)), ("tEXt", Array("Description\0Dunes".utf8))])) == "Dunes")
        let compressed = Array("Description\0".utf8) + [1, 0] + Array("\0\0".utf8) + [0x78, 0x9C, 1, 2, 3]
        #expect(description(Self.png([("iTXt", compressed)])) == nil)
        #expect(description(Self.png([("IDAT", [0]), ("tEXt", Array("Description\0After the pixels".utf8))])) == nil)
    }

    @Test func brokenMetadataIsNoDescriptionAndNoCrash() {
        let exif = Self.exif(Array("A long enough description".utf8))
        let cases: [[UInt8]] = [
            Array(Self.jpeg([exif]).prefix(30)),                                   // cut inside the segment
            Self.jpeg([Array(exif.prefix(20))]),                                   // the value's offset past the segment
            [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01],                                  // a length below 2
            Array(Self.png([("tEXt", Array("Description\0Dunes".utf8))]).prefix(40)),
            Self.png([("tEXt", Array("Description".utf8))]),                       // no keyword terminator
            Array("GIF89a".utf8), [],
        ]
        for bytes in cases {
            #expect(description(bytes) == nil, "\(bytes.prefix(16))")
        }
    }
}
