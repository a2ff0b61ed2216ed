import FaceoffHTTP
import FaceoffKit
import FaceoffStore
import Foundation

/// Where alerts go. A sink reports what happened; it never throws into the router, so one
/// broken place never holds up the others.
public protocol Sink: Sendable {
    /// The name the ledger and the logs know it by (`name`, else its type).
    var name: String { get }
    func send(_ event: GameEvent) async -> Delivery
    /// Background work that outlives one `send` (a webhook's outbox); runs until cancelled.
    func run() async
    /// At most once: the ledger's claim is final before the send, so a crash in between means
    /// never rather than twice (an exec sink without `retry`: a horn played twice is worse
    /// than one missed). Otherwise (the default) twice rather than never.
    var atMostOnce: Bool { get }
}

extension Sink {
    public func run() async {}
    public var atMostOnce: Bool { false }
}

/// A sink whose deliveries are owed durably: `enqueue` claims the event in the ledger and
/// records it, in one transaction, and `run` delivers.
public protocol DurableSink: Sink {
    /// Queues the alert in the store; throws when the store can't take it.
    func enqueue(_ event: GameEvent, at date: Date) async throws(StoreError) -> Delivery
    /// Waits until nothing is owed (or `timeout` passes); true when nothing is.
    func settle(timeout: Duration) async -> Bool
    /// Whether deliveries go through the outbox (an exec sink only with `retry = true`).
    var isDurable: Bool { get }
    /// `run()`, telling `settled` what became of each row this process took from the outbox:
    /// delivered (and the receiver's answer), refused, expired, or dropped by a hold.
    func run(settled: @escaping OutboxSettled) async
}

/// What became of one alert a durable sink had queued.
public typealias OutboxSettled = @Sendable (_ item: Outbox.Item, _ delivery: Delivery) -> Void

extension DurableSink {
    public var isDurable: Bool { true }
    /// Delivers its outbox, telling no one what became of each row.
    public func run() async { await run(settled: { _, _ in }) }
}

/// A sink that keeps a state beside its alerts (MQTT's team states): an alert held back by a
/// mute or quiet hours still moves the state on.
public protocol StateKeepingSink: Sink {
    /// Whether `event` is an alert here (else it only moves the state on).
    func isAlert(_ event: GameEvent) -> Bool
    /// Moves the state on for an alert held back (claimed for the sink already).
    func keepState(_ event: GameEvent, at date: Date) async
}

/// A sink that can edit a message it showed (a goal's), so that a correction there is no new
/// alert: it goes through a mute or quiet hours, setting the first message right.
public protocol EditingSink: Sink {
    /// Whether `event` would only edit a message this sink already showed.
    func edits(_ event: GameEvent) -> Bool
}

/// What happened to one alert at one sink.
public enum Delivery: Sendable, Equatable, CustomStringConvertible {
    case delivered(String)
    /// In the outbox; the sink delivers it (and retries) on its own.
    case queued
    /// Claimed before, by this or another process.
    case duplicate
    case skipped(String)
    case failed(String)
    /// Held back by a mute or quiet hours (why, and whether it waits for the digest).
    case held(String)

    public var description: String {
        switch self {
        case .delivered(let detail): return detail.isEmpty ? "delivered" : "delivered (\(detail))"
        case .queued: return "queued for delivery"
        case .duplicate: return "already sent"
        case .skipped(let why): return "skipped: \(why)"
        case .failed(let why): return "failed: \(why)"
        case .held(let why): return "held: \(why)"
        }
    }

    public var isFailure: Bool {
        switch self {
        case .failed, .skipped: return true
        default: return false
        }
    }
}

/// Which events a sink wants: its kinds, the games of its teams, and anything its players do.
public struct SinkFilter: Sendable, Equatable {
    /// nil: every kind but the opt-in ones (`GameEvent.Kind.optIn`).
    public var kinds: Set<GameEvent.Kind>?
    public var teams: Set<String>
    public var players: Set<Int>

    public init(kinds: Set<GameEvent.Kind>? = nil, teams: Set<String>, players: Set<Int> = []) {
        self.kinds = kinds
        self.teams = teams
        self.players = players
    }

    /// - Parameter defaultTeams: the followed teams, plus any `faceoff watch` was asked for.
    /// - Parameter defaultPlayers: the followed players (top-level `players`), for a sink
    ///   that lists none of its own: their goals and points alert in any game watched.
    public init(_ config: SinkConfig, defaultTeams: Set<String>, defaultPlayers: Set<Int> = []) {
        kinds = config.events.map(Set.init)
        teams = config.teams.map(Set.init) ?? defaultTeams
        players = config.players.isEmpty ? defaultPlayers : Set(config.players)
    }

    /// Teams are keyed as the config writes them (`TOR`, `nba:LAL`); a player's milestone is
    /// for the fans of that player's team, or of that player, not of the other team.
    public func matches(_ event: GameEvent) -> Bool {
        guard kinds?.contains(event.kind) ?? !GameEvent.Kind.optIn.contains(event.kind) else { return false }
        if event.kind == .milestone {
            if let team = event.team, teams.contains(event.followKey(team)) { return true }
        } else if event.isGame(of: teams) {
            return true
        }
        return event.players.contains { players.contains($0.id) }
    }
}
