@testable import GalleryMetadata
import Testing

/// The EXIF block edited in place: what leaves, what stays where it was, and what is refused.
@Suite("Metadata: EXIF")
struct ExifBlockTests {
    typealias B = MetadataBytes

    /// IFD0 (artist, GPS and Exif pointers, orientation 6), the GPS IFD, and the Exif IFD with a
    /// MakerNote and a serial number.
    static let makerNote = Array("Nikon\0\u{2}\u{10}\0\0MM\0*\0\0\0\u{8}SERIAL-IN-NOTE".utf8)
    static let block = B.tiff([
        [B.ascii(0x013B, "Jane Doe"), (0x0112, 3, 1, [6, 0]), B.pointer(0x8825, to: 1), B.pointer(0x8769, to: 2)],
        [(0x0001, 2, 2, Array("N\0".utf8)), (0x0002, 5, 3, [UInt8](repeating: 0xA7, count: 24))],
        [(0x927C, 7, makerNote.count, makerNote), B.ascii(0xA431, "SN-42"), (0x8298, 2, 8, Array("(c) Ann\0".utf8))],
    ])

    @Test func aLocationStripKeepsTheMakerNoteWhereItWas() throws {
        var exif = try ExifBlock(Self.block)
        let note = try #require(exif.directories.first { $0.name == "Exif IFD" }?.entries.first { $0.tag == 0x927C }?.value)
        let changed = exif.strip(.location)
        #expect(changed)
        #expect(exif.bytes.count == Self.block.count, "the block keeps its size")
        let after = try ExifBlock(exif.bytes)
        #expect(after.gpsDirectory == nil && !after.directories[0].entries.contains { $0.tag == 0x8825 })
        #expect(Array(after.bytes[note]) == Self.makerNote, "the MakerNote's bytes and offset are unchanged")
        #expect(after.directories.first { $0.name == "Exif IFD" }?.entries.first { $0.tag == 0x927C }?.value == note)
        #expect(after.orientation == 6)
        #expect(!after.bytes.contains(0xA7), "the GPS values are zeros now")
    }

    @Test func anIdentityStripTakesTheMakerNoteAndKeepsCopyright() throws {
        var exif = try ExifBlock(Self.block)
        let changed = exif.strip(.identity)
        #expect(changed)
        var privacy = ImagePrivacy()
        let after = try ExifBlock(exif.bytes)
        after.report(into: &privacy)
        #expect(privacy.identity.isEmpty)
        #expect(privacy.location == ["EXIF GPS"], "identity alone leaves the location")
        #expect(after.directories.first { $0.name == "Exif IFD" }?.entries.map(\.tag) == [0x8298])
        #expect(!String(decoding: after.bytes, as: UTF8.self).contains("SERIAL-IN-NOTE"))
    }

    @Test func aDirectoryLoopIsRefusedNotFollowed() throws {
        var loop = B.tiff([[B.ascii(0x013B, "x")]])
        // IFD0's next-directory pointer back to IFD0.
        loop.replaceSubrange(22 ..< 26, with: B.le32(8))
        #expect(throws: MetadataError.self) { try ExifBlock(loop) }
        #expect(throws: MetadataError.self) {
            try MetadataPayload.editExif(loop, at: 0, scope: .location)
        }
    }

    @Test(arguments: [
        [0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0x00, 0x00],  // IFD0 past the end
        [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0xFF, 0xFF],  // 65,535 entries in 10 bytes
        [0x4D, 0x4D, 0x00, 0x2B, 0x00, 0x00, 0x00, 0x08],  // BigTIFF's 43, not EXIF
    ] as [[UInt8]])
    func brokenHeadersAreRefused(block: [UInt8]) {
        #expect(throws: MetadataError.self) { try ExifBlock(block) }
    }

    @Test func aValueCountThatOverflowsIsNoValue() throws {
        // Type DOUBLE, count 0xFFFFFFFF: 32 GiB claimed, read as no value rather than a range.
        let block = B.tiff([[(0xA431, 12, 0, [])]])
        var patched = block
        patched.replaceSubrange(14 ..< 18, with: [0xFF, 0xFF, 0xFF, 0xFF])
        var exif = try ExifBlock(patched)
        #expect(exif.directories[0].entries[0].value == nil)
        let changed = exif.strip(.identity)
        #expect(changed)
    }

    @Test func allMetadataLeavesTheOrientationAlone() throws {
        let edit = try MetadataPayload.editExif(Self.block, at: 0, scope: .allMetadata)
        guard case .replace(let minimal) = edit else { Issue.record("\(edit)"); return }
        let exif = try ExifBlock(minimal)
        #expect(exif.orientation == 6 && exif.directories.count == 1 && exif.directories[0].entries.count == 1)
    }
}
