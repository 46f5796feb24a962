import Foundation
import GalleryDocument
import GalleryFormat
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing
@testable import GalleryEditor

/// The page's "Use as cover" and "Unset cover" (issue 33): the edit `{"op": "cover", "id": ID}`
/// sets the gallery's cover, with a null or absent id unsets it, an id the gallery does not hold
/// is refused naming it, Undo takes it back, and the view the page draws from says which it is
/// (`cover`, left out while none is chosen).
@Suite struct CoverEditTests {
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory() }

    /// A gallery of three images open for editing, and their ids.
    func gallery() async throws -> (GalleryDocument, [UUID]) {
        var options = DocumentOptions()
        (options.autosaves, options.durable) = (false, false)
        options.versionStore = VersionStore(root: FilePath(folder.file("versions")))
        let path = try folder.copy(TestPaths.fixture("invalid/privacy/IG-PRV-001-gps-position.imagegallery"), as: "Cover.imagegallery")
        let document = GalleryDocument(path: path, options: options)
        try await document.open()
        for seed in 1...2 { try await document.insertImage(data: PNGBytes.image(seed: seed), filename: "\(seed).png") }
        return (document, try await document.gallery.images.map(\.id))
    }

    func apply(_ json: String, to document: GalleryDocument) async throws {
        _ = try await EditorRoutes.apply(try JSONDecoder().decode(EditorRoutes.Edit.self, from: Data(json.utf8)), to: document)
    }

    /// The view's `cover` member as the page reads it: the id, or nil when it is left out.
    func viewCover(_ document: GalleryDocument) async throws -> Any? {
        let view = try await DocumentView(key: "k", document: document, saving: false)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(view.json)) as? [String: Any])
        return json["cover"]
    }

    @Test func coverSetsAndNullOrNoIdUnsets() async throws {
        let (document, ids) = try await gallery()
        #expect(try await viewCover(document) == nil, "no cover chosen: left out")
        try await apply(#"{"op": "cover", "id": "\#(ids[2].manifestString)"}"#, to: document)
        #expect(try await document.gallery.cover == ids[2])
        #expect(try await viewCover(document) as? String == ids[2].manifestString)
        try await apply(#"{"op": "cover", "id": null}"#, to: document)
        #expect(try await document.gallery.cover == nil)
        #expect(try await viewCover(document) == nil)
        try await apply(#"{"op": "cover", "id": "\#(ids[1].manifestString)"}"#, to: document)
        try await apply(#"{"op": "cover"}"#, to: document)
        #expect(try await document.gallery.cover == nil, "no id unsets, as null does")
        _ = try await document.close()
    }

    @Test func anUnknownIdIsRefusedNamingIt() async throws {
        let (document, ids) = try await gallery()
        try await apply(#"{"op": "cover", "id": "\#(ids[1].manifestString)"}"#, to: document)
        let stranger = "00000000-0000-4000-8000-000000000abc"
        do {
            try await apply(#"{"op": "cover", "id": "\#(stranger)"}"#, to: document)
            Issue.record("a cover no image has was taken")
        } catch {
            #expect("\(error)".contains(stranger), "\(error)")
            #expect(Responses.status(for: error).code == 404, "no such image, as for the other routes: \(error)")
        }
        #expect(try await document.gallery.cover == ids[1], "a refused cover changes nothing")
        _ = try await document.close()
    }

    @Test func undoAndRedoTakeTheCoverBackAndAgain() async throws {
        let (document, ids) = try await gallery()
        try await apply(#"{"op": "cover", "id": "\#(ids[2].manifestString)"}"#, to: document)
        try await apply(#"{"op": "cover", "id": "\#(ids[0].manifestString)"}"#, to: document)
        try await apply(#"{"op": "undo"}"#, to: document)
        #expect(try await document.gallery.cover == ids[2])
        try await apply(#"{"op": "undo"}"#, to: document)
        #expect(try await document.gallery.cover == nil)
        try await apply(#"{"op": "redo"}"#, to: document)
        #expect(try await document.gallery.cover == ids[2])
        #expect(try await viewCover(document) as? String == ids[2].manifestString)
        _ = try await document.close()
    }
}
