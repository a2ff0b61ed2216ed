import FaceoffAPI
import FaceoffBase
import FaceoffNHL
import Foundation
import Logging

/// Watches one game: polls its play-by-play on an injected clock, turns snapshots into events
/// and hands them to the router (which claims, delays and delivers per sink).
public struct GameWatcher<C: Clock>: Sendable where C.Duration == Duration {
    public struct Settings: Sendable {
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

    /// A failed poll in the log: quietly while the daemon's outage says it all.
    static func logFailure(_ error: any Error, retryIn interval: Duration, outage: Outage?, logger: Logger, metadata: Logger.Metadata) {
        let details = metadata.merging(["error": "\(error)", "retry_in": "\(DurationText.log(interval))"]) { $1 }
        if outage != nil, Outage.isUnreachable(error) {
            logger.debug("poll failed; trying again", metadata: details)
        } else {
            logger.warning("poll failed; trying again", metadata: details)
        }
    }

    let gameID: Int
    let scheduledStart: Date?
    let client: APIClient
    let ledger: Ledger?
    let settings: Settings
    let clock: C
    let now: @Sendable () -> Date
    let logger: Logger
    let router: any EventRouting
    let onSnapshot: @Sendable (GameSnapshot, [GameEvent]) async -> Void
    /// Where an unreachable API is reported once (the daemon's); nil: every failed poll is logged.
    let outage: Outage?
    /// A playoff game's series as it stood before the game (from the schedule), for the
    /// `game_start` and `final` alerts.
    let series: SeriesState?

    public init(
        gameID: Int, scheduledStart: Date?, client: APIClient, ledger: Ledger?, settings: Settings, clock: C,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "faceoff.watch"),
        router: any EventRouting, outage: Outage? = nil, series: SeriesState? = nil,
        onSnapshot: @escaping @Sendable (GameSnapshot, [GameEvent]) async -> Void = { _, _ in }
    ) {
        self.outage = outage
        self.series = series
        self.gameID = gameID
        self.scheduledStart = scheduledStart
        self.client = client
        self.ledger = ledger
        self.settings = settings
        self.clock = clock
        self.now = now
        self.logger = logger
        self.router = router
        self.onSnapshot = onSnapshot
    }

