import AsyncHTTPClient
import GalleryFormat
import GalleryImageHeaders
import GallerySystem
import Foundation
import NIOCore
import NIOHTTP1

/// One request and its response, read whole within the transfer timeout and the size cap.
struct HTTPExchange: Sendable {
    var status: Int
    var reasonPhrase: String
    /// Header fields by lowercased name.
    var fields: [String: [String]]
    var body: [UInt8]
    /// ms since 1970.
    var requestTime: Int64
    var responseTime: Int64

    func field(_ name: String) -> String? { fields[name]?.first }

    var isSuccess: Bool { (200 ..< 300).contains(status) }
}

/// What decides, while the body streams, whether to go on reading it.
struct BodyRules: Sendable {
    var maxBytes: Int
    /// Called once the head is in: a failure here stops the transfer before any body is read.
    var checkHead: @Sendable (HTTPExchange) throws -> Void
    /// Called once the first `leadingByteCount` bytes are in (or the body ended sooner).
    var checkLeadingBytes: @Sendable (HTTPExchange, [UInt8]) throws -> Void
    /// Enough to tell what the body is: an image type's signature, or the `ftyp` box that
    /// tells AVIF from HEIC.
    var leadingByteCount = 64
}

enum Clock {
    static func nowMilliseconds() -> Int64 {
        let (seconds, nanoseconds) = WallClock.now
        return seconds * 1000 + Int64(nanoseconds) / 1_000_000
    }
}

extension ImageFetcher {
    /// Sends one GET and reads its answer. Bodies of redirects and errors are not read: only
    /// the head matters, and a hostile server could make them endless.
    func exchange(_ url: String, headers extra: [(String, String)], rules: BodyRules) async throws -> HTTPExchange {
        var building = HTTPClientRequest(url: url)
        building.method = .GET
        building.headers.add(name: "User-Agent", value: options.userAgent)
        building.headers.add(name: "Accept", value: MediaType.allCases.map(\.rawValue).joined(separator: ", "))
        for (name, value) in extra { building.headers.add(name: name, value: value) }
        let limit = options.transferTimeout
        let (client, request) = (client, building)
        return try await withThrowingTaskGroup(of: HTTPExchange.self) { group in
            group.addTask {
                let requestTime = Clock.nowMilliseconds()
                let response = try await client.execute(request, timeout: .nanoseconds(Int64(limit.nanoseconds)))
                var fields: [String: [String]] = [:]
                for (name, value) in response.headers { fields[name.lowercased(), default: []].append(value) }
                var exchange = HTTPExchange(status: Int(response.status.code), reasonPhrase: response.status.reasonPhrase,
                                            fields: fields, body: [], requestTime: requestTime,
                                            responseTime: Clock.nowMilliseconds())
                guard exchange.isSuccess else { return exchange }
                try rules.checkHead(exchange)
                // Content-Length is a promise, not a bound: the cap is also counted below.
                if let declared = exchange.field("content-length").flatMap(Int.init), declared > rules.maxBytes {
                    throw FetchFailure(url: url, reason: .tooLarge(limit: rules.maxBytes))
                }
                var body: [UInt8] = []
                var checkedLead = false
                for try await buffer in response.body {
                    guard body.count + buffer.readableBytes <= rules.maxBytes else {
                        // Leaving the loop cancels the request and closes the connection.
                        throw FetchFailure(url: url, reason: .tooLarge(limit: rules.maxBytes))
                    }
                    body.append(contentsOf: buffer.readableBytesView)
                    if !checkedLead, body.count >= rules.leadingByteCount {
                        checkedLead = true
                        try rules.checkLeadingBytes(exchange, body)
                    }
                }
                if !checkedLead { try rules.checkLeadingBytes(exchange, body) }
                exchange.body = body
                exchange.responseTime = Clock.nowMilliseconds()
                return exchange
            }
            group.addTask {
                try await Task.sleep(for: limit)
                throw FetchFailure(url: url, reason: .transferTimedOut(limit))
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
}

extension Duration {
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}
