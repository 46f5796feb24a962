import Foundation
import GalleryDocument
import GalleryPrograms
import GalleryFormat
import GallerySystem
import SystemPackage
import Hummingbird

// Images dropped on a gallery: files from the file manager (uploaded as they are) and links
// from other pages (fetched through imagegallery-fetch and its cache, with `add`'s rules).
extension EditorRoutes {
    /// The largest image taken, uploaded or fetched: `add`'s default `--max-image-bytes`.
    static let maximumImageBytes = EditorLimits.imageBytes
    /// Uploads and fetches under way at once; more wait their turn, so that memory stays
    /// bounded (each holds at most one image) however many drops a page makes.
    static let addingSlots = Slots(count: 4)

    struct FetchRequest: Decodable {
        var url: String
        var at: Int?
    }

    static func addAdding(to router: Router<EditorRequestContext>, _ state: EditorState) {
        router.post("/api/documents/:key/images") { request, context in
            var request = request
            return await answering {
                let key = try context.parameters.require("key")
                let name = request.uri.queryParameters["name"].map(String.init)
                try request.refuseDeclaredLength(over: maximumImageBytes, name ?? "the file")
                let document = try await state.desk.document(key, for: try request.page)
                let at = request.uri.queryParameters["at"].flatMap { Int($0) }
                await addingSlots.acquire()
                defer { Task { await addingSlots.release() } }
                let body: ByteBuffer
                do {
                    body = try await request.collectBody(upTo: maximumImageBytes)
                } catch {
                    throw HTTPError(.contentTooLarge, message: "\(name ?? "the file"): larger than the \(maximumImageBytes / 1_000_000) MB an image may be")
                }
                let bytes = Array(body.readableBytesView)
                let image = try await document.insertImage(data: bytes, filename: name, at: try await clamped(at, document))
                await state.desk.publish(key)
                return try Responses.json(Added(image: image.id.uuidString.lowercased(), document: try await state.desk.view(key)))
            }
        }
        router.post("/api/documents/:key/fetch") { request, context in
            var request = request
            return await answering {
                let key = try context.parameters.require("key")
                let document = try await state.desk.document(key, for: try request.page)
                let asked = try await request.decodeJSON(FetchRequest.self, limit: 64 << 10)
                guard FetchHelper.looksLikeURL(asked.url) else { throw EditorError.badRequest("\(asked.url): not a URL") }
                await addingSlots.acquire()
                defer { Task { await addingSlots.release() } }
                let (bytes, spooled) = try await fetch(asked.url)
                let image = try await document.insertImage(data: bytes, filename: spooled.image.filename, source: asked.url,
                                                           at: try await clamped(asked.at, document))
                await state.desk.publish(key)
                return try Responses.json(Added(image: image.id.uuidString.lowercased(), document: try await state.desk.view(key)))
            }
        }
    }

    struct Added: Encodable {
        var image: String
        var document: DocumentView
    }

    /// A drop position still inside the gallery: other drops and edits may have landed since
    /// the page computed it.
    static func clamped(_ at: Int?, _ document: GalleryDocument) async throws -> Int? {
        guard let at else { return nil }
        return max(0, min(at, try await document.gallery.images.count))
    }

    /// The image at `url`, fetched by the helper (off the cooperative pool: it waits on a
    /// process) and read from its spool, which is then removed.
    static func fetch(_ url: String) async throws -> ([UInt8], SpooledImage) {
        let request = FetchHelperRequest(cachePolicy: "default", jobs: 1, timeoutSeconds: 60, connectTimeoutSeconds: 10,
                                         retries: 3, maxImageBytes: maximumImageBytes, urls: [url])
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    let (run, status) = try FetchHelperClient.fetch(request)
                    defer { run.removeSpool() }
                    guard status == 0 else {
                        throw EditorError.badRequest("\(url): the fetch helper failed (status \(status)); see the editor's log")
                    }
                    switch run[url] {
                    case .success(let image):
                        guard let data = try? GalleryFileSystem.contents(of: FilePath(image.image.path)) else {
                            throw EditorError.badRequest("\(url): the fetched image could not be read back from \(image.image.path)")
                        }
                        return (data, image)
                    case .failure(let failure):
                        throw EditorError.badRequest(failure.description)
                    }
                })
            }
        }
    }
}
