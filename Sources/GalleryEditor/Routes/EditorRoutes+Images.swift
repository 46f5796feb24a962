import Foundation
import GalleryDocument
import GalleryFormat
import Hummingbird

// An open document's images: the original bytes (to show, or to download under the image's
// own name) and the grid's renditions.
extension EditorRoutes {
    static func addImages(to router: Router<EditorRequestContext>, _ state: EditorState) {
        router.get("/api/documents/:key/images/:id") { request, context in
            await answering {
                let (document, image) = try await openImage(state, context)
                let bytes = try await document.imageData(of: image)
                // The type the format checked when the image came in, and nosniff (AccessGuard):
                // the browser never guesses from the bytes.
                let download = request.uri.queryParameters["download"] != nil
                return Responses.bytes(bytes, type: image.mediaType.rawValue, cache: "private, max-age=31536000, immutable",
                                       disposition: download ? Responses.attachment(filename: downloadName(of: image)) : nil)
            }
        }
        router.get("/api/documents/:key/images/:id/display") { _, context in
            await answering {
                let (document, image) = try await openImage(state, context)
                if image.mediaType.browsersShow { return try await shownOriginal(document, image) }
                // A type browsers cannot show is shown through a rendition; downloads stay the original.
                return try await shownRendition(state, document, image, longSide: ImageThumbnails.displayLongSide)
            }
        }
        // The slideshow's picture for a screen `side` device pixels long (ImageThumbnails+Slides):
        // rounded up to a few sizes, so renditions cache well, and never larger than the original.
        router.get("/api/documents/:key/images/:id/rendition") { request, context in
            await answering {
                let side = try ImageThumbnails.requestedSlideSide(request.uri.queryParameters["side"].map(String.init))
                let (document, image) = try await openImage(state, context)
                let source = ImageThumbnails.slide(requested: side, originalLongSide: max(image.width, image.height),
                                                   browsersShow: image.mediaType.browsersShow)
                guard case .rendition(let longSide) = source else { return try await shownOriginal(document, image) }
                return try await shownRendition(state, document, image, longSide: longSide)
            }
        }
        router.get("/api/documents/:key/images/:id/thumbnail") { _, context in
            await answering {
                // Found by the list kept with an early look while the document opens (a page
                // scrolling at once): the open is left to the page's own request.
                if let blob = await state.desk.earlyBlob(try context.parameters.require("key"), of: try imageID(context.parameters.get("id"))),
                   let thumbnail = state.thumbnails.cachedGrid(sha256: blob.description) {
                    return Responses.bytes(thumbnail.bytes, type: thumbnail.mediaType, cache: "private, max-age=31536000, immutable")
                }
                let (document, image) = try await openImage(state, context)
                let thumbnail = try await state.thumbnails.grid(sha256: image.sha256.description) {
                    try await document.imageData(of: image)
                }
                return Responses.bytes(thumbnail.bytes, type: thumbnail.mediaType, cache: "private, max-age=31536000, immutable")
            }
        }
    }

    /// The original as the detail view and the slideshow show it. Named inline, so that the
    /// picture dragged out of the page is a file under the image's own name in Firefox and
    /// Chromium alike (their own drag of an image).
    static func shownOriginal(_ document: GalleryDocument, _ image: GalleryImage) async throws -> Response {
        Responses.bytes(try await document.imageData(of: image), type: image.mediaType.rawValue,
                        cache: "private, max-age=31536000, immutable", disposition: Responses.inline(filename: downloadName(of: image)))
    }

    /// A rendition at most `longSide` on its longer side, in sRGB, from the thumbnails' cache,
    /// named for what it is (NAME.jpg or NAME.png).
    static func shownRendition(_ state: EditorState, _ document: GalleryDocument, _ image: GalleryImage,
                               longSide: Int) async throws -> Response {
        let shown = try await state.thumbnails.rendition(sha256: image.sha256.description, longSide: longSide) {
            try await document.imageData(of: image)
        }
        return Responses.bytes(shown.bytes, type: shown.mediaType, cache: "private, max-age=31536000, immutable",
                               disposition: Responses.inline(filename: renditionName(of: image, type: shown.mediaType)))
    }

    /// The image `:id` of the open document `:key`. Images are served only from documents a
    /// page has open, which are files of the opened folders.
    static func openImage(_ state: EditorState, _ context: EditorRequestContext) async throws -> (GalleryDocument, GalleryImage) {
        let key = try context.parameters.require("key")
        let id = try imageID(context.parameters.get("id"))
        let document = try await state.desk.openDocument(key)
        guard let image = try await document.gallery.images.first(where: { $0.id == id }) else {
            throw DocumentError(.noSuchImage, path: document.path, "no image has the id \(id.uuidString.lowercased())")
        }
        return (document, image)
    }

    /// The name a download gets: the image's own, else one made from its id and type.
    static func downloadName(of image: GalleryImage) -> String {
        image.filename ?? (image.id.uuidString.lowercased() + "." + image.mediaType.fileExtension)
    }

    /// The name of an image's rendition: its download name with the rendition's extension.
    static func renditionName(of image: GalleryImage, type: String) -> String {
        let name = downloadName(of: image)
        let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
        return stem + (type == "image/png" ? ".png" : ".jpg")
    }
}
