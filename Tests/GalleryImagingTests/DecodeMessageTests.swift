import Foundation
import GalleryFormat
@testable import GalleryImageHeaders
@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// What the decoders and header readers say (issue 28, item 5): one line each, the image named
/// by its own size, a file's own bytes never printed raw.
@Suite("Decode messages")
struct DecodeMessageTests {
    /// A RIFF WEBP file of one chunk whose size runs past the RIFF data.
    static func webP(fourCC: [UInt8]) -> [UInt8] {
        var bytes = Array("RIFF".utf8) + [20, 0, 0, 0] + Array("WEBP".utf8)
        bytes += fourCC + [0xFF, 0xFF, 0, 0] + [UInt8](repeating: 0, count: 8)
        return bytes
    }

    static func headerError(_ read: () throws -> Void) -> String {
        do {
            try read()
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test func aWebPChunksFourCCIsEscapedAndItsPaddingDropped() {
        let raw = Self.headerError { _ = try ImageGeometry.webP(size: 32, read: Self.webP(fourCC: [0x3E, 0x6D, 0x34, 0xEF]).bytes(at:count:)) }
        #expect(raw.contains("the >m4\\xEF chunk's size"), "\(raw)")
        #expect(!raw.unicodeScalars.contains("\u{FFFD}"), "\(raw)")
        let padded = Self.headerError { _ = try ImageGeometry.webP(size: 32, read: Self.webP(fourCC: Array("VP8 ".utf8)).bytes(at:count:)) }
        #expect(padded.contains("the VP8 chunk's size"), "\(padded)")
    }

    @Test func aBoxPastTheEndOfTheFileSaysSo() throws {
        var bytes = try FileBytes.read(TestPaths.fixture("format-2.0/sunset.heic"))
        // The meta box, second after ftyp, claims more than the file holds.
        let meta = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        bytes.replaceSubrange(meta ..< meta + 4, with: [0x7F, 0, 0, 0])
        let message = Self.headerError { _ = try ImageGeometry.heif(size: UInt64(bytes.count), read: bytes.bytes(at:count:)) }
        #expect(message.contains("runs past the end of the file (\(bytes.count) bytes)"), "\(message)")
    }

    /// libheif reads a meta box of size 0 (to the end of the file, over the mdat after it) as no
    /// meta box at all: our reader says what is wrong before libheif is asked.
    @Test(arguments: ["i-heic-meta-size-0-heic", "i-avif-meta-size-0-avif"])
    func aMetaBoxOfSizeZeroIsOurFindingNotLibheifs(name: String) throws {
        let reader = try GalleryReader(path: TestPaths.fixture("hostile/\(name).imagegallery"))
        let image = try #require(reader.gallery.images.first)
        var bytes: [UInt8] = []
        try reader.readBlob(image) { bytes.append(contentsOf: $0) }
        let message = Self.headerError { _ = try ImageGeometry.heif(size: UInt64(bytes.count), read: bytes.bytes(at:count:)) }
        #expect(message.contains("the meta box's size is 0"), "\(message)")
        let decoded = Self.headerError { _ = try DecodedFrame.decode(bytes, as: image.mediaType) }
        #expect(!decoded.contains("No 'meta' box") && decoded.contains("meta box's size is 0"), "\(decoded)")
    }

    @Test func libraryMessagesAreOneLine() {
        #expect("No 'meta' box\nfound\r\n\tat all ".foldingControlCharacters == "No 'meta' box found at all ")
        #expect("one line".foldingControlCharacters == "one line")
        #expect("\nleading".foldingControlCharacters == "leading")
    }

    @Test("a row path's refusal names the image's size, not its band's", arguments: ["sunset.heic", "sunset.avif", "b.gif"])
    func rowPathsNameTheImage(name: String) throws {
        let bytes = try FileBytes.read(TestPaths.fixture("format-2.0/" + name))
        let header = try ImageHeader.parse(bytes)
        let limits = DecodeLimits(maxBytes: 1024)
        let message: String
        do {
            _ = try DecodedFrame.decodeRows(bytes, as: header.mediaType, limits: limits) { _ in }
            message = ""
        } catch {
            message = "\(error)"
        }
        #expect(message.contains("this \(header.width)×\(header.height) "), "\(message)")
    }
}
