import FaceoffAPI
import FaceoffDelivery
import FaceoffHTTP
import FaceoffKit
import FaceoffMQTT
import FaceoffStore
import Foundation
import Logging

/// Builds the sinks a command delivers to, from the config's `[[sink]]` tables (or the
/// command's own defaults when there are none).
public struct AlertSetup: Sendable {
    public let session: Session
    public let renderer: Renderer
    /// nil: no ledger, no outbox (replay, demo, test-alert: trying a setup twice works).
    public let store: Store?
    public let http: any HTTPClient
    public let logger: Logger
    /// Teams a sink takes by default besides the followed ones (`faceoff watch MTL`).
    public var extraTeams: Set<String> = []
    /// nil: each durable sink's own (`.standard`; `.mqtt`); tests shrink it.
    public var retrySchedule: RetrySchedule?
    /// `faceoff run`: its MQTT sinks own the status topic (with a last will), the discovery
    /// entries, the next games and the idle states.
    public var speaksForTheHome = false

    public init(
        session: Session, renderer: Renderer, store: Store?, http: any HTTPClient = CurlHTTPClient(),
        logger: Logger = Logger(label: "faceoff.alerts")
    ) {
        self.session = session
        self.renderer = renderer
        self.store = store
        self.http = http
        self.logger = logger
    }

    var defaultTeams: Set<String> { Set(session.config.teams).union(extraTeams) }
    /// The followed players: a sink without `players` of its own follows them.
    var defaultPlayers: Set<Int> { Set(session.config.players) }

    /// One sink from its config. `terminal` is the command's own stdout output, which a
    /// `stdout` sink uses (with the sink's format).
    public func sink(_ config: SinkConfig, terminal: StdoutSink? = nil) -> any Sink {
        switch config.options {
        case .stdout(let options):
            if let terminal { return terminal }
            return StdoutSink(
                name: config.displayName, format: options.format, renderer: renderer,
                style: options.format == .text ? session.terminalStyle : .plain)
        case .notify(let options):
            return NotifySendSink(
                name: config.displayName, renderer: renderer, urgency: options.urgency, environment: session.environment,
                logos: LogoCache(
                    directory: session.paths.cacheHome + "/logos",
                    base: session.environment["FACEOFF_LOGO_BASE"].flatMap { $0.isEmpty ? nil : $0 },
                    http: http),
                edit: options.edit, sent: store.map(SentMessages.init))
        case .webhook(let options):
            return WebhookSink(
                name: config.displayName, options: options, renderer: renderer, http: http, outbox: store.map { Outbox(store: $0) },
                schedule: retrySchedule ?? .standard, hold: SinkHold(config, zone: session.config.timeZone))
        case .exec(let options):
            return ExecSink(
                name: config.displayName, options: options, renderer: renderer, environment: session.environment, paths: session.paths,
                outbox: store.map { Outbox(store: $0) }, schedule: retrySchedule ?? .standard,
                hold: SinkHold(config, zone: session.config.timeZone))
        case .mqtt(let options):
            return mqttSink(config, options: options)
        }
    }

    /// An MQTT sink: `config` its routing keys, `options` its own.
    public func mqttSink(_ config: SinkConfig, options: SinkConfig.MQTT) -> MQTTSink {
        var options = options
        options.caFile = options.caFile.map(session.paths.expand)
        // The next games come from the cached schedule `run` keeps fresh: no request.
        let client = store.map {
            APIClient(service: .nhl, base: session.config.apiBase, http: http, cache: ResponseCache(store: $0), mode: .offline)
        }
        let espn = store.map {
            APIClient(service: .espn, base: session.config.espnBase, http: http, cache: ResponseCache(store: $0), mode: .offline)
        }
        let time = LocalTime(timeZone: session.config.timeZone)
        return MQTTSink(
            name: config.displayName, options: options, renderer: renderer,
            alerts: SinkFilter(config, defaultTeams: defaultTeams, defaultPlayers: defaultPlayers),
            owner: speaksForTheHome,
            store: store,
            finalHold: session.config.watch.finalHold,
            games: { team in
                guard let key = TeamKey(written: team), let client, let espn else { return [] }
                let league = key.league.definition
                return (try? await league.games(of: key, client: league.client(among: [client, espn]), time: time)) ?? []
            },
            switches: session.config.sinks.map(\.displayName),
            schedule: retrySchedule ?? .mqtt)
    }

    public func route(_ config: SinkConfig, terminal: StdoutSink? = nil) -> SinkRoute {
        let filter = SinkFilter(config, defaultTeams: defaultTeams, defaultPlayers: defaultPlayers)
        return SinkRoute(
            sink: sink(config, terminal: terminal), filter: config.type == .mqtt ? MQTTSink.routeFilter(filter) : filter,
            delay: config.delay ?? session.config.watch.delay, hold: SinkHold(config, zone: session.config.timeZone))
    }

    /// The configured sinks; `fallback` when the config has none.
    public func routes(fallback: [SinkConfig], terminal: StdoutSink? = nil) -> [SinkRoute] {
        let configs = session.config.sinks.isEmpty ? fallback : session.config.sinks
        return configs.map { route($0, terminal: terminal) }
    }
}
