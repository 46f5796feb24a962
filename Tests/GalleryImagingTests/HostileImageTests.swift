import Foundation
import GalleryFormat
@testable import GalleryImageHeaders
@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// Format 2.0's hostile images (scripts/make-hostile-images.py: dimension bombs, truncations,
/// grids of thousands of tiles, grid reference loops, box size lies, an `ispe` that disagrees
/// with the coded image, LZW and frame-count bombs, canvases far larger than their frames,
/// brands that contradict the item), each through the thumbnail path a desktop's thumbnailer
/// runs on downloaded files: a clean thumbnail for the valid ones, an error for the others,
/// never a crash or a hang (libheif 1.15.1 crashes on several of them when it reads them alone).
@Suite("Hostile WebP, GIF, AVIF and HEIC")
struct HostileImageTests {
    struct Expectation: Decodable {
        var verdict: String
        var why: String
        var width: Int?
        var height: Int?
    }

    /// The generator's files and what each must give, written afresh into a scratch folder.
    static func corpus() throws -> (TemporaryDirectory, [(String, Expectation)]) {
        let folder = try TemporaryDirectory()
        let ran = try Subprocess.run("/usr/bin/python3", [TestPaths.repository + "/scripts/make-hostile-images.py", folder.path])
        guard ran.status == 0 else { throw MissingTestInput(description: "make-hostile-images.py exited \(ran.status): \(ran.stderr)") }
        let expected = try JSONDecoder().decode([String: Expectation].self,
                                                from: Data(contentsOf: URL(fileURLWithPath: folder.file("expected.json"))))
        return (folder, expected.sorted { $0.key < $1.key })
    }

    @Test func eachFileIsThumbnailedOrRefusedAsExpected() throws {
        let (folder, corpus) = try Self.corpus()
        #expect(corpus.count >= 80, "the generator wrote \(corpus.count) files")
        #expect(corpus.contains { $0.1.verdict == "valid" } && corpus.contains { $0.1.verdict == "refused" })
        for (name, expectation) in corpus {
            let bytes = try FileBytes.read(folder.file(name))
            do {
                let thumbnail = try Thumbnailer.thumbnail(of: bytes, longSide: 256)
                if expectation.verdict == "refused" {
                    Issue.record("\(name) was thumbnailed (\(thumbnail.width)×\(thumbnail.height)); expected a refusal: \(expectation.why)")
                }
                let header = try ImageHeader.parse(bytes)
                if let width = expectation.width, let height = expectation.height {
                    #expect(header.width == width && header.height == height,
                            "\(name): the header says \(header.width)×\(header.height), not \(width)×\(height)")
                }
            } catch let error as ImageDecodeError {
                if expectation.verdict == "valid" { Issue.record("\(name) was refused: \(error.message); it is valid: \(expectation.why)") }
                #expect(!error.message.isEmpty)
            }
        }
    }
}
