import Foundation
import GalleryDocument
import GalleryFormat
import Hummingbird

// The document browser: the galleries of the opened folders, their thumbnails, a new gallery.
extension EditorRoutes {
    struct Listing: Encodable {
        var folders: [String]
        var galleries: [GallerySummary]
    }

    struct NewGallery: Decodable {
        var title: String
        /// Which of the listing's folders; the first when absent.
        var folder: Int?
    }

    struct Rename: Decodable {
        var title: String?
        var fileName: String?
    }

    /// The browser's actions change files no page holds: a gallery open in a page is edited there.
    static func requireClosed(_ key: String, _ state: EditorState) async throws {
        if await state.desk.isOpen(key) {
            throw HTTPError(.conflict, message: "the gallery is open in a page of the editor; close it there first")
        }
    }

    static func addLibrary(to router: Router<BasicRequestContext>, _ state: EditorState) {
        router.get("/api/galleries") { _, _ in
            await answering {
                try Responses.json(Listing(folders: state.library.roots.folders, galleries: await state.library.galleries()))
            }
        }
        router.get("/api/galleries/:key/thumbnail") { _, context in
            await answering {
                let path = try await state.library.path(forKey: try context.parameters.require("key"))
                let png = try GalleryReader(path: path).thumbnail()
                return Responses.bytes(png, type: "image/png", cache: "private, no-cache")
            }
        }
        router.post("/api/galleries/:key/rename") { request, context in
            var request = request
            return await answering {
                let key = try context.parameters.require("key")
                let asked = try await request.decodeJSON(Rename.self)
                try await requireClosed(key, state)
                let summary = try await state.library.rename(key, title: asked.title, fileName: asked.fileName,
                                                             options: state.documentOptions)
                await state.events.broadcast("library", data: await state.library.galleries())
                return try Responses.json(summary)
            }
        }
        router.post("/api/galleries/:key/duplicate") { _, context in
            await answering {
                let summary = try await state.library.duplicate(try context.parameters.require("key"))
                await state.events.broadcast("library", data: await state.library.galleries())
                return try Responses.json(summary, status: .created)
            }
        }
        router.post("/api/galleries/:key/trash") { _, context in
            await answering {
                let key = try context.parameters.require("key")
                try await requireClosed(key, state)
                let trashed = try await state.library.trash(key)
                await state.events.broadcast("library", data: await state.library.galleries())
                return try Responses.json(["trashed": trashed.path, "info": trashed.infoPath])
            }
        }
        router.post("/api/galleries") { request, _ in
            var request = request
            return await answering {
                let asked = try await request.decodeJSON(NewGallery.self)
                let summary = try await state.library.createGallery(title: asked.title, folder: asked.folder ?? 0)
                await state.events.broadcast("library", data: await state.library.galleries())
                return try Responses.json(summary, status: .created)
            }
        }
    }
}
