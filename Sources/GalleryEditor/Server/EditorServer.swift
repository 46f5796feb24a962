import Foundation
import GalleryDocument
import GallerySystem
import Hummingbird
import Logging
import ServiceLifecycle

/// The editor's server: Hummingbird on 127.0.0.1 and ::1, the routes, and the lifetime rules.
///
/// It runs until no page has been open for `idleShutdown` (or, before the first page ever
/// connects, for `firstPageWait`), or until SIGINT or SIGTERM. Then it ends the pages' event
/// streams, closes every open document (each makes its final save and releases its lock),
/// removes its record and returns.
package enum EditorServer {
    package static let programName = "imagegallery-editor"

    package struct Configuration: Sendable {
        package var roots: EditorRoots
        /// 0: a free port.
        package var port: Int = 0
        package var idleShutdown: Duration = .seconds(30)
        package var firstPageWait: Duration = .seconds(300)
        package var documentOptions = DocumentOptions()
        /// How long a page's documents stay open after its event stream ends, so that a reload
        /// (a new page) finds them with their undo history.
        package var reloadGrace: Duration = .seconds(15)
        package var limits = EditorLimits()

        package init(roots: EditorRoots) { self.roots = roots }
    }

    package static func launchURL(port: Int, key: String) -> String { "http://127.0.0.1:\(port)/open?key=\(key)" }

    /// Serves until stopped; `ready` gets the first page's launch URL once both addresses listen.
    /// Returns the documents whose final save failed, each naming its file.
    package static func run(_ configuration: Configuration, ready: @escaping @Sendable (String) -> Void) async throws -> [String] {
        let logger = {
            var logger = Logger(label: programName) { StreamLogHandler.standardError(label: $0) }
            logger.logLevel = .warning
            return logger
        }()
        let port = try configuration.port == 0 ? FreePort.find() : configuration.port
        let access = EditorAccess(port: port)
        let state = EditorState(access: access, roots: configuration.roots, documentOptions: configuration.documentOptions,
                                limits: configuration.limits)
        let grace = configuration.reloadGrace
        await state.events.setPageClosedHandler { page in await state.desk.pageLeft(page, grace: grace) }
        let single = configuration.roots.roots.count == 1 && !configuration.roots.roots[0].isFolder
            ? GalleryLibrary.key(of: configuration.roots.roots[0].path) : nil
        let router = EditorRoutes.router(state) { single.map { "/#gallery=\($0)" } ?? "/" }

        let listening = ListeningCount(expected: 2) {
            do {
                try EditorRecord(pid: .current, port: port, secret: EditorAccess.hex(access.launchSecret),
                                 roots: configuration.roots.roots.map(\.path)).write(for: configuration.roots)
            } catch {
                logger.warning("\(error); a second imagegallery edit will start another server")
            }
            ready(launchURL(port: port, key: EditorAccess.launchKey(secret: access.launchSecret)))
        }
        let addresses = ["127.0.0.1", "::1"]
        let applications = addresses.map { host in
            Application(router: router,
                        // A request whose body stops arriving is closed after the read timeout (Hummingbird's idle
                        // timeout, which spares a response being written: the event streams).
                        server: .http1(configuration: .init(idleTimeout: .nanoseconds(configuration.limits.readTimeout.nanoseconds))),
                        configuration: .init(address: .hostname(host, port: port), serverName: nil, reuseAddress: false),
                        onServerRunning: { _ in await listening.one() }, logger: logger)
        }
        let lifetime = Lifetime(state: state, idleShutdown: configuration.idleShutdown, firstPageWait: configuration.firstPageWait)
        let group = ServiceGroup(configuration: .init(
            services: applications.map { .init(service: $0) }
                + [.init(service: lifetime, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        let watches = LibraryWatch.start(state)
        defer {
            for watch in watches { watch.stop() }
            EditorRecord.remove(for: configuration.roots)
        }
        try await group.run()
        await state.events.closeAll()
        return await state.desk.closeAll()
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// Calls `done` once every address listens.
actor ListeningCount {
    private var left: Int
    private let done: @Sendable () -> Void

    init(expected: Int, done: @escaping @Sendable () -> Void) {
        left = expected
        self.done = done
    }

    func one() {
        left -= 1
        if left == 0 { done() }
    }
}

/// The server's lifetime as a service: it returns (which stops the group) once no page has been
/// open for long enough, and on a signal it ends the pages' streams so that the HTTP servers
/// can drain.
struct Lifetime: Service {
    let state: EditorState
    let idleShutdown: Duration
    let firstPageWait: Duration

    func run() async throws {
        await withGracefulShutdownHandler {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                await state.events.keepAlive()
                if let idle = await state.events.idleFor(), idle.duration >= (idle.anyPageYet ? idleShutdown : firstPageWait) { return }
                if Task.isShuttingDownGracefully { return }
            }
        } onGracefulShutdown: {
            Task { await state.events.closeAll() }
        }
    }
}
