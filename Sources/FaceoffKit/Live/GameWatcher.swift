import FaceoffAPI
import FaceoffBase
import FaceoffNHL
import Foundation
import Logging

/// How a watcher polls: the rate while live, the pregame reminders (which open its window)
/// and the delay its scoreboard waits out. The same for every league.
public struct WatcherSettings: Sendable {
    public var poll: Duration
    /// The pregame reminders' leads (one `pregame` alert each).
    public var reminders: [Duration]
    /// Watching begins this long before the start: the longest reminder.
    public var pregame: Duration { reminders.max() ?? .zero }
    /// How long snapshots (the scoreboard) wait, so they never give a delayed alert away.
    public var delay: Duration

    public init(poll: Duration = .seconds(5), reminders: [Duration] = [.seconds(1800)], delay: Duration = .zero) {
        self.poll = max(poll, WatchSettings.minimumPoll)
        self.reminders = reminders
        self.delay = delay
    }

    public init(_ watch: WatchSettings) {
        self.init(poll: watch.poll, reminders: watch.reminders, delay: watch.delay)
    }

    /// How long until the pregame window opens (nothing when it has).
    func untilPregame(start: Date?, now: Date) -> TimeInterval? {
        guard let start else { return nil }
        let lead = start.addingTimeInterval(-Double(pregame.components.seconds)).timeIntervalSince(now)
        return lead > 0 ? lead : nil
    }

    /// Before the start: once a minute, but never past it; once the scheduled time has
    /// passed (the start runs late), at the live rate, so the start is seen at once.
    func beforeStart(_ start: Date?, now: Date) -> Duration {
        guard let start else { return max(poll, .seconds(30)) }
        guard start > now else { return poll }
        return min(.seconds(60), max(poll, .seconds(start.timeIntervalSince(now))))
    }

    /// After `failures` polls in a row failed: longer each time, at most a minute.
    func afterFailures(_ failures: Int) -> Duration { min(.seconds(60), poll * (1 << min(failures, 4))) }
}

/// Watches one game of any league (`LiveGame`): polls its feed on an injected clock, turns
/// snapshots into events with the league's detector and hands them to the router (which
/// claims, delays and delivers per sink). The decisions between polls are `WatchLoop`'s.
/// `run`, `watch` and the replay server's clients all watch through it.
public struct GameWatcher<C: Clock, Game: LiveGame>: Sendable where C.Duration == Duration {
    public typealias Settings = WatcherSettings

    /// A failed poll in the log: quietly while the daemon's outage says it all.
    static func logFailure(_ error: any Error, retryIn interval: Duration, outage: Outage?, logger: Logger, metadata: Logger.Metadata) {
        let details = metadata.merging(["error": "\(error)", "retry_in": "\(DurationText.log(interval))"]) { $1 }
        if outage != nil, Outage.isUnreachable(error) {
            logger.debug("poll failed; trying again", metadata: details)
        } else {
            logger.warning("poll failed; trying again", metadata: details)
        }
    }

    let game: Game
    let scheduledStart: Date?
    let ledger: Ledger?
    let settings: Settings
    let clock: C
    let now: @Sendable () -> Date
    let logger: Logger
    let router: any EventRouting
    let onSnapshot: @Sendable (Game.Snapshot, [GameEvent]) async -> Void
    /// Where an unreachable API is reported once (the daemon's); nil: every failed poll is logged.
    let outage: Outage?
    /// A playoff game's series as it stood before the game (from the schedule), for the
    /// `pregame`, `game_start` and `final` alerts.
    let series: SeriesState?
    /// `run`'s schedules (`ScheduleLink`); nil: the game was named by hand, and a 404 at the
    /// first poll ends it.
    let schedule: (any ScheduleLink)?

    var gameID: Int { game.gameID }

