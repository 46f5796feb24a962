import GalleryDocument
import GallerySystem
import GalleryTestSupport
import Testing
@testable import GalleryEditor

/// The desk keeps one document per gallery file, whatever order a page's requests arrive in: a
/// second `GalleryDocument` of the file would find the first one's lock and open for reading only.
@Suite struct DocumentDeskTests {
    let folder: TemporaryDirectory
    let desk: DocumentDesk
    let key: String

    init() throws {
        folder = try TemporaryDirectory()
        let path = try folder.copy(TestPaths.fixture("valid/all.imagegallery"))
        let library = GalleryLibrary(roots: try EditorRoots(paths: [folder.path]))
        desk = DocumentDesk(library: library, events: EditorEvents(), options: DocumentOptions())
        key = GalleryLibrary.key(of: try GalleryFileSystem.resolvedPath(path))
    }

    /// Requests that arrive together (a page's view, its events and its thumbnails) share one
    /// document, and that document holds the lock.
    @Test func requestsArrivingTogetherShareOneEditableDocument() async throws {
        let (desk, key) = (desk, key)
        let documents = try await withThrowingTaskGroup(of: GalleryDocument.self) { group in
            for page in 0 ..< 16 {
                group.addTask { try await desk.document(key, for: "page-\(page % 4)") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(documents.map { ObjectIdentifier($0) }).count == 1)
        #expect(await documents[0].readOnlyReason == nil)
        await desk.closeAll().forEach { Issue.record("\($0)") }
    }

    /// A page that opens the gallery while the last page's document is still closing gets a new
    /// document once the old one has let its lock go, never the closing one or a read-only one.
    @Test func anOpenDuringACloseWaitsForItAndGetsAnEditableDocument() async throws {
        let (desk, key) = (desk, key)
        for round in 0 ..< 8 {
            let first = try await desk.document(key, for: "old-\(round)")
            #expect(await first.readOnlyReason == nil)
            async let closed: Void = desk.pageClosed("old-\(round)")
            async let reopened = desk.document(key, for: "new-\(round)")
            let (_, second) = try await (closed, reopened)
            #expect(await second.state != .closed, "round \(round): the page got the document that was closing")
            let reason = await second.readOnlyReason
            #expect(reason == nil, "round \(round): read only, \(reason ?? "")")
            await desk.pageClosed("new-\(round)")
        }
        await desk.closeAll().forEach { Issue.record("\($0)") }
    }
}
