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
        var list: [(name: String, delay: Duration)] = config.sinks.isEmpty
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

    let store: Store?
    public let configured: [(name: String, delay: Duration)]
    private let changes = Mutex<[String: Change]>([:])
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
        return changes.withLock { Self.effective($0[sink], configured: configured) }
    }

    static func effective(_ change: Change?, configured: Duration) -> Duration {
        guard let change, change.configured == configured else { return configured }
        return change.delay
    }

    public var entries: [Entry] {
        let changes = changes.withLock { $0 }
        return configured.map { name, delay in
            let change = changes[name].flatMap { $0.configured == delay ? $0 : nil }
            return Entry(sink: name, configured: delay, current: change?.delay ?? delay, changedAt: change?.at)
        }
    }

    /// Reads the changes from the store (a small table: cheap enough to do every second);
    /// true, and `changed` fired, when a delay in effect is not what it was.
    @discardableResult
    public func refresh() -> Bool {
        guard let store else { return false }
        // A store too old to have the table (read-only, for status) has no changes.
        let rows = try? store.read { db in
            try Row.fetchAll(db, sql: "SELECT sink, delay_ms, configured_ms, set_at FROM delay_change").map { row in
                (sink: row["sink"] as String, change: Change(
                    delay: .milliseconds(row["delay_ms"] as Int64), configured: .milliseconds(row["configured_ms"] as Int64),
                    at: Date(timeIntervalSince1970: row["set_at"])))
            }
        }
        guard let rows else { return false }
        return replace(Dictionary(rows.map { ($0.sink, $0.change) }) { _, last in last })
    }

    private func replace(_ new: [String: Change]) -> Bool {
        let before = entries.map(\.current)
        changes.withLock { $0 = new }
        let moved = before != entries.map(\.current)
        if moved { changed.fire() }
        return moved
    }

    /// Sets the delays of these sinks (clamped to 0...maximum), for every process on the store.
    public func set(_ delays: [String: Duration], at date: Date) async throws(StoreError) {
        var new = changes.withLock { $0 }
        for (sink, delay) in delays {
            guard let configured = configuredDelay(sink) else { continue }
            new[sink] = Change(delay: Self.clamp(delay), configured: configured, at: date)
        }
        if let store {
            let rows = delays.keys.compactMap { sink in new[sink].map { (sink, $0) } }
            try await store.write { db in
                for (sink, change) in rows {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO delay_change (sink, delay_ms, configured_ms, set_at) VALUES (?, ?, ?, ?)",
                        arguments: [sink, change.delay.milliseconds, change.configured.milliseconds, change.at.timeIntervalSince1970])
                }
            }
        }
        _ = replace(new)
    }

    /// Moves the delays of these sinks (default: all) by `step`.
    public func adjust(by step: Duration, sinks: [String]? = nil, at date: Date) async throws(StoreError) {
        let names = sinks ?? configured.map(\.name)
        try await set(Dictionary(names.map { ($0, delay(for: $0) + step) }, uniquingKeysWith: { first, _ in first }), at: date)
    }

    /// Back to the configured delays for these sinks (default: all).
    public func reset(sinks: [String]? = nil) async throws(StoreError) {
        let names = sinks ?? configured.map(\.name)
        var new = changes.withLock { $0 }
        for name in names { new[name] = nil }
        if let store {
            try await store.write { db in
                for name in names { try db.execute(sql: "DELETE FROM delay_change WHERE sink = ?", arguments: [name]) }
            }
        }
        _ = replace(new)
    }

    /// Forgets the changes made against another configured delay (the config has changed
    /// since): they no longer apply, and a config changed back must not revive them.
    public func forgetStale() async {
        guard let store else { return }
        let stale = changes.withLock { changes in
            configured.filter { name, delay in changes[name].map { $0.configured != delay } ?? false }.map(\.name)
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
    }

    /// Sets these sinks' delay (default: all) to the time since Faceoff first saw the latest
    /// goal (one seen in the last `syncWindow`): the moment the stream shows it.
    public func sync(sinks: [String]? = nil, now date: Date) async throws(StoreError) -> SyncResult {
        guard let store, let goal = try Sightings(store: store).latest(.goal, since: date.addingTimeInterval(-Self.syncWindow.inSeconds))
        else { return .noRecentGoal }
        let delay = Self.clamp(.seconds(max(0, date.timeIntervalSince(goal.seenAt)).rounded()))
        let names = sinks ?? configured.map(\.name)
        try await set(Dictionary(names.map { ($0, delay) }, uniquingKeysWith: { first, _ in first }), at: date)
        return .synced(delay, goal: goal.id)
    }

    static func clamp(_ delay: Duration) -> Duration { min(max(delay, .zero), maximum) }
}

extension Duration {
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}

/// A change any number of tasks wait for: `fire` ends every wait begun before it.
public final class ChangeSignal: Sendable {
    private struct State {
        var version = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var next = 0
        var cancelled: Set<Int> = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Counts the changes so far: a wait from this version ends at the next one.
    public var version: Int { state.withLock { $0.version } }

    public func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.version += 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns at the first change after `version`, at `deadline` on `clock`, or when the task
    /// is cancelled, whichever is first.
    public func wait<C: Clock>(after version: Int, until deadline: C.Instant, on clock: C) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(until: deadline, tolerance: nil) }
            group.addTask { await self.next(after: version) }
            await group.next()
            group.cancelAll()
        }
    }

    private func next(after version: Int) async {
        let id = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.version != version || state.cancelled.remove(id) != nil { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                state.cancelled.insert(id)
                return nil
            }
            waiter?.resume()
        }
    }
}

/// The delays as `faceoff delay --json` and `status --json` show them
/// (docs/json/delay.schema.json).
public struct DelayReport: Encodable, Sendable, Equatable {
    public struct Sink: Encodable, Sendable, Equatable {
        public var sink: String
        /// In effect now.
        public var delaySeconds: Int
        /// What the config says.
        public var configuredSeconds: Int
        /// When it was changed while watching; absent while the configured delay applies.
        public var changedAt: Date?
    }

    public var sinks: [Sink]

    public init(_ book: DelayBook) {
        sinks = book.entries.map {
            Sink(sink: $0.sink, delaySeconds: Int($0.current.components.seconds), configuredSeconds: Int($0.configured.components.seconds),
                 changedAt: $0.changedAt)
        }
    }
}
