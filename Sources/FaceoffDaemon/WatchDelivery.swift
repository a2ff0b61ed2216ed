import FaceoffDelivery
import FaceoffKit
import FaceoffStore
import Foundation

/// What `watch`, `replay` and `demo` deliver to: the terminal (a scoreboard redrawn in place,
/// or one line per event) and, where asked, the configured sinks.
public struct WatchDelivery: Sendable {
    public let terminal: StdoutSink
    public let router: AlertRouter<ContinuousClock>
    /// Where what the user should know goes (a permissions warning, alerts still owed): stderr.
    let say: @Sendable (String) -> Void

    /// - Parameters:
    ///   - format: `--format`; else a configured stdout sink's format; else text.
    ///   - configured: deliver to the config's sinks too.
    ///   - store: the ledger and outbox; nil for the throwaway runs (replay, demo).
    ///   - teams: the games' teams, which the terminal and the sinks' default filters take.
    ///   - say: where a warning or a note for the user goes.
    public init(
        session: Session, format: SinkConfig.Format?, configured: Bool, store: Store?, teams: Set<String>,
        say: @escaping @Sendable (String) -> Void
    ) throws {
        self.say = say
        let renderer = try session.renderer()
        let stdoutConfig = session.config.sinks.first { $0.type == .stdout }
        let configuredFormat: SinkConfig.Format? =
            if case .stdout(let options) = stdoutConfig?.options { options.format } else { nil }
        let chosen: SinkConfig.Format = format ?? configuredFormat ?? .text
        let style = chosen == .text ? session.terminalStyle : .plain
        let terminal = StdoutSink(
            name: stdoutConfig?.displayName ?? "stdout", format: chosen, renderer: renderer, style: style,
            scoreboard: chosen == .text && isatty(STDOUT_FILENO) == 1)
        self.terminal = terminal
        var setup = AlertSetup(session: session, renderer: renderer, store: store)
        setup.extraTeams = teams
        var routes: [SinkRoute] = []
        if configured {
            if let warning = ConfigLoader.permissionWarning(path: session.configPath, config: session.config) {
                say("warning: \(warning)")
            }
            routes = session.config.sinks.map { setup.route($0, terminal: terminal) }
        }
        if !routes.contains(where: { $0.sink.name == terminal.name }) {
            let filter =
                stdoutConfig.map {
                    SinkFilter($0, defaultTeams: Set(session.config.teams).union(teams), defaultPlayers: Set(session.config.players))
                }
                ?? SinkFilter(teams: Set(session.config.teams).union(teams), players: Set(session.config.players))
            routes.insert(
                SinkRoute(
                    sink: terminal, filter: filter, delay: stdoutConfig?.delay ?? session.config.watch.delay,
                    hold: .unconfigured(.stdout, zone: session.config.timeZone)),
                at: 0)
        }
        // The scoreboard follows the terminal's delay, whichever process changes it.
        router = AlertRouter(
            routes: routes, ledger: store.map { Ledger(store: $0) }, clock: ContinuousClock(),
            delays: DelayBook(config: session.config, store: store), scoreboard: terminal.name)
    }

    /// Runs `body` with the router's lanes and sinks running beside it. When it ends (returning
    /// or throwing), waits for what was routed, gives webhooks a moment, and says what is
    /// still owed (it stays in the outbox).
    public func deliver(_ body: () async throws -> Void) async throws {
        try await router.serving {
            do { try await body() } catch {
                await handOver()
                throw error
            }
            await handOver()
        }
    }

    private func handOver() async {
        await router.settle()
        let owing = await router.settleDurable(timeout: .seconds(15))
        if !owing.isEmpty {
            say(
                "note: alerts for \(owing.joined(separator: ", ")) are still being retried; they stay queued and the next `faceoff run` or `faceoff watch` delivers them"
            )
        }
    }
}
