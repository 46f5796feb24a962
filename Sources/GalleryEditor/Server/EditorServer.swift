import Foundation
import GalleryDocument
import GallerySystem
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// The editor's server: Hummingbird on 127.0.0.1 and ::1, the routes, and the lifetime rules.
///
/// It runs until no page has been open for `idleShutdown` (or, before the first page ever
/// connects, for `firstPageWait`), or until SIGINT or SIGTERM. Then it removes its record, ends
/// the pages' event streams, lets the requests under way finish for at most `stopDrain`, closes
/// every open document (each makes its final save and releases its lock) and returns.
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
        /// How long the stop waits for requests under way before it cuts them: one that never
        /// ends (an upload whose body stopped arriving, an event stream) must not keep a server
        /// that no longer listens alive, its documents unsaved and its record sending the next
        /// `imagegallery edit` to it.
        package var stopDrain: Duration = .seconds(5)
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
        let stop = EditorStop(state: state, roots: configuration.roots)
        let lifetime = Lifetime(state: state, stop: stop, idleShutdown: configuration.idleShutdown, firstPageWait: configuration.firstPageWait)
        var groupConfiguration = ServiceGroupConfiguration(
            services: applications.map { .init(service: $0) }
                + [.init(service: lifetime, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // Past this the group cancels the servers, which closes the connections still open.
        groupConfiguration.maximumGracefulShutdownDuration = configuration.stopDrain
        let group = ServiceGroup(configuration: groupConfiguration)
        let watches = LibraryWatch.start(state)
        // The one gallery it was started for opens while the browser starts (DocumentDesk.openAtLaunch).
        let launchOpen = single.map { key in Task { await state.desk.openAtLaunch(key, grace: grace) } }
        defer {
            for watch in watches { watch.stop() }
            EditorRecord.remove(for: configuration.roots)
        }
        var failure: (any Error)?
        do {
            try await group.run()
        } catch {
            failure = error
        }
        // A server cut in its drain may end with an error; one that ended before the stop began
        // could not serve (its port taken), and that is the error. The documents are saved either way.
        let stopped = stop.began
        await stop.begin()
        // An open under way ends before the close of all, which would otherwise miss it and its lock.
        await launchOpen?.value
        let unsaved = await state.desk.closeAll()
        if let failure {
            guard stopped else { throw failure }
            logger.debug("while stopping: \(failure)")
        }
        return unsaved
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
/// open for long enough; either way, and at once on a signal, the stop begins, so that the
/// HTTP servers can drain.
struct Lifetime: Service {
    let state: EditorState
    let stop: EditorStop
    let idleShutdown: Duration
    let firstPageWait: Duration

    func run() async throws {
        await withGracefulShutdownHandler {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                await state.events.keepAlive()
                if let idle = await state.events.idleFor(), idle.duration >= (idle.anyPageYet ? idleShutdown : firstPageWait) { break }
                if Task.isShuttingDownGracefully { break }
            }
            await stop.begin()
        } onGracefulShutdown: {
            Task { await stop.begin() }
        }
    }
}

/// The start of the server's stop, whichever way it comes (the idle wait, a signal), done once
/// and before the servers drain: the record goes first, so that an `imagegallery edit` from now
/// on starts a new server rather than printing a link to one that no longer listens, and the
/// pages' event streams end, new ones included, since the drain waits for every response.
final class EditorStop: Sendable {
    private let state: EditorState
    private let roots: EditorRoots
    private let started = Atomic<Bool>(false)

    init(state: EditorState, roots: EditorRoots) {
        self.state = state
        self.roots = roots
    }

    /// Whether the stop has begun.
    var began: Bool { started.load(ordering: .acquiring) }

    func begin() async {
        if !started.exchange(true, ordering: .acquiringAndReleasing) { EditorRecord.remove(for: roots) }
        await state.events.closeAll()
    }
}
