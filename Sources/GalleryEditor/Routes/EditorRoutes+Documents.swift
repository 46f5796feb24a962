import Foundation
import GalleryDocument
import GalleryFormat
import GalleryMetadata
import Hummingbird

// A gallery open for editing: its view, and every edit, through the document layer.
extension EditorRoutes {
    /// One edit, as the page asks for it. The server checks every field; the page is not trusted.
    struct Edit: Decodable {
        enum Operation: String, Decodable {
            case move, remove, caption, title, undo, redo, save
            /// Settling a conflict: make a version the content, keep the current file, or merge.
            case keepVersion, keepCurrent, merge
            /// Images to another open gallery: moved, or copied with `copy`.
            case transfer
            /// Location, identity or all metadata out of every photo (`scope`), and with `names`
            /// neutral file names: one edit, undone as any other.
            case strip
            /// The image `id` as the gallery's cover; with no id (or null), none chosen: the first
            /// image stands for the gallery again.
            case cover
        }

        var op: Operation
        var id: String?
        var ids: [String]?
        var to: Int?
        var caption: String?
        var title: String?
        var version: String?
        /// `transfer`: the gallery the images go to, and whether they stay here as well.
        var target: String?
        var copy: Bool?
        /// `strip`: "location", "identity" (with location), "all", or "none" with `names`.
        var scope: String?
        var names: Bool?
    }

    /// What an edit has to tell beyond the view: a merge's unsettled points, a strip's removal.
    struct EditOutcome {
        var mergeConflicts: [String]?
        var metadataRemoved: MetadataRemoval?
    }

