import FaceoffBase
import FaceoffKit
import FaceoffStore
import Foundation
import GRDB
import Synchronization

/// The broadcast delay in effect at each sink: its configured `delay` (else `[watch] delay`),
/// unless it was changed while watching (`faceoff delay`, the keys of `watch`'s scoreboard).
/// A change is kept in the store, so every process on it takes it, and holds until a reset or
/// until the config's delay for that sink changes. The one place that says which delay applies.
public final class DelayBook: Sendable {
    public struct Entry: Sendable, Equatable {
        public var sink: String
        public var configured: Duration
        public var current: Duration
        /// When it was changed; nil while the configured delay applies.
        public var changedAt: Date?
    }

    struct Change: Sendable, Equatable {
        var delay: Duration
        var configured: Duration
        var at: Date
    }

    /// How far back `sync` looks for the goal the stream just showed.
    public static let syncWindow: Duration = .seconds(180)
    /// The longest delay a change may set: far more than any stream lags.
    public static let maximum: Duration = .seconds(6 * 3600)

    /// The sinks `run` and `watch` may deliver to, by name, with their configured delays: the
    /// config's `[[sink]]`s (with none, `run`'s defaults: notify and log), and `watch`'s
    /// terminal, `stdout`, unless a stdout sink is configured. What `faceoff delay` lists.
    public static func sinks(of config: Config) -> [(name: String, delay: Duration)] {
        let fallback = config.watch.delay
        var list: [(name: String, delay: Duration)] =
            config.sinks.isEmpty
            ? [("notify", fallback), ("log", fallback)]
            : config.sinks.map { ($0.displayName, $0.delay ?? fallback) }
        if !config.sinks.contains(where: { $0.type == .stdout }) { list.insert(("stdout", fallback), at: 0) }
        var seen: Set<String> = []
        return list.filter { seen.insert($0.name).inserted }
    }

    /// The sink the scoreboard (and the status line's live game) follows: a configured stdout
    /// sink, else watch's terminal.
    public static func scoreboardSink(of config: Config) -> String {
        config.sinks.first { $0.type == .stdout }?.displayName ?? "stdout"
    }

    package let store: Store?
    public let configured: [(name: String, delay: Duration)]
    /// The changes as last read or made, and how many this process made: a read from the
    /// store that began before a change made here is dropped rather than undoing it.
    private let state = Mutex<(changes: [String: Change], generation: Int)>(([:], 0))
    /// Fired whenever a delay in effect changes.
    public let changed = ChangeSignal()

    /// - Parameter store: where changes are kept and read; nil keeps them in this process
    ///   (replay, demo).
    public init(configured: [(name: String, delay: Duration)], store: Store?) {
        self.configured = configured
        self.store = store
        refresh()
    }

    public convenience init(config: Config, store: Store?) {
        self.init(configured: Self.sinks(of: config), store: store)
    }

    func configuredDelay(_ sink: String) -> Duration? { configured.first { $0.name == sink }?.delay }

    /// The delay in effect at `sink` (a sink the book doesn't know: `fallback`).
    public func delay(for sink: String, fallback: Duration = .zero) -> Duration {
        guard let configured = configuredDelay(sink) else { return fallback }
        return state.withLock { Self.effective($0.changes[sink], configured: configured) }
    }

    static func effective(_ change: Change?, configured: Duration) -> Duration {
        guard let change, change.configured == configured else { return configured }
        return change.delay
    }

    public var entries: [Entry] { entries(state.withLock { $0.changes }) }

    private func entries(_ changes: [String: Change]) -> [Entry] {
        configured.map { name, delay in
            let change = changes[name].flatMap { $0.configured == delay ? $0 : nil }
            return Entry(sink: name, configured: delay, current: change?.delay ?? delay, changedAt: change?.at)
        }
    }

    /// Reads the changes from the store (a small table: cheap enough to do every second);
    /// true, and `changed` fired, when a delay in effect is not what it was.
    @discardableResult
    public func refresh() -> Bool {
        guard let store else { return false }
        let generation = state.withLock { $0.generation }
        // A store too old to have the table (read-only, for status) has no changes.
        let rows = try? store.read { db in
            try Row.fetchAll(db, sql: "SELECT sink, delay_ms, configured_ms, set_at FROM delay_change").map { row in
                (
                    sink: row["sink"] as String,
                    change: Change(
                        delay: .milliseconds(row["delay_ms"] as Int64), configured: .milliseconds(row["configured_ms"] as Int64),
                        at: Date(timeIntervalSince1970: row["set_at"]))
                )
            }
        }
        guard let rows else { return false }
        let read = Dictionary(rows.map { ($0.sink, $0.change) }) { _, last in last }
        return update { state in
            guard state.generation == generation else { return }
            state.changes = read
        }
    }