    public init(
        game: Game, scheduledStart: Date?, ledger: Ledger?, settings: Settings, clock: C,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "faceoff.watch"),
        router: any EventRouting, outage: Outage? = nil, series: SeriesState? = nil, schedule: (any ScheduleLink)? = nil,
        onSnapshot: @escaping @Sendable (Game.Snapshot, [GameEvent]) async -> Void = { _, _ in }
    ) {
        self.game = game
        self.outage = outage
        self.schedule = schedule
        self.series = series
        self.scheduledStart = scheduledStart
        self.ledger = ledger
        self.settings = settings
        self.clock = clock
        self.now = now
        self.logger = logger
        self.router = router
        self.onSnapshot = onSnapshot
    }

    /// Runs until the game's final has been routed (or the task is cancelled), and returns
    /// that final. The decisions are `WatchLoop`'s; this fetches, detects, routes and sleeps.
    @discardableResult
    public func run() async throws -> GameEvent? {
        var metadata: Logger.Metadata = ["game": "\(game.logName)"]
        if let lead = settings.untilPregame(start: scheduledStart, now: now()) {
            logger.info("waiting for the pregame window", metadata: metadata.merging(["seconds": "\(Int(lead))"]) { $1 })
            try await clock.sleep(for: .seconds(lead))
        }
        var detector = Game.Detector()
        // Once any alert of this game has gone out (this process before a restart, or another
        // one), everything is derived again and the ledger lets through only what was never
        // delivered.
        var loop = WatchLoop<C, Game.Snapshot>(
            settings: settings, delivered: (try? ledger?.hasEvents(gameID: gameID)) ?? false,
            reminded: ledger.flatMap { try? PregameReminder.sent(Sightings(store: $0.store).reminders(gameID: gameID)) })
        /// The break's clock at the poll before: one that stopped moving is watched closely.
        var lastBreakClock: Int?
        /// The series before the game: the schedule's, else the feed's own (read before the
        /// game is over, when its wins are still the ones before it).
        var series = self.series
        var final: GameEvent?

        while true {
            try Task.checkCancellation()
            var interval = settings.poll
            do {
                loop.polling()
                let snapshot = try await game.poll()
                let seenAt = now()
                if let state = snapshot.notPlayed {
                    logger.notice("game not played", metadata: metadata.merging(["state": "\(state)"]) { $1 })
                    throw WatchError("\(game.name) is \(state); nothing to watch", final: true)
                }
                if series == nil, !snapshot.isFinal { series = snapshot.series }
                let reading = loop.reached(at: seenAt, isFinal: snapshot.isFinal, inProgress: snapshot.inProgress)
                var events: [GameEvent]
                if reading.join {
                    // A game first seen over gives its final; one in progress, a summary. What came
                    // before is marked in the ledger as passed over, so no later run sends it.
                    let known = Game.Detector.derive(snapshot)
                    events = snapshot.isFinal ? detector.detect(snapshot).events.filter { $0.kind == .final } : [detector.join(snapshot)]
                    await router.passOver(known.filter { $0.kind != .final || !snapshot.isFinal })
                } else {
                    let (found, skipped) = detector.detect(snapshot)
                    if let skipped { logger.warning("snapshot ignored", metadata: metadata.merging(["why": "\(skipped)"]) { $1 }) }
                    events = found
                    if let gap = reading.catchUp { events = await catchUp(found, snapshot, &detector, gap: gap, metadata: metadata) }
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
                // Each alert's delay counts from when it was first seen, by this or any process.
                events = events.map { event in
                    var event = Self.withSeries(event, series)
                    event.seenAt = seenAt
                    return event
                }
                if let ledger, let first = try? await Sightings(store: ledger.store).record(events, at: seenAt) {
                    for index in events.indices { events[index].seenAt = first[events[index].id] ?? seenAt }
                }
                for event in events { router.route(event) }
                if let over = events.first(where: { $0.kind == .final }) { final = over }
                // The scoreboard waits out the delay too, or it would give the score away, counted
                // like its alerts: from the first sighting of the newest thing it shows (another
                // process, or this one before a restart, may have seen it earlier), so it is
                // due with that alert.
                var shown = clock.now
                if let newest = events.compactMap(\.seenAt).max() {
                    shown = shown.advanced(by: .seconds(-max(0, seenAt.timeIntervalSince(newest))))
                }
                loop.show(snapshot, from: shown)
                // A delay changed by another process shows in the scoreboard by the next poll
                // at the latest (held alerts take it within a second).
                router.scoreboard?.refresh()
                if detector.handedOut.contains("\(gameID):final") {
                    metadata["final"] = "\(snapshot.awayAbbrev) \(snapshot.score.away)–\(snapshot.score.home) \(snapshot.homeAbbrev)"
                    logger.info("game over", metadata: metadata)
                    break
                }
                interval = nextPoll(snapshot, breakClockBefore: lastBreakClock)
                lastBreakClock = snapshot.breakClock
            } catch {
                switch loop.failed(error, listed: { schedule?.lists(gameID) }) {
                case .stop(let error): throw error
                case .retry(let after):
                    interval = after
                    Self.logFailure(error, retryIn: interval, outage: outage, logger: logger, metadata: metadata)
                }
            }
            try await loop.showDue(until: clock.now.advanced(by: interval), clock: clock, scoreboard: router.scoreboard) {
                await onSnapshot($0, [])
            }
        }
        try await loop.showRest(clock: clock, scoreboard: router.scoreboard) { await onSnapshot($0, []) }
        return final
    }

    /// The pregame reminder due at `date`, if any (`PregameReminder.due`).
    func reminder(_ snapshot: Game.Snapshot, at date: Date, sent: Set<Int>, moved: Bool = false) -> (event: GameEvent, covered: [Int])? {
        guard snapshot.isUpcoming, let start = PregameReminder.start(scheduledStart, snapshot.startTime) else { return nil }
        var pregame = GameEvent(
            kind: .pregame, key: nil, gameId: gameID, away: snapshot.awayAbbrev, home: snapshot.homeAbbrev,
            score: GameEvent.Score(away: 0, home: 0))
        pregame.league = game.league
        return PregameReminder.due(start: start, at: date, leads: settings.reminders, sent: sent, event: pregame, moved: moved)
    }

    /// A playoff game's `pregame` and `game_start` say the series before it; its `final`, after it.
    static func withSeries(_ event: GameEvent, _ series: SeriesState?) -> GameEvent {
        guard let series else { return event }
        var event = event
        switch event.kind {
        case .gameStart, .pregame:
            event.series = GameEvent.Series(series)
        case .final:
            if let winner = event.details["winner"], let after = series.after(winner: winner) { event.series = GameEvent.Series(after) }
        default:
            break
        }
        return event
    }

    /// After a gap: the events older than `WatchLoop.recentPlay` seconds of game play before
    /// the newest play are passed over (the ledger keeps them from ever going out) and summed
    /// up in one `game_joined` event with `caught_up`, sent before the recent ones. The final
    /// is always sent.
    private func catchUp(
        _ found: [GameEvent], _ snapshot: Game.Snapshot, _ detector: inout Game.Detector, gap: TimeInterval, metadata: Logger.Metadata
    ) async -> [GameEvent] {
        guard let newest = snapshot.newestPlaySeconds else { return found }
        let old = found.filter { event in
            guard event.kind != .final, let at = Game.Detector.gameSeconds(event) else { return false }
            return at < newest - Double(WatchLoop<C, Game.Snapshot>.recentPlay)
        }
        logger.notice(
            "caught up after a gap",
            metadata: metadata.merging([
                "gap_seconds": "\(Int(gap))", "folded": "\(old.count)", "alerted": "\(found.count - old.count)",
            ]) { $1 })
        guard !old.isEmpty else { return found }
        // What another process on this store already delivered (or passed over) is no news.
        let known = (try? ledger?.knownIDs(gameID: gameID)) ?? []
        await router.passOver(old)
        let folded = Set(old.map(\.id))
        return [detector.caughtUp(snapshot, missed: old.filter { !known.contains($0.id) })] + found.filter { !folded.contains($0.id) }
    }

    /// Polls slow down before the game and through its breaks, as its league has them.
    /// - Parameter breakClockBefore: the break's seconds left at the poll before, if it was in one.
    func nextPoll(_ snapshot: Game.Snapshot, breakClockBefore: Int? = nil) -> Duration {
        if snapshot.isUpcoming { return settings.beforeStart(scheduledStart ?? snapshot.startTime, now: now()) }
        return snapshot.livePoll(settings, breakClockBefore: breakClockBefore)
    }
}

extension GameWatcher where Game == NHLGame {
    /// An NHL game's watcher, by its id.
    public init(
        gameID: Int, scheduledStart: Date?, client: APIClient, ledger: Ledger?, settings: Settings, clock: C,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "faceoff.watch"),
        router: any EventRouting, outage: Outage? = nil, series: SeriesState? = nil, schedule: (any ScheduleLink)? = nil,
        onSnapshot: @escaping @Sendable (GameSnapshot, [GameEvent]) async -> Void = { _, _ in }
    ) {
        self.init(
            game: NHLGame(gameID: gameID, client: client), scheduledStart: scheduledStart, ledger: ledger, settings: settings,
            clock: clock, now: now, logger: logger, router: router, outage: outage, series: series, schedule: schedule,
            onSnapshot: onSnapshot)
    }
}

public struct WatchError: ReportedError, Sendable, CustomStringConvertible {
    public let description: String
    /// Watching can't go on (the game won't be played, or doesn't exist).
    public let isFinal: Bool
    public init(_ description: String, final: Bool = false) {
        self.description = description
        isFinal = final
    }
}