    /// A piece of a list as the page reads it: members in byte order, as every answer writes them.
    static func pieceJSON(early: Bool, token: String?, from: Int, images: [UInt8], version: Int?, total: Int) -> [UInt8] {
        var body = Array("{".utf8)
        if early { body += Array(#""early":true,"#.utf8) }
        if let token {
            body += Array(#""fileToken":"#.utf8)
            CanonicalJSONWriter.appendString(token, to: &body)
            body.append(0x2C)
        }
        body += Array(#""from":"#.utf8)
        CanonicalJSONWriter.appendInteger(Int64(from), to: &body)
        body += Array(#","images":"#.utf8)
        body += images
        if let version {
            body += Array(#","imagesVersion":"#.utf8)
            CanonicalJSONWriter.appendInteger(Int64(version), to: &body)
        }
        body += Array(#","total":"#.utf8)
        CanonicalJSONWriter.appendInteger(Int64(total), to: &body)
        body.append(0x7D)
        return body
    }

    static func addDocuments(to router: Router<EditorRequestContext>, _ state: EditorState) {
        router.get("/api/documents/:key") { request, context in
            await answering {
                let key = try context.parameters.require("key")
                let page = try request.page
                // `first`: the page's first look, which lays out the whole grid but names only
                // the images of its first screens (DocumentView.windowed(first:)).
                let first = try request.uri.queryParameters["first"].map { try count(String($0), "first", 1 ... 100_000) }
                // `early`: the look kept from an earlier open of the same file will do while
                // the document opens (FirstLooks); the page asks again without it.
                if request.uri.queryParameters["early"] != nil, let first, let look = try await state.desk.earlyLook(key, first: first) {
                    return Responses.json(bytes: look)
                }
                _ = try await state.desk.document(key, for: page)
                return Responses.json(bytes: try await state.desk.view(key, first: first).json)
            }
        }
        // A piece of the list, for a page that opened with a first look:
        // {"fileToken"?, "from", "images", "imagesVersion", "total"} (DocumentDesk.images(_:from:count:)).
        // `early`: from the list kept with the page's early look while the document opens
        // (FirstLooks.KeptList): {"early": true, "fileToken", "from", "images", "total"}, no version.
        router.get("/api/documents/:key/images") { request, context in
            await answering {
                let key = try context.parameters.require("key")
                let from = try count(request.uri.queryParameters["from"].map(String.init), "from", 0 ... 100_000)
                let count = try count(request.uri.queryParameters["count"].map(String.init), "count", 1 ... 20_000)
                if request.uri.queryParameters["early"] != nil, let piece = try await state.desk.earlyImages(key, from: from, count: count) {
                    return Responses.json(bytes: pieceJSON(early: true, token: piece.token, from: piece.from, images: piece.json,
                                                           version: nil, total: piece.total))
                }
                let piece = try await state.desk.images(key, from: from, count: count)
                return Responses.json(bytes: pieceJSON(early: false, token: piece.token, from: piece.images.startIndex,
                                                       images: DocumentView.imagesJSON(piece.images), version: piece.version,
                                                       total: piece.total))
            }
        }
        router.post("/api/documents/:key/edits") { request, context in
            var request = request
            return await answering {
                let key = try context.parameters.require("key")
                let document = try await state.desk.document(key, for: try request.page)
                let edit = try await request.decodeJSON(Edit.self)
                var outcome = EditOutcome()
                if edit.op == .transfer {
                    let target = try required(edit.target, "target")
                    let destination = try await state.desk.document(target, for: try request.page)
                    let ids = try (edit.ids ?? []).map(imageID)
                    guard !ids.isEmpty else { throw EditorError.badRequest("transfer needs the ids of the images") }
                    _ = try await document.transferImages(ids, to: destination, at: try await clamped(edit.to, destination),
                                                          copy: edit.copy ?? false)
                    await state.desk.publish(target)
                } else {
                    outcome = try await apply(edit, to: document)
                }
                await state.desk.publish(key)
                var view = try await state.desk.view(key)
                view.mergeConflicts = outcome.mergeConflicts
                view.metadataRemoved = outcome.metadataRemoved
                return Responses.json(bytes: view.json)
            }
        }
        router.get("/api/documents/:key/versions/:id/thumbnail") { _, context in
            await answering {
                let document = try await state.desk.openDocument(try context.parameters.require("key"))
                let id = try imageID(context.parameters.get("id"))
                guard let version = try await document.unresolvedVersions().first(where: { $0.id == id }) else {
                    throw EditorError.noSuchGallery(id.uuidString.lowercased())
                }
                return Responses.bytes(try GalleryReader(path: version.file).thumbnail(), type: "image/png")
            }
        }
        router.post("/api/documents/:key/close") { request, context in
            await answering {
                let key = try context.parameters.require("key")
                await state.desk.pageClosed(try request.page, only: key)
                return try Responses.json(["closed": key])
            }
        }
    }

    /// Applies one edit; a merge returns what it could not settle, a strip what it removed.
    static func apply(_ edit: Edit, to document: GalleryDocument) async throws -> EditOutcome {
        switch edit.op {
        case .move:
            try await document.moveImage(try imageID(edit.id), to: try required(edit.to, "to"))
        case .remove:
            let ids = try (edit.ids ?? edit.id.map { [$0] } ?? []).map(imageID)
            guard !ids.isEmpty else { throw EditorError.badRequest("remove needs the ids of the images") }
            try await document.removeImages(ids)
        case .caption:
            let caption = edit.caption.flatMap { $0.isEmpty ? nil : $0 }
            try await document.setCaption(caption, of: try imageID(edit.id))
        case .title:
            try await document.setTitle(try required(edit.title, "title"))
        case .cover:
            try await document.setCover(try edit.id.map { try imageID($0) })
        case .undo:
            try await document.undo()
        case .redo:
            try await document.redo()
        case .save:
            try await document.save()
        case .keepVersion:
            let id = try imageID(edit.version)
            guard let version = try await document.unresolvedVersions().first(where: { $0.id == id }) else {
                throw EditorError.badRequest("no version \(id.uuidString.lowercased()) is waiting for a decision")
            }
            try await document.replace(with: version)
            for other in try await document.unresolvedVersions() { try await document.markResolved(other) }
        case .keepCurrent:
            for other in try await document.unresolvedVersions() { try await document.markResolved(other) }
        case .merge:
            return EditOutcome(mergeConflicts: try await document.mergeUnresolvedVersions().map(\.description))
        case .transfer:
            throw EditorError.badRequest("a transfer names its target gallery")
        case .strip:
            let scope = try metadataScope(edit.scope)
            let names = edit.names ?? false
            guard !scope.isEmpty || names else { throw EditorError.badRequest("a strip removes something: scope \"none\" needs names") }
            let report = try await document.stripMetadata(scope, neutralNames: names)
            return EditOutcome(metadataRemoved: MetadataRemoval(report, scope: scope, imageCount: try await document.gallery.images.count))
        }
        return EditOutcome()
    }

    /// The scope a request names, by `MetadataScope`'s words only; anything else is refused.
    static func metadataScope(_ text: String?) throws -> MetadataScope {
        guard let text, let scope = MetadataScope(option: text) else {
            throw EditorError.badRequest("the request names no scope: \"location\", \"identity\", \"all\" or \"none\"")
        }
        return scope
    }

    /// The number a query item `name` gives, within `range`.
    static func count(_ text: String?, _ name: String, _ range: ClosedRange<Int>) throws -> Int {
        guard let text else { throw EditorError.badRequest("the request needs \(name)") }
        guard let value = Int(text), range.contains(value) else {
            throw EditorError.badRequest("\(name) must be a number from \(range.lowerBound) to \(range.upperBound), not \"\(text.prefix(40))\"")
        }
        return value
    }

    static func imageID(_ text: String?) throws -> UUID {
        guard let text, let id = UUID(uuidString: text) else { throw EditorError.badRequest("the edit does not name an image by its id") }
        return id
    }

    static func required<Value>(_ value: Value?, _ name: String) throws -> Value {
        guard let value else { throw EditorError.badRequest("the edit needs \"\(name)\"") }
        return value
    }
}
