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
    /// `run`'s schedules (`GameWatcher.schedule`).
    let schedule: (any ScheduleLink)?

    public init(
        gameID: Int, scheduledStart: Date?, client: APIClient, ledger: Ledger?, settings: GameWatcher<C>.Settings, clock: C,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "faceoff.watch"), router: any EventRouting,
        outage: Outage? = nil, schedule: (any ScheduleLink)? = nil,
        onSnapshot: @escaping @Sendable (NBASnapshot) async -> Void = { _ in }
    ) {
        self.schedule = schedule
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

    /// Runs until the game's final has been routed (or the task is cancelled). The decisions
    /// are `WatchLoop`'s, as for the NHL; this fetches, detects, routes and sleeps.
    public func run() async throws {
        let metadata: Logger.Metadata = ["game": "nba:\(gameID)"]
        if let lead = settings.untilPregame(start: scheduledStart, now: now()) {
            logger.info("waiting for the pregame window", metadata: metadata.merging(["seconds": "\(Int(lead))"]) { $1 })
            try await clock.sleep(for: .seconds(lead))
        }
        var detector = NBAEventDetector()
        var loop = WatchLoop<C, NBASnapshot>(
            settings: settings, delivered: (try? ledger?.hasEvents(gameID: gameID)) ?? false,
            reminded: ledger.flatMap { try? PregameReminder.sent(Sightings(store: $0.store).reminders(gameID: gameID)) })
        while true {
            try Task.checkCancellation()
            var interval = settings.poll
            do {
                loop.polling()
                let fetched = try await client.fetch(.nbaSummary(gameID), revalidate: true)
                if case .stale(_, let reason) = fetched.origin { throw WatchError("the summary could not be fetched (\(reason))") }
                let seenAt = now()
                let snapshot = NBASnapshot(fetched.value)
                if snapshot.state == "postponed" || snapshot.state == "cancelled" {
                    logger.notice("game not played", metadata: metadata.merging(["state": "\(snapshot.state)"]) { $1 })
                    throw WatchError("NBA game \(gameID) is \(snapshot.state); nothing to watch", final: true)
                }
                let reading = loop.reached(at: seenAt, isFinal: snapshot.isFinal, inProgress: Self.inProgress(snapshot))
                var events: [GameEvent]
                if reading.join {
                    // First sight of a game on or over: its final, or one summary; what came
                    // before is passed over, so no later run sends it.
                    let known = NBAEventDetector.derive(snapshot)
                    events = snapshot.isFinal ? detector.process(snapshot).filter { $0.kind == .final } : [detector.join(snapshot)]
                    await router.passOver(known.filter { $0.kind != .final })
                } else {
                    events = detector.process(snapshot)
                    if let gap = reading.catchUp { events = await catchUp(events, snapshot, &detector, gap: gap, metadata: metadata) }
                }
                let reminding = loop.reminder(
                    upcoming: snapshot.isUpcoming, start: PregameReminder.start(scheduledStart, snapshot.startTime),
                    { reminder(snapshot, at: seenAt, sent: $0, moved: $1) })
                if let reminder = reminding.event { events.insert(reminder, at: 0) }
                if reminding.moved {
                    logger.notice("the game's start moved; reminders again, and the schedule asked", metadata: metadata)
                    schedule?.moved(gameID)
                }
                if reading.firstSight { try? await ledger?.markSeen(gameID: gameID, at: seenAt) }
                for index in events.indices { events[index].seenAt = seenAt }
                if let ledger, let first = try? await Sightings(store: ledger.store).record(events, at: seenAt) {
                    for index in events.indices { events[index].seenAt = first[events[index].id] ?? seenAt }
                }
                for event in events { router.route(event) }
                // The scoreboard waits out the delay too, so it never gives an alert away.
                loop.show(snapshot, from: clock.now)
                if detector.emitted.contains("\(gameID):final") {
                    logger.info(
                        "game over",
                        metadata: metadata.merging([
                            "final": "\(snapshot.away.abbrev) \(snapshot.away.score)–\(snapshot.home.score) \(snapshot.home.abbrev)"
                        ]) { $1 })
                    break
                }
                interval = nextPoll(snapshot)
            } catch {
                switch loop.failed(error, listed: { schedule?.lists(gameID) }) {
                case .stop(let error): throw error
                case .retry(let after):
                    interval = after
                    GameWatcher<C>.logFailure(error, retryIn: interval, outage: outage, logger: logger, metadata: metadata)
                }
            }
            try await loop.showDue(until: clock.now.advanced(by: interval), clock: clock, scoreboard: router.scoreboard) {
                await onSnapshot($0)
            }
        }
        try await loop.showRest(clock: clock, scoreboard: router.scoreboard) { await onSnapshot($0) }
    }

    /// The pregame reminder due at `date`, if any (`PregameReminder.due`).
    func reminder(_ snapshot: NBASnapshot, at date: Date, sent: Set<Int>, moved: Bool = false) -> (event: GameEvent, covered: [Int])? {
        guard let start = PregameReminder.start(scheduledStart, snapshot.startTime) else { return nil }
        var pregame = GameEvent(
            kind: .pregame, key: nil, gameId: gameID, away: snapshot.away.abbrev, home: snapshot.home.abbrev,
            score: GameEvent.Score(away: 0, home: 0))
        pregame.league = .nba
        return PregameReminder.due(start: start, at: date, leads: settings.reminders, sent: sent, event: pregame, moved: moved)
    }

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
