import Foundation
@testable import GalleryFormat
import GalleryTestSupport
import Testing

/// The validator decodes the manifest through a window that slides over the text as it is
/// inflated. Whatever the chunking, the result must equal a decode of the whole text.
@Suite("Windowed manifest decoding")
struct WindowedManifestTests {
    /// Hands out `bytes` in chunks of `size`.
    final class Chunks: JSONChunkSource {
        let bytes: [UInt8]
        let size: Int
        var offset = 0
        init(_ bytes: [UInt8], size: Int) { self.bytes = bytes; self.size = size }
        func nextChunk() throws -> [UInt8]? {
            guard offset < bytes.count else { return nil }
            defer { offset += size }
            return Array(bytes[offset ..< min(bytes.count, offset + size)])
        }
    }

    func windowed(_ bytes: [UInt8], chunk: Int) -> ManifestDecoding {
        Manifest.decode(source: Chunks(bytes, size: chunk), limits: .default, keepsText: true)
    }

    /// Every manifest of the fixtures, in chunks of 1, 7 and 4,096 bytes.
    @Test(arguments: [1, 7, 4096])
    func fixtureManifestsDecodeTheSame(chunk: Int) throws {
        var checked = 0
        for folder in ["valid", "tolerant", "invalid"] {
            for path in TestPaths.fixtures(in: folder, withExtension: "imagegallery") {
                guard let archive = try? ZipArchive(file: GalleryFile.openForReading(path)),
                      let entry = archive.entry(named: "manifest.json"), entry.uncompressedSize < 1 << 20,
                      let bytes = try? archive.readAll(entry, limit: 1 << 20) else { continue }
                let whole = Manifest.decode(bytes)
                let streamed = windowed(bytes, chunk: chunk)
                #expect(streamed.gallery == whole.gallery, "\(path)")
                #expect(streamed.diagnostics == whole.diagnostics, "\(path)")
                checked += 1
            }
        }
        #expect(checked > 60)
    }

    /// A manifest of several MiB, so the window slides many times, with defects near its end:
    /// their offsets and JSON pointers must be those of the whole text.
    @Test(arguments: [1000, 65536, 262_144])
    func slidingKeepsOffsetsAndPointers(chunk: Int) throws {
        var images: [String] = []
        for index in 0 ..< 12000 {
            let hex = String(repeating: String(format: "%02x", index & 0xFF), count: 32)
            let caption = index == 11990 ? "\"caption\": \"\(String(repeating: "\\u00e9", count: 12000))\", " : ""
            let width = index == 11995 ? "0" : "1"
            images.append("""
                {\(caption)"byteSize": 1, "height": 1, "id": "\(UUID.nameBased(namespace: GalleryNamespace.documents, name: "\(index)").manifestString)", \
                "mediaType": "image/png", "path": "images/\(hex).png", "sha256": "\(hex)", "width": \(width), "note\(index % 3)": [1, {"x": "y"}]}
                """)
        }
        let text = """
            {"created": "2026-01-01T00:00:00Z", "format": "imagegallery", "formatVersion": "1.0", \
            "id": "\(UUID.nameBased(namespace: GalleryNamespace.documents, name: "doc").manifestString)", \
            "images": [\(images.joined(separator: ",\n"))], "modified": "2026-01-01T00:00:00Z", \
            "revision": "\(UUID.nameBased(namespace: GalleryNamespace.documents, name: "rev").manifestString)", "title": "t", "title": "again"}
            """
        let bytes = Array(text.utf8)
        #expect(bytes.count > 3 << 20)
        let whole = Manifest.decode(bytes)
        let streamed = windowed(bytes, chunk: chunk)
        #expect(streamed.diagnostics == whole.diagnostics)
        #expect(whole.diagnostics.contains { $0.code == .badValue && $0.location.jsonPointer == "/images/11995/width" })
        #expect(whole.diagnostics.last?.code == .duplicateKey)
        #expect((whole.diagnostics.last?.location.offset ?? 0) > UInt64(3 << 20))
    }
}
