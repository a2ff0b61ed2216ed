import FaceoffAPI
import FaceoffBase
import FaceoffESPN
import Foundation
import Logging

/// Watches one NBA game: polls ESPN's summary on an injected clock, turns snapshots into
/// basketball events and hands them to the router, as `GameWatcher` does for the NHL (the
/// same settings, ledger, sightings, join-in-progress, catch-up after a gap and reminders).
public struct NBAGameWatcher<C: Clock>: Sendable where C.Duration == Duration {
    let gameID: Int
    let scheduledStart: Date?
    let client: APIClient
    let ledger: Ledger?
    let settings: GameWatcher<C>.Settings
    let clock: C
    let now: @Sendable () -> Date
    let logger: Logger
    let router: any EventRouting
    let outage: Outage?
    let onSnapshot: @Sendable (NBASnapshot) async -> Void

    public init(
        gameID: Int, scheduledStart: Date?, client: APIClient, ledger: Ledger?, settings: GameWatcher<C>.Settings, clock: C,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "faceoff.watch"), router: any EventRouting,
        outage: Outage? = nil, onSnapshot: @escaping @Sendable (NBASnapshot) async -> Void = { _ in }
    ) {
        self.gameID = gameID
        self.scheduledStart = scheduledStart
        self.client = client
        self.ledger = ledger
        self.settings = settings
        self.clock = clock
        self.now = now
        self.logger = logger
        self.router = router
        self.outage = outage
        self.onSnapshot = onSnapshot
    }

    /// Runs until the game's final has been routed (or the task is cancelled).
    public func run() async throws {
        let metadata: Logger.Metadata = ["game": "nba:\(gameID)"]
        if let lead = settings.untilPregame(start: scheduledStart, now: now()) {
            logger.info("waiting for the pregame window", metadata: metadata.merging(["seconds": "\(Int(lead))"]) { $1 })
            try await clock.sleep(for: .seconds(lead))
        }
        var detector = NBAEventDetector()
        var fresh = !((try? ledger?.hasEvents(gameID: gameID)) ?? false)
        var pending: [(seen: C.Instant, snapshot: NBASnapshot)] = []
        var failures = 0
        var polls = 0
        var remindersSent: Set<Int> = []
        // Wall time of the last poll that reached the summary.
        var lastSeen: Date?
        while true {
            try Task.checkCancellation()
            var interval = settings.poll
            do {
                polls += 1
                let fetched = try await client.fetch(.nbaSummary(gameID), revalidate: true)
                if case .stale(_, let reason) = fetched.origin { throw WatchError("the summary could not be fetched (\(reason))") }
                failures = 0
                let seenAt = now()
                let snapshot = NBASnapshot(fetched.value)
                if snapshot.state == "postponed" || snapshot.state == "cancelled" {
                    logger.notice("game not played", metadata: metadata.merging(["state": "\(snapshot.state)"]) { $1 })
                    throw WatchError("NBA game \(gameID) is \(snapshot.state); nothing to watch", final: true)
                }
                var events: [GameEvent]
                if fresh, snapshot.isFinal || Self.inProgress(snapshot) {
                    // First sight of a game on or over: its final, or one summary; what came
                    // before is passed over, so no later run sends it.
                    let known = NBAEventDetector.derive(snapshot)
                    events = snapshot.isFinal ? detector.process(snapshot).filter { $0.kind == .final } : [detector.join(snapshot)]
                    await router.passOver(known.filter { $0.kind != .final })
                } else {
                    events = detector.process(snapshot)
                    if let gap = lastSeen.map({ seenAt.timeIntervalSince($0) }), gap >= GameWatcher<C>.catchUpGap {
                        events = await catchUp(events, snapshot, &detector, gap: gap, metadata: metadata)
                    }
                }
                lastSeen = seenAt
                if snapshot.isUpcoming, let start = scheduledStart ?? snapshot.startTime {
                    var pregame = GameEvent(
                        kind: .pregame, key: nil, gameId: gameID, away: snapshot.away.abbrev, home: snapshot.home.abbrev,
                        score: GameEvent.Score(away: 0, home: 0))
                    pregame.league = .nba
                    if let (reminder, covered) = PregameReminder.due(
                        start: start, at: seenAt, leads: settings.reminders, sent: remindersSent, event: pregame)
                    {
                        events.insert(reminder, at: 0)
                        remindersSent.formUnion(covered)
                    }
                } else {
                    remindersSent.formUnion(settings.reminders.map { Int($0.components.seconds) })
                }
                if fresh { try? await ledger?.markSeen(gameID: gameID, at: seenAt) }
                fresh = false
                for index in events.indices { events[index].seenAt = seenAt }
                if let ledger, let first = try? await Sightings(store: ledger.store).record(events, at: seenAt) {
                    for index in events.indices { events[index].seenAt = first[events[index].id] ?? seenAt }
                }
                for event in events { router.route(event) }
                // The scoreboard waits out the delay too, so it never gives an alert away.
                pending.append((clock.now, snapshot))
                if detector.emitted.contains("\(gameID):final") {
                    logger.info(
                        "game over",
                        metadata: metadata.merging([
                            "final": "\(snapshot.away.abbrev) \(snapshot.away.score)–\(snapshot.home.score) \(snapshot.home.abbrev)"
                        ]) { $1 })
                    break
                }
                interval = nextPoll(snapshot)
            } catch let error as WatchError where error.isFinal {
                throw error
            } catch let error as APIError where polls == 1 && error.code == .notFound {
                throw WatchError("\(error)", final: true)
            } catch let error where !(error is CancellationError) {
                failures += 1
                interval = settings.afterFailures(failures)
                GameWatcher<C>.logFailure(error, retryIn: interval, outage: outage, logger: logger, metadata: metadata)
            }
            let wake = clock.now.advanced(by: interval)
            while true {
                await flush(&pending)
                let next = pending.first.map { min($0.seen.advanced(by: scoreboardDelay), wake) } ?? wake
                if next <= clock.now { break }
                try await clock.sleep(until: next, tolerance: nil)
                if clock.now >= wake { break }
            }
        }
        while let first = pending.first {
            let due = first.seen.advanced(by: scoreboardDelay)
            if due > clock.now { try await clock.sleep(until: due, tolerance: nil) }
            await flush(&pending)
        }
    }

    var scoreboardDelay: Duration { router.scoreboard?.current ?? settings.delay }

    /// After a gap (a suspend, a long outage): what happened more than
    /// `GameWatcher.recentPlay` game seconds before the newest play is passed over and summed
    /// up in one `game_joined` with `caught_up`, sent first; the final always goes out.
    private func catchUp(
        _ found: [GameEvent], _ snapshot: NBASnapshot, _ detector: inout NBAEventDetector, gap: TimeInterval, metadata: Logger.Metadata
    ) async -> [GameEvent] {
        guard let newest = snapshot.plays.last.map({ NBAPeriod.gameSeconds(period: $0.period, remaining: $0.remaining) }) else {
            return found
        }
        let old = found.filter { event in
            guard event.kind != .final, let at = NBAEventDetector.gameSeconds(event) else { return false }
            return at < newest - Double(GameWatcher<C>.recentPlay)
        }
        logger.notice(
            "caught up after a gap",
            metadata: metadata.merging(["gap_seconds": "\(Int(gap))", "folded": "\(old.count)", "alerted": "\(found.count - old.count)"]) {
                $1
            })
        guard !old.isEmpty else { return found }
        let known = (try? ledger?.knownIDs(gameID: gameID)) ?? []
        await router.passOver(old)
        let folded = Set(old.map(\.id))
        return [detector.caughtUp(snapshot, missed: old.filter { !known.contains($0.id) })] + found.filter { !folded.contains($0.id) }
    }

    private func flush(_ snapshots: inout [(seen: C.Instant, snapshot: NBASnapshot)]) async {
        let delay = scoreboardDelay
        while let first = snapshots.first, first.seen.advanced(by: delay) <= clock.now {
            snapshots.removeFirst()
            await onSnapshot(first.snapshot)
        }
    }

    /// Before the start once a minute (never past it; at the live rate once it has passed);
    /// at halftime and between quarters at least every 30 s; else `[watch] poll`.
    func nextPoll(_ snapshot: NBASnapshot) -> Duration {
        if snapshot.isUpcoming { return settings.beforeStart(scheduledStart ?? snapshot.startTime, now: now()) }
        return snapshot.atBreak ? max(settings.poll, .seconds(30)) : settings.poll
    }

    /// Live and under way long enough that its plays so far are old news.
    static func inProgress(_ snapshot: NBASnapshot) -> Bool {
        guard snapshot.isLive else { return false }
        if (snapshot.period ?? 1) > 1 || snapshot.away.score + snapshot.home.score > 0 { return true }
        return (snapshot.plays.last?.remaining).map { NBAPeriod.length(1) - $0 > 120 } ?? false
    }
}
