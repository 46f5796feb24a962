import Foundation
@testable import GalleryFormat
import GalleryImaging
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// The manifest is decoded while it is still being inflated, through a window that slides
/// over the text. These tests build manifests with objects larger than a chunk, to prove the
/// result is the same as a whole decode.
@Suite("Streamed manifest decoding")
struct StreamedManifestTests {
    /// Writes a gallery whose manifest is `manifest` verbatim, blobs from `blobs`.
    func writeRaw(manifest: [UInt8], blobs: [(String, [UInt8])], to path: String) throws {
        let file = try GalleryFile.create(FilePath(path))
        let zip = ZipWriter(file: file, modified: Timestamp(seconds: 0))
        try zip.add(name: "mimetype", bytes: Array(GalleryPackage.mediaType.utf8), method: .stored)
        try zip.add(name: "manifest.json", bytes: manifest, method: .deflated)
        try zip.add(name: "thumbnail.png", bytes: PlaceholderThumbnail.png(forFirstImage: nil), method: .stored)
        for (name, bytes) in blobs {
            try zip.addStored(name: name, size: UInt64(bytes.count)) { sink in try bytes.withUnsafeBytes { try sink($0) } }
        }
        try zip.finish()
    }

    /// A manifest of `count` images where image `bigAt` carries an unknown member of `bigBytes`.
    func manifest(count: Int, bigAt: Int?, bigBytes: Int, tail: String = "") -> ([UInt8], [(String, [UInt8])]) {
        var images: [String] = []
        var blobs: [(String, [UInt8])] = []
        for index in 0 ..< count {
            let bytes = PNGEncoder.encode(width: 1, height: 1, layout: .grey, pixels: [UInt8(index & 0xFF)], text: [("n", "\(index)")])
            let digest = SHA256Hasher.of(bytes)
            let id = UUID.nameBased(namespace: GalleryNamespace.documents, name: "\(index)").manifestString
            var extra = ""
            // Escaped text is long in bytes and short in characters: the worst case for the window.
            if index == bigAt { extra = ", \"futureNote\": \"\(String(repeating: "\\u00e9", count: bigBytes / 6))\"" }
            images.append("""
                {"byteSize": \(bytes.count), "height": 1, "id": "\(id)", "mediaType": "image/png", \
                "path": "images/\(digest.hex).png", "sha256": "\(digest.hex)", "width": 1\(extra)}
                """)
            blobs.append(("images/\(digest.hex).png", bytes))
        }
        let text = """
            {"created": "2026-01-01T00:00:00Z", "format": "imagegallery", "formatVersion": "1.0", \
            "id": "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b", "images": [\(images.joined(separator: ", "))], \
            "modified": "2026-01-01T00:00:00Z", "revision": "1f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b", "title": "T"}\(tail)
            """
        return (Array(text.utf8), blobs)
    }

    /// A truncated text never decodes: every prefix of a manifest fails.
    @Test func noPrefixDecodesSuccessfully() throws {
        let (text, _) = manifest(count: 3, bigAt: 1, bigBytes: 120)
        let canonical = Manifest.encode(try Manifest.decodeOrThrow(text).0)
        for whole in [text, canonical] {
            var significant = whole.count
            while significant > 0, [0x20, 0x0A, 0x0D, 0x09].contains(whole[significant - 1]) { significant -= 1 }
            for length in 0 ..< significant {
                let result = Manifest.decode(Array(whole[..<length]))
                #expect(result.firstError != nil, "a \(length)-byte prefix decoded without error")
            }
        }
    }

    @Test(arguments: [0, 1, 1500])
    func objectsLargerThanTheWindowStillDecode(bigAt: Int) throws {
        let directory = try TemporaryDirectory()
        let (text, blobs) = manifest(count: 3000, bigAt: bigAt, bigBytes: 3 * (256 << 10))
        let path = directory.file("g.imagegallery")
        try writeRaw(manifest: text, blobs: blobs, to: path)
        let reader = try GalleryReader(path: path)
        let whole = try Manifest.decodeOrThrow(text)
        #expect(reader.gallery == whole.0)
        #expect(reader.diagnostics.map(\.code.id) == ["IG-MAN-013"])
        #expect(reader.diagnostics.first?.location.jsonPointer == "/images/\(bigAt)/futureNote")
    }

    @Test func trailingGarbageIsFoundAfterTheWholeText() throws {
        let directory = try TemporaryDirectory()
        let (text, blobs) = manifest(count: 3000, bigAt: nil, bigBytes: 0, tail: " {}")
        let path = directory.file("g.imagegallery")
        try writeRaw(manifest: text, blobs: blobs, to: path)
        #expect {
            _ = try GalleryReader(path: path)
        } throws: { error in
            (error as? GalleryError)?.code == .jsonSyntax
        }
    }

    @Test func errorsMatchAWholeDecode() throws {
        let directory = try TemporaryDirectory()
        var (text, blobs) = manifest(count: 3000, bigAt: 2000, bigBytes: 2 * (256 << 10))
        // A defect late in the text, after the window has had to wait.
        let marker = Array("\"width\": 1}".utf8)
        let last = try #require(text.ranges(of: marker).last)
        text.replaceSubrange(last, with: Array("\"width\": 0}".utf8))
        let path = directory.file("g.imagegallery")
        try writeRaw(manifest: text, blobs: blobs, to: path)
        let expected = Manifest.decode(text).firstError
        #expect {
            _ = try GalleryReader(path: path)
        } throws: { error in
            let error = error as? GalleryError
            return error?.code == expected?.code && error?.location.jsonPointer == expected?.location.jsonPointer
                && error?.location.jsonPointer == "/images/2999/width"
        }
    }
}
