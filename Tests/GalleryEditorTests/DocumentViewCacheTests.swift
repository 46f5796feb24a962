import Foundation
import GalleryDocument
import GalleryFormat
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing
@testable import GalleryEditor

/// The desk keeps the `images` member of the last view it wrote (issue 34: at 100,000 images it
/// is 12 MB, written for every event). A kept list must never outlive a change to the images.
@Suite struct DocumentViewCacheTests {
    let folder: TemporaryDirectory
    let desk: DocumentDesk
    let key: String

    init() throws {
        folder = try TemporaryDirectory()
        let path = try folder.copy(TestPaths.fixture("valid/all.imagegallery"))
        desk = DocumentDesk(library: GalleryLibrary(roots: try EditorRoots(paths: [folder.path])), events: EditorEvents(),
                            options: DocumentOptions())
        key = GalleryLibrary.key(of: try GalleryFileSystem.resolvedPath(FilePath(path)).string)
    }

    /// The images of a view as the page reads them: [id, caption].
    func images(_ view: DocumentView) throws -> [[String]] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(view.json)) as? [String: Any])
        let images = try #require(json["images"] as? [[String: Any]])
        return images.map { [$0["id"] as? String ?? "", $0["caption"] as? String ?? ""] }
    }

    /// What the document holds, in the same form.
    func held(_ document: GalleryDocument) async throws -> [[String]] {
        try await document.gallery.images.map { [$0.id.manifestString, $0.caption ?? ""] }
    }

    @Test func everyViewShowsTheImagesTheDocumentHoldsNow() async throws {
        let document = try await desk.document(key, for: "page")
        let first = try await desk.view(key)
        let start = try images(first)
        let holds = try await held(document)
        #expect(start == holds)
        let again = try await desk.view(key)
        #expect(again.json == first.json, "nothing changed: the same bytes")

        let ids = try await document.gallery.images.map(\.id)
        try await document.moveImage(ids[ids.count - 1], to: 0)
        try await expectCurrent(document, "after a move")
        try await document.setCaption("a \"new\" caption\n", of: ids[0])
        try await expectCurrent(document, "after a caption")
        try await document.undo()
        try await document.undo()
        try await expectCurrent(document, "after two undos")
        let undone = try images(try await desk.view(key))
        #expect(undone == start, "back where it began")
        try await document.setTitle("A title of its own")
        let titled = try await desk.view(key)
        let titledImages = try images(titled)
        #expect(titled.title == "A title of its own" && titledImages == start)
        await desk.closeAll().forEach { Issue.record("\($0)") }
    }

    func expectCurrent(_ document: GalleryDocument, _ when: String) async throws {
        let shown = try images(try await desk.view(key))
        let holds = try await held(document)
        #expect(shown == holds, "\(when)")
    }

    /// The list written byte by byte is the one the format's writer gives, escapes and all.
    @Test func theListIsWhatTheWriterWrites() async throws {
        let document = try await desk.document(key, for: "page")
        let hostile = ["line\nbreak \"quoted\" back\\slash \u{0}\u{1F}\u{7F}", "\u{202E}gnp.evil \u{1F600} é", ""]
        for (image, caption) in zip(try await document.gallery.images, hostile) {
            try await document.setCaption(caption.isEmpty ? nil : caption, of: image.id)
        }
        let view = try await desk.view(key)
        typealias V = CanonicalJSONWriter.Value
        var objects: [V] = []
        for image in view.images {
            var members: [(String, V)] = []
            if let caption = image.caption { members.append(("caption", .string(caption))) }
            if let filename = image.filename { members.append(("filename", .string(filename))) }
            members += [("height", .integer(Int64(image.height))), ("id", .string(image.id)),
                        ("mediaType", .string(image.mediaType)), ("width", .integer(Int64(image.width)))]
            objects.append(.object(members))
        }
        var writer = CanonicalJSONWriter(capacity: 4096, compact: true)
        writer.write(.array(objects))
        #expect(DocumentView.imagesJSON(view.galleryImages) == writer.bytes)
        await desk.closeAll().forEach { Issue.record("\($0)") }
    }
}
