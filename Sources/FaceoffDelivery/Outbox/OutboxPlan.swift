import FaceoffBase
import FaceoffKit
import Foundation

/// The outbox loop's decisions, without I/O: what to do with the sink's head row, and what a
/// failed attempt means for the next one. `OutboxWorker.run` reads the store, does what the
/// plan says and tells it what came of it.
struct OutboxPlan {
    /// A receiver failing since `since` (this process's first failed attempt at it), with
    /// `later` attempts made past the schedule's early part.
    struct Outage: Equatable {
        var since: Date
        var later = 0
    }

    enum Step: Equatable {
        /// Nothing owed: look again after the schedule's idle check, or when a row is queued.
        case idle
        /// The receiver took it but its removal failed (a full disk): remove it, never send it.
        case removeTaken(Outbox.Item)
        /// Past its expiry: drop it; `say` the first time only.
        case expire(Outbox.Item, say: Bool)
        /// The head waits its next attempt, and everything behind it too (order is kept);
        /// `wakeable`: a new alert for the sink cuts the wait short.
        case wait(Duration, wakeable: Bool)
        case attempt(Outbox.Item)
    }

    /// After a failed attempt: try again at `at`, or (`expire`) the next try would come after
    /// the alert's expiry. `wait` is how long, for the log.
    enum Retry: Equatable {
        case retry(at: Date, wait: Duration)
        case expire(wait: Duration)
    }

    let schedule: RetrySchedule
    /// What a previous run left owed is tried at once on start: how long ago its last attempt
    /// failed is not a reason to wait now.
    private(set) var resumed = false
    private(set) var outage: Outage?
    /// A new alert came in while the head waited early in an outage: try the head now.
    private var retryNow = false
    /// The receiver asked for a wait (429, Retry-After): a new alert doesn't cut it short.
    private var askedToWait = false
    /// Rows already said to have expired: a row the store can't remove is said once.
    private var expired: Set<Int64> = []
    /// Rows the receiver took whose removal failed: never sent again.
    private var taken: Set<Int64> = []

    init(schedule: RetrySchedule) { self.schedule = schedule }

    mutating func next(_ head: Outbox.Item?, now: Date) -> Step {
        guard let item = head else {
            // Nothing owed: whatever failed before is over.
            outage = nil
            return .idle
        }
        if taken.contains(item.id) { return .removeTaken(item) }
        if item.expiresAt <= now {
            outage = nil
            return .expire(item, say: expired.insert(item.id).inserted)
        }
        if resumed, !retryNow, item.nextAttemptAt > now {
            let early = !askedToWait && outage.map { schedule.isEarly(.seconds(now.timeIntervalSince($0.since))) } ?? false
            return .wait(.seconds(item.nextAttemptAt.timeIntervalSince(now)), wakeable: early)
        }
        resumed = true
        retryNow = false
        return .attempt(item)
    }

    /// A wait ended: `woken` when a new alert cut it short.
    mutating func waited(woken: Bool) { retryNow = woken }

    mutating func delivered() { outage = nil }
    package mutating func refused() { outage = nil }
    /// The receiver took `item` but the store could not record it.
    mutating func deliveredUnrecorded(_ item: Outbox.Item) { taken.insert(item.id) }

    /// A failed attempt at `item` at `now`; `after` is a wait the receiver asked for.
    mutating func failed(_ item: Outbox.Item, after: Duration?, now: Date) -> Retry {
        var failing = outage ?? Outage(since: now)
        let age = Duration.seconds(now.timeIntervalSince(failing.since))
        let wait = max(after ?? .zero, schedule.delay(age: age, later: failing.later))
        if !schedule.isEarly(age) { failing.later += 1 }
        outage = failing
        askedToWait = after != nil
        let at = now.addingTimeInterval(wait.inSeconds)
        guard at < item.expiresAt else {
            expired.insert(item.id)
            return .expire(wait: wait)
        }
        return .retry(at: at, wait: wait)
    }
}
