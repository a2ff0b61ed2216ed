import Foundation
import Logging

/// What one attempt at delivering an outbox row came to.
enum OutboxAttempt: Sendable {
    case delivered(String)
    case cancelled
    case retry(String, after: Duration?)
    case refused(String)
    /// The receiver is gone for good (a webhook's 410): the sink is disabled.
    case gone(String)
}

/// A durable sink's outbox worker (webhooks; exec sinks with `retry = true`): takes the
/// sink's rows in order, leases each so that no two processes send it, retries on the
/// schedule until the alert expires, and gives up for good on a refusal or when the receiver
/// is gone.
struct OutboxWorker: Sendable {
    let name: String
    let outbox: Outbox?
    let schedule: RetrySchedule
    /// How long a row is leased for one attempt: longer than an attempt can take, or another
    /// process could start the same delivery while this one's is still under way.
    let lease: Duration
    /// Fired when a row is queued: the worker looks at once.
    let wake: WakeSignal
    let now: @Sendable () -> Date
    let logger: Logger
    /// Why the sink is off, if it is.
    let disabledReason: @Sendable () -> String?
    /// One delivery of a row's body.
    let attempt: @Sendable (_ id: String, _ body: [UInt8]) async -> OutboxAttempt
    /// The receiver is gone: turn the sink off.
    let gone: @Sendable (_ why: String) async -> Void
    /// What its waits (between attempts, for new rows) sleep on; `now` is the same time as a
    /// date. Tests run the retry schedule on a test clock.
    var clock: any Clock<Duration> = ContinuousClock()

    /// A receiver failing since `since` (this process's first failed attempt at it), with
    /// `later` attempts made past the schedule's early part.
    struct Outage {
        var since: Date
        var later = 0
    }

