import FaceoffAPI
import Foundation

/// A watcher's poll loop as decisions: what it has seen of its game so far and, for each
/// poll's outcome, what to do next. It does no I/O and reads no clock (every time is handed
/// in). The game watcher (`GameWatcher`, for every league) drives one: it fetches, detects
/// and routes; it says how to read the poll, when to poll again, which reminders are due and
/// which snapshots the scoreboard may show.
struct WatchLoop<C: Clock, Snapshot>: Sendable where C.Duration == Duration, Snapshot: Sendable {
    /// How to read a poll that reached the feed.
    struct Reading: Equatable {
        /// First sight of a game on or over: one summary (or its final), and what came before
        /// is passed over.
        var join: Bool
        /// The wall time since the last poll that reached the feed, when it is a gap long
        /// enough (`catchUpGap`) to fold what was missed into one summary.
        var catchUp: TimeInterval?
        /// Nothing of this game was seen before, by this process or another (the ledger is told).
        var firstSight: Bool
    }

    /// What to do after a failed poll.
    enum AfterFailure {
        /// Watching can't go on: the error ends the watcher.
        case stop(any Error)
        /// Poll again after this long.
        case retry(after: Duration)
    }

    let settings: WatcherSettings
    /// Nothing of this game went out yet (no alert, by this process before a restart or by
    /// another one), so a game first seen in progress or over is joined.
    private(set) var fresh: Bool
    private(set) var polls = 0
    /// Failed polls in a row.
    private(set) var failures = 0
    /// The pregame reminders sent (their leads in seconds); all of them once the game is on.
    private(set) var remindersSent: Set<Int> = []
    /// The start the reminders sent were for, and whether they were re-armed by a move.
    private var remindedStart: Date?
    private var rearmed = false
    /// Wall time of the last poll that reached the feed.
    private(set) var lastSeen: Date?
    /// Snapshots waiting out the scoreboard's delay, each with the instant its delay counts
    /// from; in order, never earlier than the one before.
    private(set) var pending: [(shown: C.Instant, snapshot: Snapshot)] = []

    /// A gap this long (wall time) between two polls that reached the feed means the watcher
    /// was not watching: the machine was suspended, the network was gone, or the clock was
    /// stepped. Shorter gaps (a 30 s stall, a minute of outage) change nothing: a gap of less
    /// than 5 minutes can't hold more than 5 minutes of game play.
    static var catchUpGap: TimeInterval { 300 }

    /// After a gap, what happened within this much game play of the newest play is alerted as
    /// usual; anything older is folded into one summary.
    static var recentPlay: Int { 300 }

    /// - Parameter delivered: whether any alert of this game has gone out already (the ledger).
    /// - Parameter reminded: the reminders that went out before (`PregameReminder.sent`): a
    ///   lead counts as sent when one as short or shorter was, and a game moved since is
    ///   reminded again as if this process had seen the move.
    init(settings: WatcherSettings, delivered: Bool, reminded: PregameReminder.Sent? = nil) {
        self.settings = settings
        fresh = !delivered
        if let reminded, let shortest = reminded.leads.min() {
            remindedStart = reminded.start
            remindersSent = Set(settings.reminders.map { Int($0.components.seconds) }.filter { $0 >= shortest })
            rearmed = reminded.moved
        }
    }

    /// A poll begins.
    mutating func polling() { polls += 1 }

    /// A poll reached the feed at `seenAt` and found the game over (`isFinal`) or under way
    /// long enough that its plays so far are old news (`inProgress`).
    mutating func reached(at seenAt: Date, isFinal: Bool, inProgress: Bool) -> Reading {
        failures = 0
        let gap = lastSeen.map { seenAt.timeIntervalSince($0) }
        let reading = Reading(
            join: fresh && (isFinal || inProgress), catchUp: gap.flatMap { $0 >= Self.catchUpGap ? $0 : nil }, firstSight: fresh)
        lastSeen = seenAt
        fresh = false
        return reading
    }

    /// What a poll's look at the reminders gives: the reminder due now, if any, and whether
    /// the game's start moved (the schedule is worth asking for, for its `schedule_change`).
    struct Reminding {
        var event: GameEvent?
        var moved = false
    }

    /// The pregame reminder due now, if any: `due` is asked with the leads already sent while
    /// the game is upcoming; once it is not, every reminder counts as sent. When the feed's
    /// `start` moved `movedStart` or more later than the latest one the reminders went out
    /// for, they are due again (`due` is told, for the new reminders' keys), and the move is
    /// said once (a feed flapping between two starts re-arms once).
    mutating func reminder(
        upcoming: Bool, start: Date? = nil, _ due: (_ sent: Set<Int>, _ moved: Bool) -> (event: GameEvent, covered: [Int])?
    ) -> Reminding {
        guard upcoming else {
            remindersSent.formUnion(settings.reminders.map { Int($0.components.seconds) })
            return Reminding()
        }
        var reminding = Reminding()
        if let start, let before = remindedStart, !remindersSent.isEmpty, start.timeIntervalSince(before) >= Self.movedStart {
            remindersSent = []
            rearmed = true
            reminding.moved = true
        }
        if let start { remindedStart = max(remindedStart ?? start, start) }
        if let (event, covered) = due(remindersSent, rearmed) {
            remindersSent.formUnion(covered)
            reminding.event = event
        }
        return reminding
    }

