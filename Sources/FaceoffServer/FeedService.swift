import FaceoffBase
import FaceoffCalendar
import FaceoffKit
import FaceoffStore
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// The feed server for the life of `run` or `serve`, following reloads. A config that changes
/// what is served (`[serve]`, the teams, `[calendar]`) replaces the server: the old one stops,
/// with the requests it was answering, and the new one binds (or none, with `enabled = false`
/// in `run`). So a token changed and reloaded is never accepted again.
public struct FeedService: Service {
    /// What a server is made of; a reload that leaves it alone leaves the server alone.
    struct Recipe: Equatable, Sendable {
        var serve: ServeSettings
        var teams: [String]
        var calendar: CalendarSettings

        init(_ session: Session) {
            serve = session.config.serve
            teams = session.config.teams
            calendar = session.config.calendar
        }
    }

    let first: FeedServer?
    let recipe: Recipe
    let sessions: AsyncStream<Session>
    let logger: Logger
    let make: @Sendable (Session) throws -> FeedServer?
    let onReady: @Sendable (ServedLink) -> Void

    /// `make` builds the server a session asks for (nil: none); the first is built now, so a
    /// mistake in it stops the command at once.
    public init(
        first session: Session, sessions: AsyncStream<Session>, logger: Logger, make: @escaping @Sendable (Session) throws -> FeedServer?,
        onReady: @escaping @Sendable (ServedLink) -> Void
    ) throws {
        first = try make(session)
        recipe = Recipe(session)
        self.sessions = sessions
        self.logger = logger
        self.make = make
        self.onReady = onReady
    }

    public func run() async throws {
        try await withThrowingDiscardingTaskGroup { group in
            var recipe = recipe
            // The running server's stop (a cancelled group would cancel the next one at once,
            // so each server has its own).
            var stop: Stop?
            // A server that cannot listen at the start ends the command (as it always has); one
            // started by a reload says so in the log and waits for the next reload.
            if let first {
                let started = await start(first, in: &group)
                if let failure = started.failure { throw failure }
                stop = started.stop
            }
            for await session in sessions.cancelOnGracefulShutdown() {
                let next = Recipe(session)
                guard next != recipe else { continue }
                let server: FeedServer?
                do { server = try make(session) } catch {
                    logger.error("[serve] not applied; the feeds are served as before", metadata: ["error": "\(error)"])
                    continue
                }
                // The old server stops (and lets go of its port) before the new one binds.
                if let running = stop { await running.stopAndWait() }
                stop = nil
                recipe = next
                guard let server else {
                    logger.notice("feed server stopped ([serve] enabled = false)")
                    continue
                }
                let started = await start(server, in: &group)
                if let failure = started.failure {
                    logger.error("the feeds are not served; fix [serve] and reload", metadata: ["error": "\(failure)"])
                } else {
                    logger.notice("feed server started again with the reloaded config")
                    stop = started.stop
                }
            }
        }
    }

    /// One running server: its stop (asked for, done) and why it failed to run.
    final class Stop: Sendable {
        let asked = Latch()
        let done = Latch()
        let failure = Mutex<(any Error)?>(nil)
        func stopAndWait() async {
            asked.open()
            await done.wait()
        }
    }

    /// Starts `server` as a child of `group` and waits until it listens or has failed to.
    private func start(_ server: FeedServer, in group: inout ThrowingDiscardingTaskGroup<any Error>) async -> (
        stop: Stop, failure: (any Error)?
    ) {
        let ready = Latch()
        let stop = Stop()
        let onReady = onReady
        group.addTask {
            defer { stop.done.open() }
            await withTaskGroup(of: Void.self) { one in
                one.addTask {
                    do {
                        try await server.run { base in
                            ready.open()
                            onReady(base)
                        }
                    } catch {
                        if !(error is CancellationError) { stop.failure.withLock { $0 = error } }
                    }
                    ready.open()
                }
                one.addTask { await stop.asked.wait(atMost: .seconds(86_400 * 365)) }
                // Whichever ends first: the server (a failure, a graceful shutdown) or a stop.
                await one.next()
                one.cancelAll()
            }
        }
        await ready.wait()
        return (stop, stop.failure.withLock { $0 })
    }

    /// The feed server of a session: its feeds, built with `options`, listening on `listen`.
    public static func server(session: Session, store: Store, options: CalendarSettings, listen: String) throws -> FeedServer {
        guard let address = ListenAddress(listen) else { throw UsageError(message: "[serve] listen must be host:port") }
        if session.config.serve.token.isEmpty, !ServedLink.isLoopback(address.host) {
            Logger(label: "faceoff.serve").warning(
                "serving on \(listen) with no [serve] token: anyone who can reach this machine can read the feeds (and see which teams you follow); set [serve] token"
            )
        }
        let service = CalendarService(
            clients: [session.nhlClient(store: store), session.espnClient(store: store)], state: CalendarState(store: store),
            templates: try session.templates(), options: options)
        let publisher = CalendarPublisher(
            service: service, directory: session.calendarDirectory, allowEmpty: session.config.calendar.allowEmpty)
        return FeedServer(
            publisher: publisher, feeds: FeedPlan(teams: session.config.teams).served,
            settings: FeedServer.Settings(
                host: address.host, port: address.port, token: session.config.serve.token, publicURL: session.config.serve.publicURL))
    }
}
