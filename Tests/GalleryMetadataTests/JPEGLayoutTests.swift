@testable import GalleryMetadata
import Testing

/// JPEG segments: IPTC, extended XMP, the EXIF thumbnail's own segments, and data after the
/// end, which a strip refuses to touch.
@Suite("Metadata: JPEG")
struct JPEGLayoutTests {
    typealias B = MetadataBytes

    static func exif(_ block: [UInt8]) -> [UInt8] { B.segment(0xE1, Array("Exif\0\0".utf8) + block) }
    static let gps = B.tiff([[B.pointer(0x8825, to: 1)], [(0x0001, 2, 2, Array("N\0".utf8))]])

    static func dataset(_ number: UInt8, _ text: String) -> [UInt8] {
        [0x1C, 2, number] + B.be16(text.utf8.count) + Array(text.utf8)
    }

    static func photoshop(_ resources: [(Int, [UInt8])]) -> [UInt8] {
        var payload = Array("Photoshop 3.0\0".utf8)
        for (id, data) in resources {
            payload += Array("8BIM".utf8) + B.be16(id) + [0, 0] + [UInt8(data.count >> 24), UInt8(data.count >> 16 & 0xFF),
                                                                   UInt8(data.count >> 8 & 0xFF), UInt8(data.count & 0xFF)]
            payload += data + (data.count & 1 == 1 ? [0] : [])
        }
        return B.segment(0xED, payload)
    }

    @Test func iptcLosesItsPlacesAndDigestAndKeepsTheRest() throws {
        let iptc = Self.dataset(90, "Paris") + Self.dataset(80, "Jane Doe") + Self.dataset(116, "(c) Jane")
        let jpeg = try B.jpeg(with: Self.photoshop([(0x0404, iptc), (0x0425, [UInt8](repeating: 1, count: 16))]))
        #expect(ImageMetadata.privacy(of: jpeg, type: .jpeg).location == ["IPTC City"])
        let stripped = try #require(try ImageMetadata.strip(jpeg, type: .jpeg, scope: .location).bytes)
        let resources = try PhotoshopResources(segment: Array(stripped[(try JPEGLayout(stripped)).segments[0].payload]))
        #expect(resources.resources.map(\.id) == [0x0404], "the digest of the old data is gone")
        #expect(try PhotoshopResources.datasets(resources.resources[0].data).map(\.number) == [80, 116])
        #expect(stripped.suffix(from: stripped.count - 200) == jpeg.suffix(from: jpeg.count - 200), "the scan is untouched")
    }

    @Test func extendedXMPGoesWholeWhenItHoldsALocation() throws {
        let main = B.xmp(attributes: " xmlns:xmpNote=\"http://ns.adobe.com/xmp/note/\" xmpNote:HasExtendedXMP=\"ABC\"", "")
        let extended = B.xmp("<exif:GPSLatitude>48</exif:GPSLatitude>")
        let header = Array("http://ns.adobe.com/xmp/extension/\0".utf8) + Array(repeating: UInt8(ascii: "A"), count: 32)
            + [0, 0, UInt8(extended.count >> 8), UInt8(extended.count & 0xFF), 0, 0, 0, 0]
        let jpeg = try B.jpeg(with: B.segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0".utf8) + main)
                              + B.segment(0xE1, header + extended))
        #expect(ImageMetadata.privacy(of: jpeg, type: .jpeg).location == ["XMP exif:GPSLatitude"])
        let stripped = try #require(try ImageMetadata.strip(jpeg, type: .jpeg, scope: .location).bytes)
        let layout = try JPEGLayout(stripped)
        #expect(layout.segments.filter { $0.kind == .extendedXMP }.isEmpty)
        #expect(!String(decoding: stripped, as: UTF8.self).contains("HasExtendedXMP"))
    }

    @Test func theEXIFThumbnailLosesItsOwnSegments() throws {
        let thumbnail = try B.jpeg(with: Self.exif(Self.gps))
        var block = B.tiff([[B.pointer(0x8825, to: 2)], [(0x0201, 4, 1, B.le32(0)), (0x0202, 4, 1, B.le32(thumbnail.count))],
                            [(0x0001, 2, 2, Array("N\0".utf8))]])
        // IFD1 follows IFD0; the thumbnail follows the block.
        block.replaceSubrange(22 ..< 26, with: B.le32(26))
        let at = block.count
        let offsetField = 26 + 2 + 8
        block.replaceSubrange(offsetField ..< offsetField + 4, with: B.le32(at))
        block += thumbnail
        var exif = try ExifBlock(block)
        let changed = exif.strip(.location)
        #expect(changed)
        let ifd1 = try #require(try ExifBlock(exif.bytes).directories.first { $0.name == "IFD1" })
        let length = Int(exif.bytes.le32(ifd1.entries[1].at + 8))
        let slimmer = Array(exif.bytes[at ..< at + length])
        #expect(length < thumbnail.count && slimmer.starts(with: [0xFF, 0xD8]))
        #expect(try JPEGLayout(slimmer).segments.allSatisfy { $0.kind != .exif })
    }

    @Test func dataAfterTheEndIsLeftAloneAndSaid() throws {
        let jpeg = try B.jpeg(with: Self.exif(Self.gps)) + Array("ftypmp42 a motion photo's video".utf8)
        #expect(throws: MetadataError.self) { try ImageMetadata.strip(jpeg, type: .jpeg, scope: .location) }
        do {
            _ = try ImageMetadata.strip(jpeg, type: .jpeg, scope: .location)
        } catch let error as MetadataError {
            #expect(error.message.contains("motion photo"))
        }
        // Zeros after the end are padding, not data.
        let padded = try B.jpeg(with: Self.exif(Self.gps)) + [UInt8](repeating: 0, count: 64)
        #expect(try ImageMetadata.strip(padded, type: .jpeg, scope: .location).bytes != nil)
    }

    @Test func anImageWithNothingToRemoveIsNotRewritten() throws {
        let jpeg = try B.plainJPEG()
        let strip = try ImageMetadata.strip(jpeg, type: .jpeg, scope: .allMetadata)
        #expect(strip.bytes == nil && strip.removed.isEmpty)
    }
}
