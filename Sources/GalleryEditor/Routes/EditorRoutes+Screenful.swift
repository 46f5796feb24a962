import Foundation
import GalleryDocument
import GalleryFormat
import Hummingbird

// The first screen of a gallery's thumbnails in one answer. A browser asks a server for six
// things at a time, so a screen of thirty photos, each its own request, took five round trips
// on two busy cores, 100–150 ms of a first paint that is 0.5 s at most. Only thumbnails the
// cache holds are sent: one that has to be made goes alone, as before, so that a screen of new
// photos still fills in one by one instead of waiting for the slowest.
extension EditorRoutes {
    /// The most ids one request may name: a tall window at the smallest rows shows about 150.
    static let screenfulLimit = 200

    static func addScreenful(to router: Router<EditorRequestContext>, _ state: EditorState) {
        // GET /api/documents/:key/thumbnails?ids=ID,ID,…: a JSON array, for each id in order its
        // thumbnail as a data: URL, or null where the cache does not hold it (the page asks for
        // that one alone). Data URLs, not blobs: Chromium registers each blob with its browser
        // process, which cost more than the requests saved.
        router.get("/api/documents/:key/thumbnails") { request, context in
            await answering {
                let key = try context.parameters.require("key")
                let ids = try screenfulIDs(request.uri.queryParameters["ids"].map(String.init))
                // From the early look while the document opens: the first screen is asked for then.
                let blobs = try await state.desk.blobs(key, of: ids)
                let thumbnails = ids.map { id in blobs[id].flatMap { state.thumbnails.cachedGrid(sha256: $0.description) } }
                return Responses.bytes(screenfulJSON(thumbnails), type: "application/json", cache: "no-store")
            }
        }
    }

    /// The ids of `ids=`: comma-separated, 1 to `screenfulLimit` of them.
    static func screenfulIDs(_ text: String?) throws -> [UUID] {
        guard let text, !text.isEmpty else { throw EditorError.badRequest("the request names no image (ids=ID,ID,…)") }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= screenfulLimit else {
            throw EditorError.badRequest("the request names \(parts.count) images; at most \(screenfulLimit) at once")
        }
        return try parts.map { part in
            guard let id = UUID(uuidString: String(part)) else { throw EditorError.badRequest("\"\(part.prefix(40))\" is not an image's id") }
            return id
        }
    }

    /// `[<data: URL or null>, …]`. Base64 and a media type hold no character JSON escapes.
    static func screenfulJSON(_ thumbnails: [ImageThumbnails.Rendition?]) -> [UInt8] {
        var body: [UInt8] = [0x5B]
        for (index, thumbnail) in thumbnails.enumerated() {
            if index > 0 { body.append(0x2C) }
            guard let thumbnail else { body += Array("null".utf8); continue }
            body += Array("\"data:\(thumbnail.mediaType);base64,".utf8)
            body += Array(Data(thumbnail.bytes).base64EncodedString().utf8)
            body.append(0x22)
        }
        body.append(0x5D)
        return body
    }
}
