import ArgumentParser
import FaceoffBase
import FaceoffDaemon
import FaceoffDelivery
import FaceoffHTTP
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL
import FaceoffServer
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

extension Faceoff {
    struct RunCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Run unattended: keep the calendars current, send every game's alerts.",
            discussion: """
                Refreshes the followed teams' schedules (every [calendar] refresh, 6 h, and
                after each final) and rewrites their calendars; sleeps until the pregame
                window of the next game of a followed team (or of a followed player's team)
                and watches it; sends alerts to the [[sink]]s (with none: desktop
                notifications, and each alert in the log). Serves the feeds too when [serve]
                enabled = true.

                One `run` per store (a second refuses to start). SIGTERM or Ctrl-C stops it
                within 5 s; what webhooks still owe stays queued for the next start. SIGHUP
                reloads the config and templates without dropping a game being watched, and
                applies [serve] (the feed server is replaced when it changed); a bad config, or
                one that has gone missing, is refused and the old one kept. Logs go to stderr (the journal under
                systemd); contrib/systemd has a user unit.

                Examples:
                  faceoff run
                  systemctl --user enable --now faceoff
                  systemctl --user reload faceoff       # after editing config.toml
                """)

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try global.refuseJSON("run")
        }

        func run() async throws {
            global.bootstrapLogging(standard: .info)
            let session = try global.session()
            _ = try session.renderer()  // template errors now, not at the first goal
            // The service goes online all the time: without libcurl, fail now (systemd sees it)
            // rather than run on and deliver nothing.
            if let reason = CurlHTTPClient<ContinuousClock>.unavailableReason { throw RuntimeError(message: reason) }
            let logger = Logger(label: "faceoff.run")
            let lock: RunLock
            do { lock = try RunLock(directory: session.paths.stateHome) } catch let held as RunLock.Held {
                throw RuntimeError(message: held.description)
            }
            let store = try session.openStore()
            if let warning = ConfigLoader.permissionWarning(path: session.configPath, config: session.config) {
                logger.warning("\(warning)")
            }
            let global = global
            let daemon = Daemon(
                Daemon<ContinuousClock>.Dependencies(
                    store: store, http: CurlHTTPClient(), clock: ContinuousClock(), now: { Date() }, logger: logger,
                    loadSession: { try global.session() }))

            // The feed server follows the daemon's reloads: [serve] may be turned on, off or changed.
            let feeds = try FeedService(first: session, sessions: daemon.sessions, logger: logger) { session in
                guard session.config.serve.enabled else { return nil }
                return try FeedService.server(
                    session: session, store: store, options: session.config.calendar, listen: session.config.serve.listen)
            } onReady: { served in
                logger.info(
                    "serving the feeds\(served.thisMachineOnly ? " to this machine only" : "")", metadata: ["url": "\(served.base)"])
            }
            // Trapped before the daemon starts, so an early SIGHUP reloads instead of killing.
            let hangups = HangupService(signals: await UnixSignalsSequence(trapping: .sighup)) { daemon.reload() }
            let services: [any Service] = [daemon, feeds, hangups]
            var configuration = ServiceGroupConfiguration(
                services: services.map { .init(service: $0) }, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            // The promise is 5 s: past 4 s of graceful shutdown, cancel; past 1 s more, go.
            configuration.maximumGracefulShutdownDuration = .seconds(4)
            configuration.maximumCancellationDuration = .seconds(1)
            let group = ServiceGroup(configuration: configuration)
            try await group.run()
            withExtendedLifetime(lock) {}
        }
    }
}