    /// Changes the state under its lock; true, and `changed` fired, when a delay in effect moved.
    private func update(_ body: (inout (changes: [String: Change], generation: Int)) -> Void) -> Bool {
        let moved = state.withLock { state -> Bool in
            let before = entries(state.changes).map(\.current)
            body(&state)
            return before != entries(state.changes).map(\.current)
        }
        if moved { changed.fire() }
        return moved
    }

    /// Sets the delays of these sinks (clamped to 0...maximum), for every process on the store.
    public func set(_ delays: [String: Duration], at date: Date) async throws(StoreError) {
        let rows = delays.compactMap { sink, delay in
            configuredDelay(sink).map { (sink, Change(delay: Self.clamp(delay), configured: $0, at: date)) }
        }
        if let store {
            try await store.write { db in
                for (sink, change) in rows {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO delay_change (sink, delay_ms, configured_ms, set_at) VALUES (?, ?, ?, ?)",
                        arguments: [sink, change.delay.milliseconds, change.configured.milliseconds, change.at.timeIntervalSince1970])
                }
            }
        }
        _ = update { state in
            for (sink, change) in rows { state.changes[sink] = change }
            state.generation += 1
        }
    }

    /// Moves the delays of these sinks (default: all) by `step`.
    public func adjust(by step: Duration, sinks: [String]? = nil, at date: Date) async throws(StoreError) {
        let names = sinks ?? configured.map(\.name)
        try await set(Dictionary(names.map { ($0, delay(for: $0) + step) }, uniquingKeysWith: { first, _ in first }), at: date)
    }

    /// Back to the configured delays for these sinks (default: all).
    public func reset(sinks: [String]? = nil) async throws(StoreError) {
        let names = sinks ?? configured.map(\.name)
        if let store {
            try await store.write { db in
                for name in names { try db.execute(sql: "DELETE FROM delay_change WHERE sink = ?", arguments: [name]) }
            }
        }
        _ = update { state in
            for name in names { state.changes[name] = nil }
            state.generation += 1
        }
    }

    /// Forgets the changes made against another configured delay (the config has changed
    /// since): they no longer apply, and a config changed back must not revive them.
    public func forgetStale() async {
        guard let store else { return }
        let stale = state.withLock { state in
            configured.filter { name, delay in state.changes[name].map { $0.configured != delay } ?? false }.map(\.name)
        }
        guard !stale.isEmpty else { return }
        _ = try? await store.write { db in
            for name in stale { try db.execute(sql: "DELETE FROM delay_change WHERE sink = ?", arguments: [name]) }
        }
        refresh()
    }

    public enum SyncResult: Sendable, Equatable {
        /// The new delay: the time since the goal was first seen.
        case synced(Duration, goal: String)
        case noRecentGoal
        /// Goals of several games in the window, and no game named: which stream is it?
        case severalGames([Int])
        /// The latest goal's game is over (its final seen): a delay measured on it would be
        /// the next game's, which another stream may show at another lag.
        case gameOver(Int, goal: String)
    }

    /// Sets these sinks' delay (default: all) to the time since Faceoff first saw the latest
    /// goal (one seen in the last `syncWindow`) of `games` (default: any, if only one game
    /// had one): the moment the stream shows it.
    public func sync(sinks: [String]? = nil, games: Set<Int>? = nil, now date: Date) async throws(StoreError) -> SyncResult {
        guard let store else { return .noRecentGoal }
        let goals = try Sightings(store: store).recent(.goal, since: date.addingTimeInterval(-Self.syncWindow.inSeconds))
            .filter { games?.contains($0.game) ?? true }
        var seen: [Int] = []
        for goal in goals where !seen.contains(goal.game) { seen.append(goal.game) }
        if games == nil, seen.count > 1 { return .severalGames(seen) }
        guard let goal = goals.first else { return .noRecentGoal }
        let label = goal.label ?? "the goal \(goal.id)"
        if try Sightings(store: store).recent(.final, since: goal.seenAt).contains(where: { $0.game == goal.game }) {
            return .gameOver(goal.game, goal: label)
        }
        let delay = Self.clamp(.seconds(max(0, date.timeIntervalSince(goal.seenAt)).rounded()))
        let names = sinks ?? configured.map(\.name)
        try await set(Dictionary(names.map { ($0, delay) }, uniquingKeysWith: { first, _ in first }), at: date)
        return .synced(delay, goal: label)
    }

    static func clamp(_ delay: Duration) -> Duration { min(max(delay, .zero), maximum) }
}

extension Duration {
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
