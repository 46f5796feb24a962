import GalleryFormat
import GalleryImaging
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// An image file inspected for a gallery: header, description, SHA-256, CRC-32 and size from
/// one pass, whether the file fits in the first chunk read (256 KiB) or not, and whether its
/// description lies within that chunk or past it.
@Suite struct ImageFileInspectionTests {
    static let chunk = 256 << 10

    /// A PNG with a private chunk of `padding` bytes before or after its Description.
    static func png(padding: Int, descriptionFirst: Bool) -> [UInt8] {
        let text = PNGBytes.chunk("tEXt", Array("Description\u{0}Dunes at noon".utf8))
        let pad = PNGBytes.chunk("prIv", [UInt8](repeating: 0x5A, count: padding))
        // The IDAT of a seeded image (its signature, IHDR and IEND cut off), after the others.
        let image = PNGBytes.image(seed: 7)
        let idat = Array(image[(8 + 25) ..< (image.count - 12)])
        return PNGBytes.file(width: 8, height: 6, bitDepth: 8, colourType: 2,
                             chunks: descriptionFirst ? [text, pad, idat] : [pad, text, idat])
    }

    /// The same PNG, `total` bytes long.
    static func png(total: Int, descriptionFirst: Bool) -> [UInt8] {
        let padding = total - png(padding: 0, descriptionFirst: descriptionFirst).count
        let bytes = png(padding: padding, descriptionFirst: descriptionFirst)
        precondition(bytes.count == total, "\(bytes.count) is not \(total)")
        return bytes
    }

    static let sizes: [(total: Int, descriptionFirst: Bool)] = [
        (1_000, true), (chunk - 1, true), (chunk, true), (chunk + 1, true),
        (chunk + 1, false), (2 * chunk, false), (3 * chunk + 17, false), (3 * chunk, true),
    ]

    @Test(arguments: sizes)
    func everyPartOfTheFileIsReadOnce(total: Int, descriptionFirst: Bool) throws {
        let folder = try TemporaryDirectory()
        let bytes = Self.png(total: total, descriptionFirst: descriptionFirst)
        let path = folder.file("dunes.png")
        try FileBytes.write(bytes, to: path)

        let inspected = try ImageFile.inspect(path)
        var hasher = SHA256Hasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        var crc = CRC32()
        crc.update(bytes)
        #expect(inspected.byteSize == UInt64(total))
        #expect(inspected.sha256 == hasher.finalize())
        #expect(inspected.crc32 == crc.value)
        #expect(inspected.header.mediaType == .png)
        #expect(inspected.header.width == 8 && inspected.header.height == 6)
        // Past the first chunk when the padding comes first: read from the file, not the chunk.
        #expect(inspected.description == "Dunes at noon")
        #expect(inspected.identity == (try FileIdentity.of(path: FilePath(path))))
    }

    /// A text chunk that begins in the first chunk read and ends past it: the header reader's
    /// request runs past what was read first, and is read from the file.
    @Test func aDescriptionAcrossTheFirstChunksEndIsRead() throws {
        let folder = try TemporaryDirectory()
        // Signature, IHDR and the private chunk's own 12 bytes come before the padding.
        let bytes = Self.png(padding: Self.chunk - 10 - (8 + 25 + 12), descriptionFirst: false)
        try FileBytes.write(bytes, to: folder.file("across.png"))
        #expect(try ImageFile.inspect(folder.file("across.png")).description == "Dunes at noon")
    }

    @Test func anEmptyFileAndATruncatedHeaderAreNotImages() throws {
        let folder = try TemporaryDirectory()
        try FileBytes.write([], to: folder.file("empty.png"))
        try FileBytes.write(Array(PNGBytes.image(seed: 1).prefix(20)), to: folder.file("cut.png"))
        for name in ["empty.png", "cut.png"] {
            #expect(throws: NotAnImageError.self) { try ImageFile.inspect(folder.file(name)) }
        }
    }
}
