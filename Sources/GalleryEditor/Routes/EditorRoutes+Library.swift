import Foundation
import GalleryConvert
import GalleryDocument
import GalleryFormat
import GallerySystem
import Hummingbird
import SystemPackage

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

    static func addLibrary(to router: Router<EditorRequestContext>, _ state: EditorState) {
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
        router.post("/api/import") { request, _ in
            await answering {
                let folderIndex = request.uri.queryParameters["folder"].flatMap { Int($0) } ?? 0
                let name = String(request.uri.queryParameters["name"] ?? "import")
                let folder = try state.library.folder(folderIndex)
                // Refused before a byte is read when it says it is too large; else bounded as it arrives.
                let limit = state.limits.importBytes(into: folder)
                try request.refuseDeclaredLength(over: limit.bytes, name, why: limit.freeSpace)
                // The upload goes to disk beside its destination, never into memory: an archive
                // may be large. The spool is private (mkdtemp) and removed whatever happens.
                let spool = try GalleryFileSystem.makeTemporaryFolder(FilePath(folder).appending(".imagegallery-import-XXXXXX"))
                defer { try? GalleryFileSystem.removeTree(spool) }
                let upload = spool.appending("upload").string
                try await receive(request.body, to: upload, limit: limit.bytes, name: name, why: limit.freeSpace)
                let images = spool.appending("images")
                try GalleryFileSystem.makeFolder(images)
                let library = state.library
                let (written, notes) = try await withCheckedThrowingContinuation { continuation in
                    // libarchive and the fetch helper block: off the cooperative pool.
                    DispatchQueue.global().async {
                        continuation.resume(with: Result {
                            do {
                                return try library.importFile(upload, named: name, spool: images.string, folder: folderIndex)
                            } catch let error as ConversionError where error.kind != .cannotWrite {
                                // Named as the user named the file, not by the spool it was read from.
                                throw EditorError.badRequest("\(name): " + (error.entry.map { "\($0): " } ?? "") + error.message)
                            }
                        })
                    }
                }
                let keys = Set(written.map(GalleryLibrary.key(of:)))
                let galleries = await state.library.galleries()
                await state.events.broadcast("library", data: galleries)
                return try Responses.json(GalleryLibrary.Imported(galleries: galleries.filter { keys.contains($0.key) }, notes: notes),
                                          status: .created)
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

extension EditorRoutes {
    /// Writes a request body to `path` as it arrives, refusing it past `limit` bytes.
    static func receive(_ body: RequestBody, to path: String, limit: Int, name: String, why: String? = nil) async throws {
        guard let file = try? GalleryFile.create(FilePath(path), permissions: .ownerReadWrite) else {
            throw EditorError.badRequest("\(path): cannot write the upload")
        }
        var received = 0
        for try await buffer in body {
            received += buffer.readableBytes
            guard received <= limit else {
                throw HTTPError(.contentTooLarge, message: "\(name): larger than the \(EditorLimits.megabytes(limit)) an import may be"
                                + (why.map { " (\($0))" } ?? ""))
            }
            let offset = UInt64(received - buffer.readableBytes)
            try buffer.withUnsafeReadableBytes { try file.write($0, at: offset) }
        }
    }
}
