import FaceoffBase
import FaceoffDelivery
import FaceoffKit
import FaceoffStore
import Foundation
import Logging
import Synchronization

/// Publishes alerts and each followed team's game to an MQTT broker (docs/ALERTS.md, MQTT), with
/// Home Assistant discovery. An alert is queued in the outbox (claimed in the ledger in the
/// same transaction) after the sink's delay, and the outbox worker publishes it with QoS 1:
/// the event JSON on `<prefix>/event`, the device triggers it fires, and the retained state
/// of each of the sink's teams in the game, moved on by it. The connection lives as long as
/// `run()`; libmosquitto keeps it up.
///
/// Only `faceoff run` (`owner`) speaks for the home's view: its last will and `online` on
/// `<prefix>/status`, the discovery entries, the next games and the `idle` states. Other
/// commands only publish what they deliver.
public final class MQTTSink: DurableSink, StateKeepingSink {
    public let name: String
    let options: SinkConfig.MQTT
    var broker: MQTTBroker { options.broker }
    public let topics: MQTTTopics
    let renderer: Renderer
    /// What the event topic and the triggers carry (the sink's `events`, `teams`, `players`);
    /// the router hands it every event of its teams' games, for the state.
    let alerts: SinkFilter
    let teams: [String]
    let owner: Bool
    let clientID: String
    let outbox: Outbox?
    let retained: RetainedMessages?
    let schedule: RetrySchedule
    let discovery: HomeAssistantDiscovery
    /// A team's games from the cached schedule (no request).
    package let games: @Sendable (String) async -> [GameSummary]
    /// How long a final stays the state before `idle`.
    let finalHold: Duration
    /// The sinks `run` offers a mute switch for (none for other processes).
    let switches: [String]
    let now: @Sendable () -> Date
    /// What the outbox worker's waits between attempts sleep on.
    let clock: any Clock<Duration>
    let logger: Logger
    let wake = WakeSignal()
    /// The connection while `run()` runs.
    let live = Mutex<MQTTConnection?>(nil)
    /// Fired by the connection's changes, and when a game starts or ends (the next game
    /// changes): what `maintain` waits on.
    let changes = ChangeSignal()
    let lookNow = Mutex(false)
    /// The store holds what the broker should hold retained: recorded before it is published,
    /// published again on every connect (a publish cut off by a lost connection included).
    /// Reading a retained topic from the store, recording what follows from it and publishing
    /// that is one step (`publishInTurn`): the outbox's alerts and what `maintain` says take
    /// turns, so a state read before an alert moved it on is never published after it.
    let retainedTurns = Turns()
    /// Retained messages recorded in the store that the broker has not acknowledged yet (a
    /// publish cut off as the sink stops): said before going, so the broker is not left
    /// behind the store until the next start.
    let unacknowledged = Mutex<[MQTTMessage]>([])
    /// How long an attempt waits for the broker before it counts as failed (libmosquitto
    /// reconnects meanwhile, backing off from 1 s to 30 s), and for an acknowledgement.
    let connectWait: Duration = .seconds(300)
    let ackWait: Duration = .seconds(10)

    /// What the outbox holds for one alert.
    struct Queued: Codable, Sendable {
        var event: GameEvent
        /// The event JSON, when the sink's filter takes the event as an alert; nil when it
        /// only moves the state on.
        var alert: String?
    }

