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
        addScreenful(to: router, state)
        addPrivacy(to: router, state)
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

    /// Every file of `FrontEnd/`, which Package.swift compiles into the binary as a whole folder
    /// (`.embedInCode("FrontEnd")`): this table is the one list of them, by name. A test
    /// (FrontEndFilesTests) holds it to the folder, file for file and byte for byte, and every
    /// module's imports to the files served, so a module added to the folder and not here, or
    /// named here and not in the folder, fails it. The page's script is ES modules: index.html
    /// loads editor-start.js, which imports the others.
    static let frontEndFiles: [(name: String, bytes: [UInt8])] = [
        ("index.html", PackageResources.index_html),
        ("editor.css", PackageResources.editor_css),
        ("editor.js", PackageResources.editor_js),
        ("editor-browser.js", PackageResources.editor_browser_js),
        ("editor-layout.js", PackageResources.editor_layout_js),
        ("editor-grid.js", PackageResources.editor_grid_js),
        ("editor-keys.js", PackageResources.editor_keys_js),
        ("editor-drops.js", PackageResources.editor_drops_js),
        ("editor-detail.js", PackageResources.editor_detail_js),
        ("editor-touch.js", PackageResources.editor_touch_js),
        ("editor-privacy.js", PackageResources.editor_privacy_js),
        ("editor-start.js", PackageResources.editor_start_js),
        // Loaded by import() on the first Play, never by the first paint (FrontEndFilesTests).
        ("editor-slideshow.js", PackageResources.editor_slideshow_js),
        ("editor-slideshow.css", PackageResources.editor_slideshow_css),
        // Not served at a path of its own: AccessGuard answers a refused request with it.
        ("refused.html", PackageResources.refused_html),
    ]

    /// Where each served file of `frontEndFiles` is: index.html at `/`, the others at `/name`.
    static func frontEndPath(_ name: String) -> String? {
        switch name {
        case "index.html": "/"
        case "refused.html": nil
        default: "/" + name
        }
    }

    /// The content type of a front-end file, by its extension.
    static func frontEndType(_ name: String) -> String {
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        return "application/octet-stream"
    }

    static func addPages(to router: Router<EditorRequestContext>) {
        for (name, bytes) in frontEndFiles {
            guard let path = frontEndPath(name) else { continue }
            let type = frontEndType(name)
            router.get(RouterPath(path)) { _, _ in Responses.bytes(bytes, type: type) }
        }
    }
}
