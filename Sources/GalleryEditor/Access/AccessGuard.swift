import Foundation
import GalleryFormat
import HTTPTypes
import Hummingbird

/// Every request passes here first; nothing behind it runs for a request that fails a check.
///
/// In order: the `Host` must name this server on loopback (DNS rebinding); `/open` trades a
/// launch key for the session cookie; every other request needs the cookie; and a request that
/// changes anything needs an `Origin` of this server as well (cross-site forms and fetches). Every
/// response carries the strict content-security policy and `nosniff`.
struct AccessGuard<Context: RequestContext>: RouterMiddleware {
    let access: EditorAccess
    /// Where `/open` sends the page: the browser, or the one gallery that was asked for.
    let landing: @Sendable () -> String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await checked(request, context: context, next: next)
        Self.addSecurityHeaders(to: &response.headers)
        return response
    }

    private func checked(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard access.allowsHost(request.head.authority) else {
            return Self.refusal(.misdirectedRequest, "This server answers only to 127.0.0.1:\(access.port), [::1]:\(access.port) and localhost:\(access.port).")
        }
        if request.uri.path == "/open" {
            let hasSession = access.hasSession(cookieHeader: request.headers[values: .cookie].joined(separator: "; "))
            // A page that already has the session (a reload of an old link) just goes on.
            guard request.method == .get, hasSession || request.uri.queryParameters["key"].map({ access.redeem(String($0)) }) == true else {
                return Self.refusal(.forbidden, "This link has been used already or is not valid. Run imagegallery edit again for a new one.")
            }
            var headers = HTTPFields()
            headers[.setCookie] = access.sessionCookie
            headers[.location] = landing()
            headers[.cacheControl] = "no-store"
            return Response(status: .seeOther, headers: headers)
        }
        guard access.hasSession(cookieHeader: request.headers[values: .cookie].joined(separator: "; ")) else {
            return Self.refusal(.forbidden, "Open the editor with the link that imagegallery edit prints or opens.")
        }
        if request.method != .get && request.method != .head {
            let host = request.head.authority ?? ""
            guard request.headers[values: .origin] == ["http://" + host] else {
                return Self.refusal(.forbidden, "A change must come from the editor's own page.")
            }
        }
        return try await next(request, context)
    }

    static func addSecurityHeaders(to headers: inout HTTPFields) {
        for (name, value) in SecurityHeaders.all { headers[name] = value }
        if headers[.cacheControl] == nil { headers[.cacheControl] = "no-store" }
    }

    /// A refusal the user can read in the browser: a fixed page, with the reason as plain text.
    static func refusal(_ status: HTTPResponse.Status, _ reason: String) -> Response {
        let page = String(decoding: PackageResources.refused_html, as: UTF8.self)
            .replacingOccurrences(of: "{{reason}}", with: MarkupText.escape(reason, for: .html))
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }
}

/// What every response of the editor carries.
enum SecurityHeaders {
    /// No inline script, no eval, nothing from another origin; not framed.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
        + "connect-src 'self'; font-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

    static let all: [(HTTPField.Name, String)] = [
        (.contentSecurityPolicy, contentSecurityPolicy),
        (.xContentTypeOptions, "nosniff"),
        (HTTPField.Name("Referrer-Policy")!, "no-referrer"),
        (HTTPField.Name("X-Frame-Options")!, "DENY"),
        (HTTPField.Name("Cross-Origin-Resource-Policy")!, "same-origin"),
        (HTTPField.Name("Cross-Origin-Opener-Policy")!, "same-origin"),
    ]
}
