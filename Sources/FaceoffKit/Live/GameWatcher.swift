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
        let saved = (try? ledger?.loadState(gameID: gameID)) ?? nil
        var detector = EventDetector(state: saved ?? EventDetector.State())
        // Resuming (a restart, or another process already alerted this game): report everything
        // not yet claimed. First sight of a game in progress: one summary instead.
        var fresh = saved == nil && !((try? ledger?.hasEvents(gameID: gameID)) ?? false)
        var pending: [(due: C.Instant, event: GameEvent)] = []
        var failures = 0

        while true {
            try Task.checkCancellation()
            var interval = settings.poll
            do {
                let fetched = try await client.fetch(.playByPlay(gameID), revalidate: true)
                if case .stale(_, let reason) = fetched.origin { throw WatchError("the feed could not be fetched (\(reason))") }
                failures = 0
                let snapshot = GameSnapshot(fetched.value)
                var events: [GameEvent]
                if fresh, snapshot.isFinal {
                    // A game already over: just its final.
                    events = detector.process(snapshot).events.filter { $0.kind == .final }
                } else if fresh, Self.inProgress(snapshot) {
                    events = [detector.join(snapshot)]
                } else {
                    let (found, skipped) = detector.process(snapshot)
                    if let skipped { logger.warning("snapshot ignored", metadata: metadata.merging(["why": "\(skipped)"]) { $1 }) }
                    events = found
                }
                fresh = false
                if !events.isEmpty { try? ledger?.saveState(detector.state, gameID: gameID, at: now()) }
                for event in events {
                    let claimed = (try? ledger?.claim(event, sink: settings.sink, at: now())) ?? true
                    if claimed { pending.append((clock.now.advanced(by: settings.delay), event)) }
                }
                await onSnapshot(snapshot, events)
                if detector.state.emitted.contains("\(gameID):final") {
                    metadata["final"] = "\(snapshot.away.abbrev) \(snapshot.away.score)–\(snapshot.home.score) \(snapshot.home.abbrev)"
                    logger.info("game over", metadata: metadata)
                    break
                }
                interval = nextPoll(snapshot)
            } catch let error where !(error is CancellationError) {
                failures += 1
                interval = min(.seconds(60), settings.poll * (1 << min(failures, 4)))
                logger.warning("poll failed; trying again", metadata: metadata.merging(["error": "\(error)", "retry_in": "\(interval)"]) { $1 })
            }
            // Deliver what is due, then sleep until the next poll or the next delivery.
            let wake = clock.now.advanced(by: interval)
            while true {
                pending.sort { $0.due < $1.due }
                while let first = pending.first, first.due <= clock.now {
                    pending.removeFirst()
                    await deliver(first.event)
                }
                let next = pending.first.map { min($0.due, wake) } ?? wake
                if next <= clock.now { break }
                try await clock.sleep(until: next, tolerance: nil)
                if next == wake { break }
            }
        }
        // The final is out: hand over what the delay still holds.
        for entry in pending.sorted(by: { $0.due < $1.due }) {
            if entry.due > clock.now { try await clock.sleep(until: entry.due, tolerance: nil) }
            await deliver(entry.event)
        }
    }

    /// Polls slow down before the game and through intermissions.
    func nextPoll(_ snapshot: GameSnapshot) -> Duration {
        if snapshot.state?.isUpcoming ?? false, let start = scheduledStart, start > now() {
            return .seconds(60)
        }
        if snapshot.clock?.inIntermission == true, let left = snapshot.clock?.secondsRemaining, left > 90 {
            // Wake shortly before the intermission clock runs out.
            return max(settings.poll, .seconds(left - 60))
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
    public init(_ description: String) { self.description = description }
}
