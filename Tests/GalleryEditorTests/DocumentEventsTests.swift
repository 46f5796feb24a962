import Foundation
import GalleryDocument
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing
@testable import GalleryEditor

/// The desk's events leave out a list of images the pages have had (issue 34: at 100,000 images
/// each list is 12 MB, and a save sent it twice, at its start and its end), and name it by a
/// version the page matches against the view it holds.
@Suite struct DocumentEventsTests {
    let folder: TemporaryDirectory
    let events = EditorEvents()
    let desk: DocumentDesk
    let key: String

    init() throws {
        folder = try TemporaryDirectory()
        let path = try folder.copy(TestPaths.fixture("valid/all.imagegallery"))
        desk = DocumentDesk(library: GalleryLibrary(roots: try EditorRoots(paths: [folder.path])), events: events,
                            options: DocumentOptions())
        key = GalleryLibrary.key(of: try GalleryFileSystem.resolvedPath(FilePath(path)).string)
    }

    /// The next `document` event's view, as the page parses it.
    static func nextView(_ frames: inout AsyncStream<String>.Iterator) async throws -> [String: Any] {
        while let frame = await frames.next() {
            guard frame.hasPrefix("event: document\ndata: ") else { continue }
            let data = frame.dropFirst("event: document\ndata: ".count).dropLast(2)
            return try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        }
        throw CancellationError()
    }

    @Test func eventsLeaveOutAListThePagesHaveHadAndNameIt() async throws {
        var frames = await events.connect(page: "page").makeAsyncIterator()
        let document = try await desk.document(key, for: "page")
        let opened = try await desk.view(key)  // the page's first view, with its list
        let ids = try await document.gallery.images.map(\.id)

        // A move: the event carries the new list, under a version of its own.
        try await document.moveImage(ids[ids.count - 1], to: 0)
        await desk.publish(key)
        let moved = try await Self.nextView(&frames)
        let movedImages = try #require(moved["images"] as? [[String: Any]], "a new list is sent")
        #expect(movedImages.compactMap { $0["id"] as? String } == ([ids[ids.count - 1]] + ids.dropLast()).map(\.manifestString))
        let version = try #require(moved["imagesVersion"] as? Int)
        #expect(version != opened.imagesVersion)

        // A title and a save move no image: their events name the list sent before and leave it out.
        try await document.setTitle("A title of its own")
        await desk.publish(key)
        let titled = try await Self.nextView(&frames)
        #expect(titled["images"] == nil && titled["imagesVersion"] as? Int == version && titled["title"] as? String == "A title of its own")
        try await document.save()
        var saved: [String: Any] = [:]
        while saved["saving"] as? Bool != false || saved["edited"] as? Bool != false { saved = try await Self.nextView(&frames) }
        #expect(saved["images"] == nil && saved["imagesVersion"] as? Int == version)

        // The view a page asks for holds the list, under the same version.
        let asked = try await desk.view(key)
        #expect(asked.imagesVersion == version)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(asked.json)) as? [String: Any])
        #expect((json["images"] as? [[String: Any]])?.count == ids.count)

        // Undos back to the first order: the title's event leaves the list out, the move's sends
        // the first order, a list the events have not sent last, under a new version.
        try await document.undo()
        try await document.undo()
        await desk.publish(key)
        var undone = try await Self.nextView(&frames)
        for _ in 0 ..< 8 where undone["imagesVersion"] as? Int == version {
            #expect(undone["images"] == nil)
            undone = try await Self.nextView(&frames)
        }
        let undoneImages = try #require(undone["images"] as? [[String: Any]], "the first order is sent")
        #expect(undoneImages.compactMap { $0["id"] as? String } == ids.map(\.manifestString))
        #expect(undone["imagesVersion"] as? Int != version)
        await desk.closeAll().forEach { Issue.record("\($0)") }
    }
}