    /// Runs until the game's final has been routed (or the task is cancelled).
    public func run() async throws {
        var metadata: Logger.Metadata = ["game": "\(gameID)"]
        if let lead = settings.untilPregame(start: scheduledStart, now: now()) {
            logger.info("waiting for the pregame window", metadata: metadata.merging(["seconds": "\(Int(lead))"]) { $1 })
            try await clock.sleep(for: .seconds(lead))
        }
        var detector = EventDetector()
        // First sight of a game in progress gives one summary. Once any alert of this game has
        // gone out (this process before a restart, or another one), everything is derived again
        // and the ledger lets through only what was never delivered.
        var fresh = !((try? ledger?.hasEvents(gameID: gameID)) ?? false)
        // Snapshots waiting out the scoreboard's delay, with when each was seen.
        var pendingSnapshots: [(seen: C.Instant, snapshot: GameSnapshot)] = []
        var failures = 0
        var polls = 0
        // The pregame reminders sent (their leads in seconds); all of them once the game is on.
        var remindersSent: Set<Int> = []
        // Wall time of the last poll that reached the feed.
        var lastSeen: Date?
        /// The intermission clock at the poll before: one that stopped moving is watched closely.
        var lastBreakClock: Int?

        while true {
            try Task.checkCancellation()
            var interval = settings.poll
            do {
                polls += 1
                let fetched = try await client.fetch(.playByPlay(gameID), revalidate: true)
                if case .stale(_, let reason) = fetched.origin { throw WatchError("the feed could not be fetched (\(reason))") }
                failures = 0
                let seenAt = now()
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
                    await router.passOver(known.filter { $0.kind != .final || !snapshot.isFinal })
                } else {
                    let (found, skipped) = detector.process(snapshot)
                    if let skipped { logger.warning("snapshot ignored", metadata: metadata.merging(["why": "\(skipped)"]) { $1 }) }
                    events = found
                    if let gap = lastSeen.map({ seenAt.timeIntervalSince($0) }), gap >= Self.catchUpGap {
                        events = await catchUp(found, snapshot, &detector, gap: gap, metadata: metadata)
                    }
                }
                lastSeen = seenAt
                if let (reminder, covered) = reminder(snapshot, at: seenAt, sent: remindersSent) {
                    events.insert(reminder, at: 0)
                    remindersSent.formUnion(covered)
                }
                if snapshot.state?.isUpcoming != true { remindersSent.formUnion(settings.reminders.map { Int($0.components.seconds) }) }
                if fresh { try? await ledger?.markSeen(gameID: gameID, at: seenAt) }
                fresh = false
                // Each alert's delay counts from when it was first seen, by this or any process.
                events = events.map { event in
                    var event = withSeries(event)
                    event.seenAt = seenAt
                    return event
                }
                if let ledger, let first = try? await Sightings(store: ledger.store).record(events, at: seenAt) {
                    for index in events.indices { events[index].seenAt = first[events[index].id] ?? seenAt }
                }
                for event in events { router.route(event) }
                // The scoreboard waits out the delay too, or it would give the score away, counted
                // like its alerts: from the first sighting of the newest thing it shows (another
                // process, or this one before a restart, may have seen it earlier), so it is
                // due with that alert; never before the previous snapshot.
                var shown = clock.now
                if let newest = events.compactMap(\.seenAt).max() {
                    shown = shown.advanced(by: .seconds(-max(0, seenAt.timeIntervalSince(newest))))
                }
                if let last = pendingSnapshots.last?.seen, shown < last { shown = last }
                pendingSnapshots.append((shown, snapshot))
                // A delay changed by another process shows in the scoreboard by the next poll
                // at the latest (held alerts take it within a second).
                router.scoreboard?.book.refresh()
                if detector.state.emitted.contains("\(gameID):final") {
                    metadata["final"] = "\(snapshot.away.abbrev) \(snapshot.away.score)–\(snapshot.home.score) \(snapshot.home.abbrev)"
                    logger.info("game over", metadata: metadata)
                    break
                }
                interval = nextPoll(snapshot, breakClockBefore: lastBreakClock)
                lastBreakClock = snapshot.clock?.inIntermission == true ? snapshot.clock?.secondsRemaining : nil
            } catch let error as WatchError where error.isFinal {
                throw error
            } catch let error as APIError where polls == 1 && error.code == .notFound {
                throw WatchError("\(error)", final: true)
            } catch let error where !(error is CancellationError) {
                failures += 1
                interval = settings.afterFailures(failures)
                Self.logFailure(error, retryIn: interval, outage: outage, logger: logger, metadata: metadata)
            }
            // Show the snapshots that are due, then sleep until the next poll or the next one
            // (sooner when the delay changes).
            let wake = clock.now.advanced(by: interval)
            while true {
                let version = router.scoreboard?.book.changed.version
                await flush(&pendingSnapshots)
                let next = pendingSnapshots.first.map { min($0.seen.advanced(by: scoreboardDelay), wake) } ?? wake
                if next <= clock.now { break }
                try await sleep(until: next, changedAfter: version)
                if clock.now >= wake { break }
            }
        }
        // The final is out: show what the delay still holds.
        while let first = pendingSnapshots.first {
            let version = router.scoreboard?.book.changed.version
            let due = first.seen.advanced(by: scoreboardDelay)
            if due > clock.now { try await sleep(until: due, changedAfter: version) }
            await flush(&pendingSnapshots)
        }
    }

    /// How long the scoreboard waits: the delay of the sink it follows, now.
    var scoreboardDelay: Duration { router.scoreboard?.current ?? settings.delay }

    /// Sleeps until `deadline`, or until the scoreboard's delay changes after `version`.
    private func sleep(until deadline: C.Instant, changedAfter version: Int?) async throws {
        if let version, let book = router.scoreboard?.book {
            await book.changed.wait(after: version, until: deadline, on: clock)
            try Task.checkCancellation()
        } else {
            try await clock.sleep(until: deadline, tolerance: nil)
        }
    }

    /// The pregame reminder due at `date`, if any (`PregameReminder.due`).
    func reminder(_ snapshot: GameSnapshot, at date: Date, sent: Set<Int>) -> (event: GameEvent, covered: [Int])? {
        guard snapshot.state?.isUpcoming == true, let start = scheduledStart ?? snapshot.startTime else { return nil }
        return PregameReminder.due(
            start: start, at: date, leads: settings.reminders, sent: sent,
            event: GameEvent(
                kind: .pregame, key: nil, gameId: snapshot.gameId, away: snapshot.away.abbrev, home: snapshot.home.abbrev,
                score: GameEvent.Score(away: 0, home: 0)))
    }

    /// A playoff game's `game_start` says the series before it; its `final`, after it.
    func withSeries(_ event: GameEvent) -> GameEvent {
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

    /// A gap this long (wall time) between two polls that reached the feed means the watcher
    /// was not watching: the machine was suspended, the network was gone, or the clock was
    /// stepped. Shorter gaps (a 30 s stall, a minute of outage) change nothing: a gap of less
    /// than 5 minutes can't hold more than 5 minutes of game play.
    static var catchUpGap: TimeInterval { 300 }
    /// After a gap, what happened within this much game play of the newest play is alerted as
    /// usual; anything older is folded into one summary.
    static var recentPlay: Int { 300 }

    /// After a gap: the events older than `recentPlay` seconds of game play before the newest
    /// play are passed over (the ledger keeps them from ever going out) and summed up in one
    /// `game_joined` event with `caught_up`, sent before the recent ones. The final is always
    /// sent.
    private func catchUp(
        _ found: [GameEvent], _ snapshot: GameSnapshot, _ detector: inout EventDetector, gap: TimeInterval, metadata: Logger.Metadata
    ) async -> [GameEvent] {
        guard
            let newest = snapshot.plays.compactMap({ GameClockTime.seconds(period: $0.periodDescriptor?.number, clock: $0.timeInPeriod) })
                .max()
        else {
            return found
        }
        let old = found.filter { event in
            guard event.kind != .final, let at = GameClockTime.seconds(period: event.period, clock: event.clock) else { return false }
            return at < newest - Self.recentPlay
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

    private func flush(_ snapshots: inout [(seen: C.Instant, snapshot: GameSnapshot)]) async {
        let delay = scoreboardDelay
        while let first = snapshots.first, first.seen.advanced(by: delay) <= clock.now {
            snapshots.removeFirst()
            await onSnapshot(first.snapshot, [])
        }
    }

    /// Polls slow down before the game and through intermissions.
    /// - Parameter breakClockBefore: the intermission's seconds left at the poll before, if it
    ///   was in one.
    func nextPoll(_ snapshot: GameSnapshot, breakClockBefore: Int? = nil) -> Duration {
        let start = scheduledStart ?? snapshot.startTime
        if snapshot.state?.isUpcoming ?? false { return settings.beforeStart(start, now: now()) }
        if snapshot.clock?.inIntermission == true, let left = snapshot.clock?.secondsRemaining, left > 90, left != breakClockBefore {
            // At least once a minute, so the scoreboard's intermission clock keeps moving;
            // at the usual rate for its last minute and a half, or once the clock stands
            // still (the break is over early, or the feed has stopped counting it).
            return max(settings.poll, min(.seconds(left - 60), .seconds(60)))
        }
        return settings.poll
    }

    /// Live and under way long enough that its plays so far are old news.
    static func inProgress(_ snapshot: GameSnapshot) -> Bool {
        guard snapshot.isLive else { return false }
        if (snapshot.period?.number ?? 1) > 1 || snapshot.away.score + snapshot.home.score > 0 { return true }
        let elapsed = snapshot.plays.last.flatMap { GameClockTime.seconds($0.timeInPeriod) } ?? 0
        return elapsed > 120
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

    static func notPlayed(gameID: Int, state: String) -> WatchError {
        WatchError("game \(gameID) is \(state == "CNCL" ? "cancelled" : "postponed"); nothing to watch", final: true)
    }
}
