import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// No edit can save a file that a reader refuses: each refused edit names the rule, exits 65,
/// leaves the file as it was, and the gallery stays editable.
@Suite("Edits at and past the format's limits")
struct WriterRulesCommandTests {
    /// A gallery of exactly 100,000 images (one blob listed 100,000 times), written by the library.
    static func fullGallery(in workspace: EditingWorkspace) throws -> String {
        let path = workspace.directory.file("full.imagegallery")
        let png = PNGBytes.image(seed: 3)
        let sha = SHA256Hasher.of(png)
        let images = (0 ..< 100_000).map { index in
            GalleryImage(id: UUID(), mediaType: .png, width: 8, height: 6, byteSize: UInt64(png.count), sha256: sha)
        }
        let gallery = Gallery(id: UUID(), revision: UUID(), title: "Full", created: Timestamp(seconds: 1_700_000_000),
                              modified: Timestamp(seconds: 1_700_000_000), images: images)
        try GalleryWriter.write(gallery, thumbnail: png, to: path, overwrite: false) { _ in .bytes(png) }
        return path
    }

    @Test("add to a gallery at the image limit is refused; remove still works")
    func addPastImageLimit() throws {
        let workspace = try EditingWorkspace()
        let full = try Self.fullGallery(in: workspace)
        let before = try FileBytes.read(full)
        let result = try workspace.run(["add", full, try workspace.image(1)])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("IG-MAN-014"), "\(result.stderr)")
        #expect(try FileBytes.read(full) == before, "the refused add changed the file")
        #expect(try workspace.run(["info", full]).status == 0)
        let removed = try workspace.run(["remove", full, "1"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try workspace.content(full).images.count == 99_999)
        #expect(try workspace.isValid(full))
    }

    @Test("caption past 10,000 characters is refused; at 10,000 it is written")
    func captionPastLimit() throws {
        let workspace = try EditingWorkspace(images: 1)
        let before = try FileBytes.read(workspace.gallery)
        let refused = try workspace.run(["caption", workspace.gallery, "1", String(repeating: "c", count: 10_001)])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("IG-MAN-008") && refused.stderr.contains("/images/0/caption"), "\(refused.stderr)")
        #expect(try FileBytes.read(workspace.gallery) == before)
        #expect(try workspace.isValid())
        let accepted = try workspace.run(["caption", workspace.gallery, "1", String(repeating: "c", count: 10_000)])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(try workspace.content().images[0].caption?.count == 10_000)
        #expect(try workspace.isValid())
    }

    @Test("rename past 1,000 characters is refused")
    func renamePastLimit() throws {
        let workspace = try EditingWorkspace(images: 1)
        let before = try FileBytes.read(workspace.gallery)
        let refused = try workspace.run(["rename", workspace.gallery, String(repeating: "t", count: 1001)])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("IG-MAN-008"), "\(refused.stderr)")
        #expect(try FileBytes.read(workspace.gallery) == before)
        #expect(try workspace.run(["rename", workspace.gallery, String(repeating: "t", count: 1000)]).status == 0)
        #expect(try workspace.isValid())
    }

    @Test("create of 100,001 images is refused and writes nothing")
    func createPastImageLimit() throws {
        let workspace = try EditingWorkspace()
        let folder = workspace.directory.file("many")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        // ext4 allows 65,000 links to one file: two originals, alternating.
        let originals = [try workspace.image(5), try workspace.image(6)]
        for index in 0 ..< 100_001 {
            guard link(originals[index % 2], folder + "/\(index).png") == 0 else {
                Issue.record("link \(index): errno \(errno)")
                return
            }
        }
        let output = workspace.directory.file("many.imagegallery")
        let result = try workspace.run(["create", output, folder])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("IG-MAN-014"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
