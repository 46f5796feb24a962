import Foundation
@testable import GalleryFormat
import GallerySystem
import GalleryTestSupport
import SystemPackage
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

    /// Every manifest of the fixtures, in chunks of 1, 7 and 4,096 bytes. Only an invalid
    /// fixture may have no manifest to read (a broken container, no or a huge manifest.json):
    /// a valid or tolerant one that does not open fails the test instead of being left out.
    @Test(arguments: [1, 7, 4096])
    func fixtureManifestsDecodeTheSame(chunk: Int) throws {
        var checked = 0
        for folder in ["valid", "tolerant", "invalid"] {
            for path in try TestPaths.fixtures(in: folder, withExtension: "imagegallery") {
                guard let archive = try? ZipArchive(file: GalleryFile.openForReading(FilePath(path))),
                      let entry = archive.entry(named: "manifest.json"), entry.uncompressedSize < 1 << 20,
                      let bytes = try? archive.readAll(entry, limit: 1 << 20) else {
                    #expect(folder == "invalid", "\(path): its manifest could not be read")
                    continue
                }
                let whole = Manifest.decode(bytes)
                let streamed = windowed(bytes, chunk: chunk)
                #expect(streamed.gallery == whole.gallery, "\(path)")
                #expect(streamed.diagnostics == whole.diagnostics, "\(path)")
                checked += 1
            }
        }
        #expect(checked > 60)
    }

    /// A fatal error far into a long text: the only finding, at its offset in the whole text.
    @Test func aFatalErrorLateInTheTextKeepsItsOffset() throws {
        let filler = String(repeating: "x", count: 3 << 20)
        let text = "{\"title\": \"\(filler)\", \"format\": \"imagegallery\", \"title\": \"again\"}"
        let whole = Manifest.decode(Array(text.utf8))
        let streamed = windowed(Array(text.utf8), chunk: 4096)
        #expect(streamed.diagnostics == whole.diagnostics)
        #expect(whole.diagnostics.map(\.code) == [.duplicateKey])
        #expect((whole.diagnostics.first?.location.offset ?? 0) > UInt64(3 << 20))
    }

    /// Past 1,000 findings the rest are counted (IG-MAN-015), but an error is always listed.
    @Test func findingsPastTheCapAreCountedNotListed() throws {
        func manifest(_ images: [String]) -> [UInt8] {
            Array("""
                {"created": "2026-01-01T00:00:00Z", "format": "imagegallery", "formatVersion": "1.0",                 "id": "\(UUID.nameBased(namespace: GalleryNamespace.documents, name: "d").manifestString)",                 "images": [\(images.joined(separator: ","))], "modified": "2026-01-01T00:00:00Z",                 "revision": "\(UUID.nameBased(namespace: GalleryNamespace.documents, name: "r").manifestString)", "title": "t"}
                """.utf8)
        }
        let wrong = Manifest.decode(manifest(Array(repeating: "0", count: 1500)))
        #expect(wrong.diagnostics.count == 1001)
        #expect(wrong.diagnostics.last?.code == .findingsNotListed)
        #expect(wrong.diagnostics.last?.message.contains("500 more") == true)
        // 1,200 unknown members (info), then one error: the error is listed, so the verdict holds.
        let notes = (0 ..< 1200).map { "\"k\($0)\": 1" }.joined(separator: ", ")
        let text = String(decoding: manifest(["0"]), as: UTF8.self).replacingOccurrences(of: "{\"created\"", with: "{\(notes), \"created\"")
        let infos = Manifest.decode(Array(text.utf8))
        #expect(infos.firstError?.code == .wrongType)
        #expect(infos.diagnostics.count == 1002)
        #expect(infos.diagnostics.last?.code == .findingsNotListed)
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
                "mediaType": "image/png", "path": "images/\(hex).png", "sha256": "\(hex)", "width": \(width)\(index % 1000 == 7 ? ", \"note\": [1, {\"x\": \"y\"}]" : "")}
                """)
        }
        let text = """
            {"created": "2026-01-01T00:00:00Z", "format": "imagegallery", "formatVersion": "1.0", \
            "id": "\(UUID.nameBased(namespace: GalleryNamespace.documents, name: "doc").manifestString)", \
            "images": [\(images.joined(separator: ",\n"))], "modified": "2026-01-01T00:00:00Z", \
            "revision": "\(UUID.nameBased(namespace: GalleryNamespace.documents, name: "rev").manifestString)", "title": "t", "zz": [true]}
            """
        let bytes = Array(text.utf8)
        #expect(bytes.count > 3 << 20)
        let whole = Manifest.decode(bytes)
        let streamed = windowed(bytes, chunk: chunk)
        #expect(streamed.diagnostics == whole.diagnostics)
        #expect(whole.diagnostics.contains { $0.code == .badValue && $0.location.jsonPointer == "/images/11995/width" })
        #expect(whole.diagnostics.last?.code == .unknownMember)
        #expect((whole.diagnostics.last?.location.offset ?? 0) > UInt64(3 << 20))
        // 12 notes, the caption too long, the width, "zz".
        #expect(whole.diagnostics.count == 15)
    }
}