    /// A start moved this much later (or more) after reminders went out re-arms them.
    static var movedStart: TimeInterval { 300 }

    /// A poll failed with `error`: stop when watching can't go on, else poll again later each
    /// time, up to a minute. Watching can't go on when the game won't be played, or when the
    /// feed has no such game (404) and no schedule says otherwise: `listed`, asked only then,
    /// is nil for a game named by hand (a 404 at the first poll ends it), else whether the
    /// schedule still lists the game (a CDN edge that answers 404 for a scheduled game is
    /// retried, for as long as the schedule lists it).
    mutating func failed(_ error: any Error, listed: () -> Bool? = { nil }) -> AfterFailure {
        if error is CancellationError { return .stop(error) }
        if let error = error as? WatchError, error.isFinal { return .stop(error) }
        if let error = error as? APIError, error.code == .notFound {
            switch listed() {
            case nil where polls == 1: return .stop(WatchError("\(error)", final: true))
            case false?: return .stop(WatchError("\(error), and the schedule no longer lists the game", final: true))
            default: break
            }
        }
        failures += 1
        return .retry(after: settings.afterFailures(failures))
    }

    /// A snapshot for the scoreboard, its delay counted from `shown` (never before the
    /// previous snapshot's, so snapshots show in order).
    mutating func show(_ snapshot: Snapshot, from shown: C.Instant) {
        var shown = shown
        if let last = pending.last?.shown, shown < last { shown = last }
        pending.append((shown, snapshot))
    }

    /// The snapshots whose delay is over at `now`, in order; they leave the queue.
    mutating func due(at now: C.Instant, delay: Duration) -> [Snapshot] {
        var due: [Snapshot] = []
        while let first = pending.first, first.shown.advanced(by: delay) <= now {
            pending.removeFirst()
            due.append(first.snapshot)
        }
        return due
    }

    /// When to wake next: at `wake` (the next poll), or sooner when a snapshot comes due.
    func nextWake(_ wake: C.Instant, delay: Duration) -> C.Instant {
        pending.first.map { min($0.shown.advanced(by: delay), wake) } ?? wake
    }
}

// The loop's waits: the one place a watcher sleeps between polls.
extension WatchLoop {
    /// Shows the snapshots that come due until `wake` (the next poll), sleeping in between; a
    /// change of the scoreboard's delay (`faceoff delay`, watch's keys) wakes it to look again.
    mutating func showDue(
        until wake: C.Instant, clock: C, scoreboard: (any ScoreboardDelay)?, show: (Snapshot) async -> Void
    ) async throws {
        while true {
            let version = scoreboard?.changed.version
            for snapshot in due(at: clock.now, delay: delay(scoreboard)) { await show(snapshot) }
            let next = nextWake(wake, delay: delay(scoreboard))
            if next <= clock.now { return }
            try await Self.sleep(until: next, clock: clock, scoreboard: scoreboard, changedAfter: version)
            if clock.now >= wake { return }
        }
    }

    /// Once the final is out: shows what the delay still holds, each when it comes due.
    mutating func showRest(clock: C, scoreboard: (any ScoreboardDelay)?, show: (Snapshot) async -> Void) async throws {
        while let first = pending.first {
            let version = scoreboard?.changed.version
            let due = first.shown.advanced(by: delay(scoreboard))
            if due > clock.now { try await Self.sleep(until: due, clock: clock, scoreboard: scoreboard, changedAfter: version) }
            for snapshot in self.due(at: clock.now, delay: delay(scoreboard)) { await show(snapshot) }
        }
    }

    /// How long the scoreboard waits: the delay of the sink it follows, now.
    func delay(_ scoreboard: (any ScoreboardDelay)?) -> Duration { scoreboard?.current ?? settings.delay }

    /// Sleeps until `deadline`, or until the scoreboard's delay changes after `version`.
    private static func sleep(until deadline: C.Instant, clock: C, scoreboard: (any ScoreboardDelay)?, changedAfter version: Int?)
        async throws
    {
        if let version, let scoreboard {
            await scoreboard.changed.wait(after: version, until: deadline, on: clock)
            try Task.checkCancellation()
        } else {
            try await clock.sleep(until: deadline, tolerance: nil)
        }
    }
}
