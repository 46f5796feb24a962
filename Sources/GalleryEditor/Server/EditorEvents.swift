import Foundation

/// The pages that are open, each listening on its event stream (server-sent events), and the
/// messages the server pushes to them: a document changed, the folder listing changed.
///
/// A page is open for as long as its stream is connected; the server's lifetime and the
/// documents' follow from that.
package actor EditorEvents {
    private var pages: [String: AsyncStream<String>.Continuation] = [:]
    /// Which connection of each page is the current one: a stream replaced by the page's next
    /// connection (EventSource reconnects by itself) ends without the page having left.
    private var connections: [String: Int] = [:]
    private var connectionCount = 0
    private var lastPageLeft: ContinuousClock.Instant? = nil
    private let started = ContinuousClock.now
    private var onPageClosed: (@Sendable (String) async -> Void)?
    /// Set once the server stops: a stream opened after that would never be ended, and the
    /// server's stop waits for every response to end.
    private var stopped = false

    package init() {}

    /// What runs when a page's stream ends (its documents are closed).
    package func setPageClosedHandler(_ handler: @escaping @Sendable (String) async -> Void) { onPageClosed = handler }

    /// A stream of SSE frames for the page `id`; it ends when the page goes, or at once when
    /// the server is stopping (a page that reconnects then must not hold the stop).
    package func connect(page id: String) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(512))
        guard !stopped else {
            continuation.finish()
            return stream
        }
        pages[id]?.finish()
        pages[id] = continuation
        connectionCount += 1
        let connection = connectionCount
        connections[id] = connection
        lastPageLeft = nil
        continuation.onTermination = { [weak self] _ in
            Task { await self?.disconnected(id, connection: connection) }
        }
        // The first frame tells the page it is connected; EventSource reconnects by itself after 1 s.
        continuation.yield("retry: 1000\nevent: hello\ndata: {}\n\n")
        return stream
    }

    private func disconnected(_ id: String, connection: Int) async {
        guard pages[id] != nil, connections[id] == connection else { return }
        pages[id] = nil
        connections[id] = nil
        if pages.isEmpty { lastPageLeft = .now }
        await onPageClosed?(id)
    }

    /// Sends `event` with the JSON `data` to every page.
    package func broadcast(_ event: String, data: some Encodable) {
        guard let json = try? JSONEncoder().encode(data) else { return }
        broadcast(event, json: Array(json))
    }

    /// JSON already written; it holds no line break, which would end the event's data.
    package func broadcast(_ event: String, json: [UInt8]) {
        let frame = "event: \(event)\ndata: \(String(decoding: json, as: UTF8.self))\n\n"
        for continuation in pages.values { continuation.yield(frame) }
    }

    /// A comment line every so often: a connection that died without a FIN shows up as a failed write.
    package func keepAlive() {
        for continuation in pages.values { continuation.yield(": keep-alive\n\n") }
    }

    package var openPages: Int { pages.count }

    /// How long no page has been open (nil while one is); before any page, since start.
    package func idleFor(now: ContinuousClock.Instant = .now) -> (duration: Duration, anyPageYet: Bool)? {
        guard pages.isEmpty else { return nil }
        if let lastPageLeft { return (now - lastPageLeft, true) }
        return (now - started, false)
    }

    /// Ends every stream, and every one asked for from now on (the server is stopping).
    package func closeAll() {
        stopped = true
        for continuation in pages.values { continuation.finish() }
        pages = [:]
        connections = [:]
    }
}
