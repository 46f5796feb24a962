import Foundation
import GalleryDocument
import GalleryFormat
import GalleryMetadata
import Hummingbird

// Privacy (issue 32): what the photos of an open gallery carry, read from their bytes on each
// request (never from the manifest), and a copy of the gallery to share without it. Removing
// it from the gallery itself is an edit (`strip`, EditorRoutes+Documents).
extension EditorRoutes {
    /// A share, as the page asks for it: strings the server checks, never a path or a name.
    struct ShareRequest: Decodable {
        /// "gallery" or "web".
        var form: String
        /// "location", "identity" (with location), "all" or "none".
        var scope: String
    }

    static func addPrivacy(to router: Router<EditorRequestContext>, _ state: EditorState) {
        router.get("/api/documents/:key/privacy") { request, context in
            await answering {
                let key = try context.parameters.require("key")
                let document = try await state.desk.document(key, for: try request.page)
                let found = try await state.privacy.privacy(of: document)
                return Responses.json(bytes: PrivacyReport(gallery: found.gallery, privacy: found.privacy).json)
            }
        }
        router.post("/api/documents/:key/share") { request, context in
            var request = request
            return await answering {
                let key = try context.parameters.require("key")
                let document = try await state.desk.document(key, for: try request.page)
                let asked = try await request.decodeJSON(ShareRequest.self)
                guard let form = GalleryShare.Form(rawValue: asked.form) else {
                    throw EditorError.badRequest("the request names no form: \"gallery\" or \"web\"")
                }
                let scope = try metadataScope(asked.scope)
                let source = try await savedForSharing(document, key: key, state)
                let outcome: GalleryShare.Outcome
                switch form {
                case .gallery:
                    outcome = try await GalleryShare.galleryCopy(of: source, scope: scope, options: state.documentOptions)
                    await state.events.broadcast("library", data: await state.library.galleries())
                case .web:
                    let found = try await state.privacy.privacy(of: document)
                    outcome = try await GalleryShare.webCopy(of: source, scope: scope, gallery: found.gallery, privacy: found.privacy)
                }
                return try Responses.json(outcome)
            }
        }
    }

    /// The document saved, so that its file is what the page shows; the file's path. A save
    /// that found someone else's change keeps ours as a version and shows theirs: nothing is
    /// shared until the user has seen which one is the gallery.
    static func savedForSharing(_ document: GalleryDocument, key: String, _ state: EditorState) async throws -> String {
        if await document.hasUnsavedChanges {
            let saved = try await document.save()
            await state.desk.publish(key)
            if case .keptAsVersion = saved {
                throw HTTPError(.conflict, message: "Someone else changed this gallery while it was being saved; "
                                + "decide which version to keep, then share it")
            }
        }
        return document.path
    }
}
