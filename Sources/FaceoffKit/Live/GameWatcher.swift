import Foundation
import Logging

/// Watches one game: polls its play-by-play on an injected clock, turns snapshots into events,
/// claims each (event, sink) in the ledger, and delivers after the broadcast delay.
public struct GameWatcher<C: Clock>: Sendable where C.Duration == Duration {
    public struct Settings: Sendable {
        public var poll: Duration
        public var pregame: Duration
        public var delay: Duration
        /// The ledger's name for where the events go.
        public var sink: String

        public init(poll: Duration = .seconds(5), pregame: Duration = .seconds(1800), delay: Duration = .zero, sink: String = "stdout") {
            self.poll = max(poll, WatchSettings.minimumPoll)
            self.pregame = pregame
            self.delay = delay
            self.sink = sink
        }

        public init(_ watch: WatchSettings, sink: String = "stdout") {
            self.init(poll: watch.poll, pregame: watch.pregame, delay: watch.delay, sink: sink)
        }
    }

    let gameID: Int
    let scheduledStart: Date?
    let client: NHLClient
    let ledger: Ledger?
    let settings: Settings
    let clock: C
    let now: @Sendable () -> Date
    let logger: Logger
    let deliver: @Sendable (GameEvent) async -> Void
    let onSnapshot: @Sendable (GameSnapshot, [GameEvent]) async -> Void

