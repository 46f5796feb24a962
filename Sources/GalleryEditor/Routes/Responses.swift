import Foundation
import GalleryDocument
import GalleryFormat
import GalleryConvert
import Hummingbird
import NIOCore

/// How routes answer: JSON, bytes of a checked type, and errors as `{"error": "..."}` with a
/// status that says whose fault it was.
enum Responses {
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        json(bytes: Array(try JSONEncoder().encode(value)), status: status)
    }

    /// JSON already written (a document's view, by its own writer).
    static func json(bytes: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func bytes(_ bytes: [UInt8], type: String, cache: String? = nil, disposition: String? = nil) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        if let cache { headers[.cacheControl] = cache }
        if let disposition { headers[.contentDisposition] = disposition }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func error(_ error: any Error) -> Response {
        let status = status(for: error)
        let message = (error as? HTTPError)?.body ?? "\(error)"
        return (try? json(["error": message], status: status)) ?? Response(status: status)
    }

    /// The status of a request that failed with `error`: its category's (`ErrorCategory`'s
    /// one table), so that 500 means the server's own failure only. A route's `HTTPError`
    /// carries its own; the few answers finer than a category are listed here.
    static func status(for error: any Error) -> HTTPResponse.Status {
        switch error {
        case let error as HTTPError: error.status
        // A request the JSON of which does not decode is the request's fault.
        case is DecodingError: status(code: ErrorCategory.data.httpStatus)
        case EditorError.outsideOpenedPaths: .forbidden
        case let error as DocumentError where error.kind == .noSuchImage: .notFound
        // The page's document is closed (the page outlived it): the page's state conflicts.
        case let error as DocumentError where error.kind == .closed: .conflict
        default: status(code: ErrorCategory(of: error).httpStatus)
        }
    }

    /// The status with `code`, with its standard reason phrase.
    private static func status(code: Int) -> HTTPResponse.Status {
        let known: [HTTPResponse.Status] = [.notFound, .conflict, .unprocessableContent, .internalServerError, .serviceUnavailable]
        return known.first { $0.code == code } ?? HTTPResponse.Status(code: code)
    }

    /// `Content-Disposition` for a download under the image's own name, RFC 6266 with an ASCII
    /// fallback (the format's file names are already free of path separators and controls).
    static func attachment(filename: String) -> String {
        disposition("attachment", filename: filename)
    }

    /// `Content-Disposition` for an image shown in the page under its own name: a browser's own
    /// drag of the image out of the page (Firefox's and Chromium's XdndDirectSave on X11) names the
    /// file it gives from this header, not from the URL's last segment.
    static func inline(filename: String) -> String {
        disposition("inline", filename: filename)
    }

    private static func disposition(_ kind: String, filename: String) -> String {
        let ascii = String(filename.unicodeScalars.map { $0.isASCII && $0 != "\"" && $0 != "\\" && $0.value >= 0x20 ? Character($0) : "_" })
        let encoded = filename.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "._-"))) ?? ascii
        return "\(kind); filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }
}

extension Request {
    /// The request's JSON body, at most `limit` bytes.
    mutating func decodeJSON<Value: Decodable>(_ type: Value.Type, limit: Int = EditorLimits.jsonBytes) async throws -> Value {
        try refuseDeclaredLength(over: limit, "the request's JSON")
        let buffer = try await collectBody(upTo: limit, "the request's JSON")
        do {
            return try JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
        } catch {
            throw EditorError.badRequest("the request's JSON does not say what to do: \(error)")
        }
    }

    /// The body, at most `limit` bytes: a longer one is refused (413) at the first byte past it.
    mutating func collectBody(upTo limit: Int, _ what: String) async throws -> ByteBuffer {
        do {
            return try await collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw HTTPError(.contentTooLarge, message: "\(what) is larger than the \(EditorLimits.megabytes(limit)) it may be")
        }
    }

    /// The `page` query item: which open page asks (its documents close with it).
    var page: String {
        get throws {
            guard let page = uri.queryParameters["page"], page.count <= 64, !page.isEmpty,
                  page.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                throw EditorError.badRequest("the request does not name its page")
            }
            return String(page)
        }
    }
}