    /// Waits until nothing is owed for this sink (or `timeout` passes); true when nothing is.
    /// The outbox is read from the store every 50 ms of real time: other processes deliver
    /// its rows too, so the store is the only place that knows (a poll, not one of the
    /// worker's waits).
    func settle(timeout: Duration) async -> Bool {
        guard let outbox else { return true }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if disabledReason() != nil { return true }
            // A store that can't be read can't say nothing is owed: keep asking.
            if (try? outbox.pending(sink: name))?.isEmpty == true { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return (try? outbox.pending(sink: name))?.isEmpty == true
    }

    /// Delivers the sink's rows, oldest first, until the task is cancelled or the sink is
    /// disabled (a 410).
    func run() async {
        guard let outbox else { return }
        let lease = lease.inSeconds
        // What a previous run left owed is tried at once on start: how long ago its last
        // attempt failed is not a reason to wait now.
        var resumed = false
        // Rows the receiver took whose deletion failed (a full disk): never sent again.
        var taken: Set<Int64> = []
        // The store refused a lease or a removal last time (logged once until it works again).
        var storeFailing = false
        // Rows already logged as expired: a row the store can't remove is said once.
        var expired: Set<Int64> = []
        // The receiver has been failing since; nil while it answers.
        var outage: Outage?
        // A new alert came in while the head waited early in an outage: try the head now.
        var retryNow = false
        // The receiver asked for a wait (429, Retry-After): a new alert doesn't cut it short.
        var askedToWait = false
        // A full or read-only disk refused a change to the row: it stays, and is looked at
        // again when the store may take it, said once until the store works again.
        func storeRefused(_ what: String, _ item: Outbox.Item, _ error: any Error) async {
            if !storeFailing {
                logger.error(
                    "\(what) until the store can be written",
                    metadata: ["sink": "\(name)", "event": "\(item.eventID)", "error": "\(error)"])
            }
            storeFailing = true
            await pause(schedule.idleCheck, wakeable: false)
        }
        while !Task.isCancelled {
            if disabledReason() != nil { return }
            let item: Outbox.Item?
            do { item = try outbox.head(sink: name) } catch {
                logger.error("cannot read the outbox; trying again", metadata: ["sink": "\(name)", "error": "\(error)"])
                await pause(schedule.idleCheck)
                continue
            }
            guard let item else {
                // Nothing owed: whatever failed before is over.
                outage = nil
                await pause(schedule.idleCheck)
                continue
            }
            if taken.contains(item.id) {
                if (try? await outbox.delivered(item)) == nil { await pause(schedule.idleCheck, wakeable: false) }
                continue
            }
            let current = now()
            if item.expiresAt <= current {
                outage = nil
                if expired.insert(item.id).inserted {
                    logger.error(
                        "alert expired undelivered",
                        metadata: [
                            "sink": "\(name)", "event": "\(item.eventID)", "attempts": "\(item.attempts)",
                            "last_error": "\(item.lastError ?? "-")",
                        ])
                }
                do {
                    try await outbox.drop(item)
                    storeFailing = false
                } catch {
                    await storeRefused("cannot remove an expired alert from the outbox; trying again", item, error)
                }
                continue
            }
            if resumed, !retryNow, item.nextAttemptAt > current {
                // The head waits, and so does everything behind it: order is kept. Early in an
                // outage a new alert for the sink cuts the wait short.
                let early = !askedToWait && outage.map { schedule.isEarly(.seconds(current.timeIntervalSince($0.since))) } ?? false
                retryNow = await pause(.seconds(item.nextAttemptAt.timeIntervalSince(current)), wakeable: early)
                continue
            }
            resumed = true
            retryNow = false
            do {
                guard try await outbox.lease(item, until: current.addingTimeInterval(lease), now: current) else {
                    // Another process is delivering it.
                    await pause(.seconds(1), wakeable: false)
                    continue
                }
                storeFailing = false
            } catch {
                // Sending without a lease could send it twice: it waits in the outbox.
                await storeRefused("cannot take the next alert from the outbox; it waits there", item, error)
                continue
            }
            // Rows queued before this attempt are no news to the wait after it.
            wake.clear()
            let outcome = await attempt(item.eventID, item.body)
            let metadata: Logger.Metadata = ["sink": "\(name)", "event": "\(item.eventID)", "attempt": "\(item.attempts + 1)"]
            switch outcome {
            case .delivered(let detail):
                // The router's line already said it was queued: only a delivery after failed
                // attempts is news at info.
                let retried = item.attempts > 0
                outage = nil
                logger.log(
                    level: retried ? .info : .debug, retried ? "alert delivered after retrying" : "alert delivered",
                    metadata: metadata.merging(["status": "\(detail)"]) { $1 })
                do { try await outbox.delivered(item) } catch {
                    taken.insert(item.id)
                    logger.error(
                        "cannot record a delivery in the store; it will not be sent again",
                        metadata: metadata.merging(["error": "\(error)"]) { $1 })
                }
            case .cancelled:
                // Stopping: the row stays, unleased and uncounted, for the next start.
                try? await outbox.release(item)
                return
            case .retry(let why, let after):
                var failing = outage ?? Outage(since: current)
                let age = Duration.seconds(now().timeIntervalSince(failing.since))
                let wait = max(after ?? .zero, schedule.delay(age: age, later: failing.later))
                if !schedule.isEarly(age) { failing.later += 1 }
                outage = failing
                askedToWait = after != nil
                let at = now().addingTimeInterval(wait.inSeconds)
                if at >= item.expiresAt {
                    logger.error("alert expired undelivered", metadata: metadata.merging(["error": "\(why)"]) { $1 })
                    expired.insert(item.id)
                    // Not removed (a full disk): no attempt before the wait is out.
                    if (try? await outbox.drop(item)) == nil { await pause(wait, wakeable: false) }
                } else {
                    logger.warning(
                        "delivery failed; will retry",
                        metadata: metadata.merging(["error": "\(why)", "retry_in": "\(DurationText.log(wait))"]) { $1 })
                    // Even if the store can't take the new time, never hammer the receiver.
                    if (try? await outbox.retry(item, at: at, error: why)) == nil { await pause(wait, wakeable: false) }
                }
            case .refused(let why):
                outage = nil
                logger.error("receiver refused the alert; not retrying", metadata: metadata.merging(["error": "\(why)"]) { $1 })
                try? await outbox.drop(item)
            case .gone(let why):
                await gone(why)
                let dropped = (try? await outbox.dropAll(sink: name)) ?? 0
                logger.warning(
                    "sink disabled: the receiver is gone", metadata: metadata.merging(["error": "\(why)", "dropped": "\(dropped)"]) { $1 })
                return
            }
        }
    }

    /// Sleeps, or, when `wakeable`, until a new row is queued (then returns true).
    @discardableResult
    private func pause(_ duration: Duration, wakeable: Bool = true) async -> Bool {
        guard wakeable else {
            try? await clock.sleep(for: duration)
            return false
        }
        return await wake.wait(timeout: duration, on: clock)
    }
}

extension OutboxAttempt {
    /// Anything but delivered.
    var isFailure: Bool {
        if case .delivered = self { return false }
        return true
    }
}
