import Foundation
import GalleryDocument
import GalleryFormat
import GalleryImaging
import Hummingbird

// The first screen of a gallery's thumbnails in one answer. A browser asks a server for six
// things at a time, so a screen of thirty photos, each its own request, took five round trips
// on two busy cores, 100–150 ms of a first paint that is 0.5 s at most. The answer holds what
// the cache holds, and what it lacks where making it is cheap (small pictures, on both cores:
// a cold cache's first screen of a 100,000-image gallery came 130–150 ms after the answer when
// each went alone). One that costs more goes alone, as before, so that a screen of new phone
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
                let found = try await state.desk.screenImages(key, of: ids)
                let thumbnails = await screenThumbnails(ids, found: found, thumbnails: state.thumbnails)
                return Responses.bytes(screenfulJSON(thumbnails), type: "application/json", cache: "no-store")
            }
        }
    }

    /// The grid thumbnail of each of `ids`, in order: the cache's, else made where that is cheap
    /// and the document is open (`madeForScreen`), else nil.
    static func screenThumbnails(_ ids: [UUID], found: DocumentDesk.ScreenImages, thumbnails: ImageThumbnails) async -> [ImageThumbnails.Rendition?] {
        var answer = ids.map { id in found.blob(of: id).flatMap { thumbnails.cachedGrid(sha256: $0.description) } }
        guard case .opened(let document, let images) = found else { return answer }
        let lacking = ids.indices.compactMap { index in answer[index] == nil ? images[ids[index]].map { (index, $0) } : nil }
        for (index, made) in await madeForScreen(lacking, of: document, thumbnails: thumbnails) { answer[index] = made }
        return answer
    }

    /// The most decoding a first screen's answer waits for, as `DecodeCost` reckons it, in all
    /// and for any one picture: thirty of the 200-pixel photos of the 100,000-image benchmark are
    /// 6 ms; one 12 MP phone photo is 90 ms and goes alone.
    static let screenMaking = (total: 200_000_000.0, each: 10_000_000.0)

    /// The grid thumbnails of `images` (each with its place in the answer) that are cheap to make,
    /// made on every core at once (ImageThumbnails' slots) and kept in the cache as any other.
    /// One that fails is left out: the page asks for it alone and shows the error that gives.
    static func madeForScreen(_ images: [(Int, GalleryImage)], of document: GalleryDocument, thumbnails: ImageThumbnails,
                              budget: (total: Double, each: Double) = screenMaking) async -> [(Int, ImageThumbnails.Rendition)] {
        var chosen: [(Int, GalleryImage)] = []
        var total = 0.0
        for (index, image) in images {
            let cost = DecodeCost.nanoseconds(image.mediaType, pixels: image.width * image.height, bytes: Int(clamping: image.byteSize))
            guard cost <= budget.each, total + cost <= budget.total else { continue }
            total += cost
            chosen.append((index, image))
        }
        return await withTaskGroup(of: (Int, ImageThumbnails.Rendition)?.self) { group in
            for (index, image) in chosen {
                group.addTask {
                    let made = try? await thumbnails.grid(sha256: image.sha256.description) { try await document.imageData(of: image) }
                    return made.map { (index, $0) }
                }
            }
            return await group.reduce(into: []) { if let made = $1 { $0.append(made) } }
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
