import Foundation
import GalleryDocument
import GalleryFormat
import Hummingbird

/// The editor's HTTP interface (Specs/editor.md): the page's files, the folder listing, the
/// documents and their images, and the event stream. Every route sits behind `AccessGuard`.
enum EditorRoutes {
    static func router(_ state: EditorState, landing: @escaping @Sendable () -> String) -> Router<EditorRequestContext> {
        let router = Router(context: EditorRequestContext.self)
        router.add(middleware: AccessGuard(access: state.access, landing: landing))
        router.add(middleware: BodyLimits(limits: state.limits))
        addPages(to: router)
        addLibrary(to: router, state)
        addDocuments(to: router, state)
        addImages(to: router, state)
        addAdding(to: router, state)
        addEvents(to: router, state)
        return router
    }

    /// Runs `body`, answering its errors as `{"error": ...}` with a fitting status.
    static func answering(_ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch {
            return Responses.error(error)
        }
    }

    // MARK: The page

    static func addPages(to router: Router<EditorRequestContext>) {
        let files: [(String, [UInt8], String)] = [
            ("/", PackageResources.index_html, "text/html; charset=utf-8"),
            // The page's script, one file per part of the page (index.html loads them in order).
            ("/editor.js", PackageResources.editor_js, "text/javascript; charset=utf-8"),
            ("/editor-browser.js", PackageResources.editor_browser_js, "text/javascript; charset=utf-8"),
            ("/editor-grid.js", PackageResources.editor_grid_js, "text/javascript; charset=utf-8"),
            ("/editor-keys.js", PackageResources.editor_keys_js, "text/javascript; charset=utf-8"),
            ("/editor-drops.js", PackageResources.editor_drops_js, "text/javascript; charset=utf-8"),
            ("/editor-detail.js", PackageResources.editor_detail_js, "text/javascript; charset=utf-8"),
            ("/editor-start.js", PackageResources.editor_start_js, "text/javascript; charset=utf-8"),
            ("/editor.css", PackageResources.editor_css, "text/css; charset=utf-8"),
        ]
        for (path, bytes, type) in files {
            router.get(RouterPath(path)) { _, _ in Responses.bytes(bytes, type: type) }
        }
    }
}
