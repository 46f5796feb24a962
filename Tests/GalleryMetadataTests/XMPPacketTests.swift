import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import GalleryMetadata
import Testing

/// XMP properties found by their namespace, in both of RDF's forms, and removed whole.
@Suite("Metadata: XMP")
struct XMPPacketTests {
    typealias B = MetadataBytes

    static let packet = B.xmp(attributes: "\n   ps:City=\"Paris\" exif:GPSLatitude='48,51.0N' tiff:Orientation=\"6\"", """
        <exif:GPSLongitude>2,17.7E</exif:GPSLongitude>
        <ext:LocationShown><rdf:Bag><rdf:li rdf:parseType="Resource"><ext:City>Paris</ext:City>
          <ext:Sublocation>Champ de Mars</ext:Sublocation></rdf:li></rdf:Bag></ext:LocationShown>
        <dc:creator><rdf:Seq><rdf:li>Jane Doe</rdf:li></rdf:Seq></dc:creator>
        <dc:rights><rdf:Alt><rdf:li xml:lang="x-default">(c) Jane Doe</rdf:li></rdf:Alt></dc:rights>
        <exif:DateTimeOriginal>2024-06-01T10:15:00</exif:DateTimeOriginal>
        """)

    @Test func everyFormIsFoundUnderItsOwnPrefix() throws {
        var privacy = ImagePrivacy()
        try XMPPacket(Self.packet).report(into: &privacy)
        #expect(privacy.location == ["XMP photoshop:City", "XMP exif:GPSLatitude", "XMP exif:GPSLongitude",
                                     "XMP Iptc4xmpExt:LocationShown"])
        #expect(privacy.identity == ["XMP dc:creator"])
        #expect(privacy.captureTime == "2024-06-01T10:15:00")
    }

    @Test func aStripRemovesWholePropertiesAndLeavesWellFormedXML() throws {
        let xmp = try XMPPacket(Self.packet)
        let stripped = xmp.removing(xmp.doomed(by: [.location, .identity]))
        let text = String(decoding: stripped, as: UTF8.self)
        for gone in ["Paris", "GPSL", "Champ de Mars", "LocationShown", "creator"] { #expect(!text.contains(gone), "\(gone)") }
        for kept in ["tiff:Orientation=\"6\"", "(c) Jane Doe", "DateTimeOriginal"] { #expect(text.contains(kept), "\(kept)") }
        let parser = XMLParser(data: Data(stripped.drop { $0 != UInt8(ascii: "<") }))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }

    @Test(arguments: ["<x:xmpmeta><rdf:Description ps:City=\"Paris></x:xmpmeta>", "<exif:GPSLatitude>48",
                      "<a b=\"c\" d></a>"])
    func malformedPacketsAreRefused(text: String) {
        #expect(throws: MetadataError.self) { _ = try MetadataPayload.editXMP(Array(text.utf8), at: 0, scope: .location) }
    }

    @Test func aDeepPacketIsLinearAndBounded() throws {
        // 100,000 nested elements inside a removed property: one pass, no recursion.
        let depth = 100_000
        let body = "<exif:GPSAreaInformation>" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
            + "</exif:GPSAreaInformation>"
        let xmp = try XMPPacket(B.xmp(body))
        #expect(xmp.doomed(by: .location).count == 1)
        #expect(throws: MetadataError.self) { try XMPPacket([UInt8](repeating: 0x20, count: XMPPacket.maximumBytes + 1)) }
    }
}
