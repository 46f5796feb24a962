import Foundation
import GallerySystem
import SystemPackage
import Hummingbird
import NIOCore

/// How much the server takes from one request, and for how long it waits on one
/// (Specs/editor.md, section 3).
package struct EditorLimits: Sendable {
    /// A JSON body; a request to any route that takes no file is bounded by it too.
    package static let jsonBytes = 1 << 20
    /// An image uploaded or fetched: `add`'s default `--max-image-bytes`.
    package static let imageBytes = 50_000_000
    /// How long the rest of a refused body is read and dropped before its connection closes.
    static let refusalLinger = TimeAmount.seconds(2)

    /// A file imported (an archive, a comic book, the seed apps' JSON, a gallery) takes at most
    /// this many bytes (`--max-import-bytes`)...
    package var importBytes = 4 << 30
    /// ...and never more than the free space of the folder it is imported into, less this.
    package var freeSpaceMargin = 1 << 30
    /// A connection whose request stops arriving for this long is closed (an event stream,
    /// whose request has arrived whole, is not). Generous: an upload waiting for one of the four
    /// adding slots is not read meanwhile (its body waits in the socket), and must not lose its
    /// connection behind a long drop of large files.
    package var readTimeout: Duration = .seconds(300)

    package init() {}

    /// What an import into `folder` may take now: `importBytes`, or less when the folder's file
    /// system has less than that free beyond the margin. Returns the bound and, when the free
    /// space set it, why.
    func importBytes(into folder: String) -> (bytes: Int, freeSpace: String?) {
        guard let free = try? GalleryFileSystem.availableBytes(on: FilePath(folder)) else { return (importBytes, nil) }
        let room = Int(clamping: free) - freeSpaceMargin
        guard room < importBytes else { return (importBytes, nil) }
        return (max(0, room), "\(Self.megabytes(Int(clamping: free))) free, of which \(Self.megabytes(freeSpaceMargin)) stays free")
    }

    /// The bound on the body of `request`, before the route knows more (an import's free space).
    func bodyBytes(of request: Request) -> (bytes: Int, what: String) {
        let path = request.uri.path
        if path == "/api/import" { return (importBytes, "an import") }
        if path.hasPrefix("/api/documents/"), path.hasSuffix("/images") { return (Self.imageBytes, "an image") }
        return (Self.jsonBytes, "a request")
    }

    /// "50000000 bytes (47.7 MiB)".
    static func megabytes(_ bytes: Int) -> String {
        bytes < 1 << 20 ? "\(bytes) bytes" : "\(bytes) bytes (\((Double(bytes) / 1_048_576 * 10).rounded() / 10) MiB)"
    }
}

extension Request {
    /// The body's length as the request declares it (`Content-Length`), if it does.
    var declaredLength: Int? { headers[.contentLength].flatMap { Int($0) } }

    /// Refuses (413) a body declared longer than `limit`, before a byte of it is read.
    func refuseDeclaredLength(over limit: Int, _ what: String, why: String? = nil) throws {
        guard let declared = declaredLength, declared > limit else { return }
        throw HTTPError(.contentTooLarge, message: "\(what) of \(EditorLimits.megabytes(declared)) is larger than the "
                        + "\(EditorLimits.megabytes(limit)) it may be" + (why.map { " (\($0))" } ?? ""))
    }
}

/// Bounds every request's body: a body declared (`Content-Length`) longer than its route takes is
/// answered 413 before a byte of it is read, and every 413 closes its connection once the answer
/// is out, so that the rest of a refused body is neither read nor waited for. The connection is
/// half-closed first (the answer, then FIN) and closed a moment later: closing it at once, with
/// unread bytes, would reset it and could lose the answer.
struct BodyLimits: RouterMiddleware {
    typealias Context = EditorRequestContext
    let limits: EditorLimits

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let bound = limits.bodyBytes(of: request)
        var response: Response
        do {
            try request.refuseDeclaredLength(over: bound.bytes, "the body of \(bound.what)")
            response = try await next(request, context)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            response = Responses.error(error)
        }
        if response.status == .contentTooLarge { Self.closeAfterAnswer(&response, channel: context.channel) }
        return response
    }

    static func closeAfterAnswer(_ response: inout Response, channel: any Channel) {
        response.headers[.connection] = "close"
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            try await body.write(writer)
            channel.close(mode: .output, promise: nil)
            _ = channel.eventLoop.scheduleTask(in: EditorLimits.refusalLinger) { channel.close(promise: nil) }
        }
    }
}

/// The request context of every route: Hummingbird's, and the connection, which a refusal closes.
struct EditorRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