    public init(
        name: String, options: SinkConfig.MQTT, renderer: Renderer, alerts: SinkFilter, owner: Bool, store: Store?, finalHold: Duration,
        games: @escaping @Sendable (String) async -> [GameSummary] = { _ in [] }, switches: [String] = [],
        schedule: RetrySchedule = .mqtt, now: @escaping @Sendable () -> Date = { Date() },
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "faceoff.mqtt")
    ) {
        self.name = name
        self.options = options
        topics = MQTTTopics(prefix: options.topicPrefix, discoveryPrefix: options.discoveryPrefix)
        self.renderer = renderer
        self.alerts = alerts
        teams = alerts.teams.sorted()
        self.owner = owner
        clientID = Self.clientID(options.clientID, owner: owner)
        outbox = store.map { Outbox(store: $0) }
        retained = store.map { RetainedMessages(store: $0, sink: name) }
        self.schedule = schedule
        discovery = HomeAssistantDiscovery(topics: topics, version: FaceoffInfo.version)
        self.games = games
        self.finalHold = finalHold
        self.switches = owner ? switches : []
        self.now = now
        self.clock = clock
        self.logger = logger
    }

    /// The id a broker knows this process by. A broker drops a client when another connects
    /// with its id, so only `run` (which speaks for the home) uses a configured id as given;
    /// `watch`, `test-alert` and `doctor` beside it add their pid.
    static func clientID(_ configured: String?, owner: Bool) -> String {
        guard let configured else { return "faceoff-\(ProcessInfo.processInfo.hostName)-\(getpid())" }
        return owner ? configured : "\(configured)-\(getpid())"
    }

    /// Every event of the sink's teams' games (the state needs them all) and what its
    /// players do: the route's filter. The sink's own filter decides what is an alert.
    public static func routeFilter(_ alerts: SinkFilter) -> SinkFilter {
        SinkFilter(kinds: Set(GameEvent.Kind.byDefault).union(alerts.kinds ?? []), teams: alerts.teams, players: alerts.players)
    }

    // MARK: Messages

    /// What one alert publishes, with the team states read from (and `state` moved on from)
    /// what the store holds.
    func messages(_ queued: Queued, at date: Date) -> [MQTTMessage] {
        let event = queued.event
        var messages: [MQTTMessage] = []
        let involved = [event.away, event.home].map(event.followKey).filter(teams.contains)
        if let alert = queued.alert {
            messages.append(MQTTMessage(topic: topics.event, payload: alert, retain: false))
            for team in involved {
                for trigger in MQTTTrigger.fired(by: event, for: team) {
                    messages.append(MQTTMessage(topic: topics.trigger(team, trigger), payload: alert, retain: false))
                }
            }
        }
        for team in involved {
            // An attempt again after one cut off finds its own state recorded: `after` is
            // idempotent, so it moves on to the same state.
            let state = MQTTTeamState.after(event, team: team, previous: storedState(team), at: date)
            messages.append(MQTTMessage(topic: topics.state(team), payload: Self.json(state), retain: true))
        }
        return messages
    }

    /// The team's state as the store holds it.
    func storedState(_ team: String) -> MQTTTeamState? {
        ((try? retained?.payload(topics.state(team))) ?? nil).flatMap { try? JSONDecoder().decode(MQTTTeamState.self, from: Data($0.utf8)) }
    }

    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    public func isAlert(_ event: GameEvent) -> Bool { event.kind == .digest || alerts.matches(event) }

    /// A held alert's state: queued without the alert (the router claimed it).
    public func keepState(_ event: GameEvent, at date: Date) async {
        guard let outbox, let body = try? JSONEncoder().encode(Queued(event: event, alert: nil)) else { return }
        do {
            if try await outbox.enqueue(
                event, sink: name, body: Array(body), at: date, expiresAt: date.addingTimeInterval(options.expiry.inSeconds), claimed: true)
            {
                wake.fire()
            }
        } catch {
            logger.warning("cannot queue a held alert's state", metadata: ["sink": "\(name)", "error": "\(error)"])
        }
    }

    func alertJSON(_ event: GameEvent) -> String? {
        guard isAlert(event) else { return nil }
        return EventJSON(event, text: renderer.text(event)).encoded()
    }

    // MARK: Connection

    func connect(will: Bool) throws(MQTTProblem) -> MQTTConnection {
        try MQTTConnection(
            .init(
                broker: broker, clientID: clientID, will: will ? (topics.status, "offline") : nil,
                subscriptions: will && !switches.isEmpty ? [topics.muteCommands] : []), changes: changes)
    }

    /// Publishes `messages` in order on `connection`; each keyed by `key` across retries.
    func publish(_ messages: [MQTTMessage], key: String, on connection: MQTTConnection, wait: Duration) async throws(MQTTProblem) {
        for message in messages {
            try await connection.publish(
                message.topic, Array(message.payload.utf8), retain: message.retain, key: key + "|" + message.topic, timeout: wait)
        }
    }

    /// The one way the sink publishes what follows from its store: in its turn, `compose` reads
    /// the store and says what to publish; that is recorded (what the broker should hold), then
    /// published in order, each message keyed by `key` across retries.
    func publishInTurn(
        key: String, on connection: MQTTConnection, _ compose: () async throws(MQTTProblem) -> [MQTTMessage]
    ) async throws(MQTTProblem) {
        try await retainedTurns.run { () async throws(MQTTProblem) in
            let messages = try await compose()
            do { try await retained?.record(messages, at: now()) } catch {
                logger.warning(
                    "cannot record the retained topics in the store; the next alert moves on from the one before",
                    metadata: ["sink": "\(name)", "error": "\(error)"])
            }
            let retained = messages.filter(\.retain)
            unacknowledged.withLock { owed in
                owed.removeAll { message in retained.contains { $0.topic == message.topic } }
                owed += retained
            }
            try await publish(messages, key: key, on: connection, wait: ackWait)
            unacknowledged.withLock { owed in owed.removeAll { retained.contains($0) } }
        }
    }

    /// `body` with the connection of `run()`, or one of its own for the moment (test-alert, a
    /// store that can't queue): loaded, connected within `wait`, closed after.
    func withConnection<T>(wait: Duration, _ body: (MQTTConnection) async throws(MQTTProblem) -> T) async throws(MQTTProblem) -> T {
        if let connection = live.withLock({ $0 }) { return try await body(connection) }
        let connection = try connect(will: false)
        defer { connection.close() }
        guard await connection.waitUntilConnected(timeout: wait, firstAnswer: true) else {
            throw MQTTProblem(connection.problem ?? "the broker at \(broker.address) did not answer within \(DurationText.format(wait))")
        }
        return try await body(connection)
    }

    // MARK: Sink

    /// One publish now, without the outbox (test-alert; a store that can't queue).
    public func send(_ event: GameEvent) async -> Delivery {
        let queued = Queued(event: event, alert: alertJSON(event))
        do {
            try await withConnection(wait: .seconds(10)) { connection throws(MQTTProblem) in
                try await publishInTurn(key: event.id, on: connection) { messages(queued, at: now()) }
            }
            return .delivered("published to \(topics.event)")
        } catch {
            return .failed(error.description)
        }
    }

    /// test-alert: the sample on `<prefix>/test` and on the event topic.
    public func sendTest(_ event: GameEvent) async -> Delivery {
        let json = EventJSON(event, text: renderer.text(event)).encoded()
        let messages = [
            MQTTMessage(topic: topics.test, payload: json, retain: false),
            MQTTMessage(topic: topics.event, payload: json, retain: false),
        ]
        do {
            try await withConnection(wait: .seconds(10)) { connection throws(MQTTProblem) in
                try await publish(messages, key: event.id, on: connection, wait: ackWait)
            }
            return .delivered("published to \(topics.test) and \(topics.event) at \(broker.address)")
        } catch {
            return .failed(error.description)
        }
    }

    /// doctor: connects (no will) and says how the broker answered.
    public func probe(timeout: Duration = .seconds(10)) async -> Result<String, MQTTProblem> {
        do {
            try await withConnection(wait: timeout) { _ throws(MQTTProblem) in }
            return .success(
                "\(broker.tls ? "mqtts" : "mqtt")://\(broker.address) accepted the login\(broker.username.map { " as '\($0)'" } ?? "")")
        } catch {
            return .failure(error)
        }
    }

    public func enqueue(_ event: GameEvent, at date: Date) async throws(StoreError) -> Delivery {
        guard let outbox else { return await send(event) }
        let body: [UInt8]
        do { body = Array(try JSONEncoder().encode(Queued(event: event, alert: alertJSON(event)))) } catch {
            return .failed("cannot encode the alert: \(error)")
        }
        let expires = date.addingTimeInterval(options.expiry.inSeconds)
        guard try await outbox.enqueue(event, sink: name, body: body, at: date, expiresAt: expires) else { return .duplicate }
        wake.fire()
        return .queued
    }

    private func worker(_ settled: @escaping OutboxSettled = { _, _ in }) -> OutboxWorker {
        var worker = OutboxWorker(
            name: name, outbox: outbox, schedule: schedule, lease: (connectWait + ackWait) * 2 + .seconds(25), wake: wake, now: now,
            logger: logger,
            disabledReason: { nil },
            attempt: { [self] id, body in
                guard let queued = try? JSONDecoder().decode(Queued.self, from: Data(body)) else {
                    return .refused("the queued alert could not be read")
                }
                guard let connection = live.withLock({ $0 }) else { return .retry("not connected to the broker", after: nil) }
                guard await connection.waitUntilConnected(timeout: connectWait) else {
                    if Task.isCancelled { return .cancelled }
                    return .retry(connection.problem ?? "not connected to the broker at \(broker.address)", after: nil)
                }
                do throws(MQTTProblem) {
                    try await publishInTurn(key: id, on: connection) { () throws(MQTTProblem) in
                        // Its turn may come after the sink was told to stop: the alert stays
                        // owed rather than go out unrecorded. (Retained topics still go out.)
                        if Task.isCancelled { throw MQTTProblem("stopping") }
                        return messages(queued, at: now())
                    }
                } catch {
                    if Task.isCancelled { return .cancelled }
                    return .retry(String(describing: error), after: nil)
                }
                if [.pregame, .gameStart, .final].contains(queued.event.kind) {
                    lookNow.withLock { $0 = true }
                    changes.fire()
                }
                return .delivered("QoS 1 acknowledged")
            },
            gone: { _ in }, clock: clock)
        worker.settled = settled
        return worker
    }

    /// Connects, then delivers the outbox and keeps the retained topics true until cancelled;
    /// `run`'s sink says `offline` on the way out.
    public func run(settled: @escaping OutboxSettled) async {
        let connection: MQTTConnection
        do { connection = try connect(will: owner) } catch {
            logger.error("MQTT sink off: \(error)", metadata: ["sink": "\(name)"])
            return
        }
        live.withLock { $0 = connection }
        await withDiscardingTaskGroup { group in
            group.addTask { await self.worker(settled).run() }
            group.addTask { await self.maintain(connection) }
        }
        live.withLock { $0 = nil }
        let farewell = owner ? [MQTTMessage(topic: topics.status, payload: "offline", retain: true)] : []
        connection.close(lastWords: unacknowledged.withLock { $0 } + farewell)
        await noteConnection(nil)
    }

    /// The key `run`'s sink keeps its connection's state under, for `doctor`.
    public static func connectionNote(_ sink: String) -> String { "mqtt:\(sink)" }

    /// What `run`'s connection is doing, in the store for `doctor` (other processes' sinks
    /// keep nothing: `run` speaks for the home).
    func noteConnection(_ text: String?) async {
        guard owner, let store = outbox?.store else { return }
        do { try await DaemonState(store: store).note(Self.connectionNote(name), text, at: now()) } catch {
            logger.debug("the connection's state was not recorded", metadata: ["sink": "\(name)", "error": "\(error)"])
        }
    }

    public func settle(timeout: Duration) async -> Bool { await worker().settle(timeout: timeout) }

}