    public init(
        gameID: Int, scheduledStart: Date?, client: NHLClient, ledger: Ledger?, settings: Settings, clock: C,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "faceoff.watch"),
        deliver: @escaping @Sendable (GameEvent) async -> Void,
        onSnapshot: @escaping @Sendable (GameSnapshot, [GameEvent]) async -> Void = { _, _ in }
    ) {
        self.gameID = gameID
        self.scheduledStart = scheduledStart
        self.client = client
        self.ledger = ledger
        self.settings = settings
        self.clock = clock
        self.now = now
        self.logger = logger
        self.deliver = deliver
        self.onSnapshot = onSnapshot
    }

    /// Runs until the game's final has been delivered (or the task is cancelled).
    public func run() async throws {
        var metadata: Logger.Metadata = ["game": "\(gameID)"]
        if let start = scheduledStart {
            let lead = start.addingTimeInterval(-Double(settings.pregame.components.seconds)).timeIntervalSince(now())
            if lead > 0 {
                logger.info("waiting for the pregame window", metadata: metadata.merging(["seconds": "\(Int(lead))"]) { $1 })
                try await clock.sleep(for: .seconds(lead))
            }
        }
        var detector = EventDetector()
        // First sight of a game in progress gives one summary. Once any alert of this game has
        // gone out (this process before a restart, or another one), everything is derived again
        // and the ledger lets through only what was never delivered.
        var fresh = !((try? ledger?.hasEvents(gameID: gameID)) ?? false)
        var pending: [(due: C.Instant, event: GameEvent)] = []
        var pendingSnapshots: [(due: C.Instant, snapshot: GameSnapshot)] = []
        var failures = 0
        var polls = 0

        while true {
            try Task.checkCancellation()
            var interval = settings.poll
            do {
                polls += 1
                let fetched = try await client.fetch(.playByPlay(gameID), revalidate: true)
                if case .stale(_, let reason) = fetched.origin { throw WatchError("the feed could not be fetched (\(reason))") }
                failures = 0
                let snapshot = GameSnapshot(fetched.value)
                if let schedule = fetched.value.gameScheduleState, schedule.isCancelled || schedule.isPostponed {
                    logger.notice("game not played", metadata: metadata.merging(["schedule_state": "\(schedule)"]) { $1 })
                    throw WatchError.notPlayed(gameID: gameID, state: schedule.rawValue)
                }
                var events: [GameEvent]
                if fresh, snapshot.isFinal || Self.inProgress(snapshot) {
                    // A game first seen over gives its final; one in progress, a summary. What came
                    // before is marked in the ledger as passed over, so no later run sends it.
                    let known = EventDetector.derive(snapshot)
                    events = snapshot.isFinal ? detector.process(snapshot).events.filter { $0.kind == .final } : [detector.join(snapshot)]
                    for event in known where event.kind != .final || !snapshot.isFinal {
                        _ = try? ledger?.claim(event, sink: settings.sink, at: now())
                    }
                } else {
                    let (found, skipped) = detector.process(snapshot)
                    if let skipped { logger.warning("snapshot ignored", metadata: metadata.merging(["why": "\(skipped)"]) { $1 }) }
                    events = found
                }
                fresh = false
                let due = clock.now.advanced(by: settings.delay)
                for event in events { pending.append((due, event)) }
                // The scoreboard waits out the delay too, or it would give the score away.
                pendingSnapshots.append((due, snapshot))
                if detector.state.emitted.contains("\(gameID):final") {
                    metadata["final"] = "\(snapshot.away.abbrev) \(snapshot.away.score)–\(snapshot.home.score) \(snapshot.home.abbrev)"
                    logger.info("game over", metadata: metadata)
                    break
                }
                interval = nextPoll(snapshot)
            } catch let error as WatchError where error.isFinal {
                throw error
            } catch let error as HTTPError where polls == 1 && (error.kind == .notFound || error.status == 404) {
                throw WatchError("no game \(gameID) in the API (\(error))", final: true)
            } catch let error where !(error is CancellationError) {
                failures += 1
                interval = min(.seconds(60), settings.poll * (1 << min(failures, 4)))
                logger.warning("poll failed; trying again", metadata: metadata.merging(["error": "\(error)", "retry_in": "\(interval)"]) { $1 })
            }
            // Deliver what is due, then sleep until the next poll or the next delivery.
            let wake = clock.now.advanced(by: interval)
            while true {
                try await flush(&pending, &pendingSnapshots)
                let nextDue = [pending.map(\.due).min(), pendingSnapshots.map(\.due).min()].compactMap { $0 }.min()
                let next = nextDue.map { min($0, wake) } ?? wake
                if next <= clock.now { break }
                try await clock.sleep(until: next, tolerance: nil)
                if next == wake { break }
            }
        }
        // The final is out: hand over what the delay still holds.
        while !pending.isEmpty || !pendingSnapshots.isEmpty {
            let nextDue = [pending.map(\.due).min(), pendingSnapshots.map(\.due).min()].compactMap { $0 }.min()!
            if nextDue > clock.now { try await clock.sleep(until: nextDue, tolerance: nil) }
            try await flush(&pending, &pendingSnapshots)
        }
    }

    /// Delivers the due alerts in order, each claimed in the ledger just before it goes out
    /// (so an alert lost with the process is delivered after a restart), and shows the due
    /// snapshots.
    private func flush(_ pending: inout [(due: C.Instant, event: GameEvent)], _ snapshots: inout [(due: C.Instant, snapshot: GameSnapshot)]) async throws {
        pending.sort { $0.due < $1.due }
        while let first = pending.first, first.due <= clock.now {
            try Task.checkCancellation()
            pending.removeFirst()
            let claimed = (try? ledger?.claim(first.event, sink: settings.sink, at: now())) ?? true
            if claimed { await deliver(first.event) }
        }
        while let first = snapshots.first, first.due <= clock.now {
            snapshots.removeFirst()
            await onSnapshot(first.snapshot, [])
        }
    }

    /// Polls slow down before the game and through intermissions.
    func nextPoll(_ snapshot: GameSnapshot) -> Duration {
        let start = scheduledStart ?? snapshot.startTime
        if snapshot.state?.isUpcoming ?? false {
            // Once a minute before the start, but never past it.
            guard let start, start > now() else { return max(settings.poll, .seconds(30)) }
            return min(.seconds(60), max(settings.poll, .seconds(start.timeIntervalSince(now()))))
        }
        if snapshot.clock?.inIntermission == true, let left = snapshot.clock?.secondsRemaining, left > 90 {
            // Wake shortly before the intermission clock runs out (at most a few minutes on).
            return max(settings.poll, min(.seconds(left - 60), .seconds(300)))
        }
        return settings.poll
    }

    /// Live and under way long enough that its plays so far are old news.
    static func inProgress(_ snapshot: GameSnapshot) -> Bool {
        guard snapshot.isLive else { return false }
        if (snapshot.period?.number ?? 1) > 1 || snapshot.away.score + snapshot.home.score > 0 { return true }
        let elapsed = snapshot.plays.last.flatMap { ReplayFeed.seconds($0.timeInPeriod) } ?? 0
        return elapsed > 120
    }
}

public struct WatchError: Error, Sendable, CustomStringConvertible {
    public let description: String
    /// Watching can't go on (the game won't be played, or doesn't exist).
    public let isFinal: Bool
    public init(_ description: String, final: Bool = false) {
        self.description = description
        isFinal = final
    }

    static func notPlayed(gameID: Int, state: String) -> WatchError {
        WatchError("game \(gameID) is \(state == "CNCL" ? "cancelled" : "postponed"); nothing to watch", final: true)
    }
}
