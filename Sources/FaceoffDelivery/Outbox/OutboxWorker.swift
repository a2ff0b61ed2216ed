import FaceoffBase
import FaceoffKit
import Foundation
import Logging

/// What one attempt at delivering an outbox row came to.
package enum OutboxAttempt: Sendable {
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
package struct OutboxWorker: Sendable {
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
    /// When the sink holds its alerts (a mute, quiet hours): then nothing queued is sent either,
    /// but a digest and what `passesHold` lets through (a correction that edits a message the
    /// sink showed before, as the router lets it through).
    let hold: SinkHold?
    let passesHold: @Sendable (_ eventID: String) -> Bool
    /// Told what became of each row: said before the row leaves the store, so that a row gone
    /// from the store that this process never settled was another process's to deliver.
    package var settled: OutboxSettled = { _, _ in }

    /// Waits until nothing is owed for this sink (or `timeout` passes); true when nothing is.
    /// The outbox is read from the store every 50 ms of real time: other processes deliver
    /// its rows too, so the store is the only place that knows (a poll, not one of the
    /// worker's waits).
    package func settle(timeout: Duration) async -> Bool {
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
    /// disabled (a 410). What to do next is the plan's (`OutboxPlan`); this does it.
    package func run() async {
        guard let outbox else { return }
        let lease = lease.inSeconds
        var plan = OutboxPlan(schedule: schedule)
        // The store refused a lease or a removal last time (logged once until it works again).
        var storeFailing = false
        // The receiver failed the last attempt: a failing spell is said once when it begins
        // (a warning) and once when the sink delivers again; the tries between are debug.
        var receiverFailing = false
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
            let head: Outbox.Item?
            do { head = try outbox.head(sink: name) } catch {
                logger.error("cannot read the outbox; trying again", metadata: ["sink": "\(name)", "error": "\(error)"])
                await pause(schedule.idleCheck)
                continue
            }
            let current = now()
            let item: Outbox.Item
            switch plan.next(head, now: current) {
            case .idle:
                await pause(schedule.idleCheck)
                continue
            case .removeTaken(let taken):
                if (try? await outbox.delivered(taken)) == nil { await pause(schedule.idleCheck, wakeable: false) }
                continue
            case .expire(let expired, let say):
                if say {
                    settled(expired, .failed("expired undelivered"))
                    logger.error(
                        "alert expired undelivered",
                        metadata: [
                            "sink": "\(name)", "event": "\(expired.eventID)", "attempts": "\(expired.attempts)",
                            "last_error": "\(expired.lastError ?? "-")",
                        ])
                }
                do {
                    try await outbox.drop(expired)
                    storeFailing = false
                } catch {
                    await storeRefused("cannot remove an expired alert from the outbox; trying again", expired, error)
                }
                continue
            case .wait(let duration, let wakeable):
                plan.waited(woken: await pause(duration, wakeable: wakeable))
                continue
            case .attempt(let head):
                item = head
            }
            // Muted or quiet: what was queued before is not sent now either. A `drop` sink drops
            // it (claimed already, so an unmute never replays it); a `digest` sink keeps it until
            // the hold ends, unless it expires first. The hold is looked at again every second
            // (a mute typed in another process ends it): the row, and the digest queued behind
            // it, go within a second of the end.
            if let hold, item.kind != GameEvent.Kind.digest.rawValue, !passesHold(item.eventID),
                let reason = holdReason(hold, at: current, outbox: outbox)
            {
                guard hold.held == .drop else {
                    await pause(.seconds(1), wakeable: false)
                    continue
                }
                settled(item, .held("dropped: the sink is \(reason.text(in: hold.zone))"))
                do {
                    try await outbox.drop(item)
                    storeFailing = false
                    logger.info(
                        "queued alert dropped: the sink is \(reason.text(in: hold.zone))",
                        metadata: ["sink": "\(name)", "event": "\(item.eventID)"])
                } catch {
                    await storeRefused("cannot drop a held alert from the outbox; trying again", item, error)
                }
                continue
            }
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
                // The router's line already said it was queued: only the first delivery after
                // a failing spell is news at info.
                plan.delivered()
                settled(item, .delivered(detail))
                logger.log(
                    level: receiverFailing ? .info : .debug,
                    receiverFailing ? "delivering again" : item.attempts > 0 ? "alert delivered after retrying" : "alert delivered",
                    metadata: metadata.merging(["status": "\(detail)"]) { $1 })
                receiverFailing = false
                do { try await outbox.delivered(item) } catch {
                    plan.deliveredUnrecorded(item)
                    logger.error(
                        "cannot record a delivery in the store; it will not be sent again",
                        metadata: metadata.merging(["error": "\(error)"]) { $1 })
                }
            case .cancelled:
                // Stopping: the row stays, unleased and uncounted, for the next start.
                try? await outbox.release(item)
                return
            case .retry(let why, let after):
                switch plan.failed(item, after: after, now: now()) {
                case .expire(let wait):
                    settled(item, .failed("expired undelivered: \(why)"))
                    logger.error("alert expired undelivered", metadata: metadata.merging(["error": "\(why)"]) { $1 })
                    // Not removed (a full disk): no attempt before the wait is out.
                    if (try? await outbox.drop(item)) == nil { await pause(wait, wakeable: false) }
                case .retry(let at, let wait):
                    logger.log(
                        level: receiverFailing ? .debug : .warning,
                        receiverFailing ? "delivery failed; will retry" : "delivery failing; alerts wait in the outbox and are retried",
                        metadata: metadata.merging(["error": "\(why)", "retry_in": "\(DurationText.log(wait))"]) { $1 })
                    receiverFailing = true
                    // Even if the store can't take the new time, never hammer the receiver.
                    if (try? await outbox.retry(item, at: at, error: why)) == nil { await pause(wait, wakeable: false) }
                }
            case .refused(let why):
                plan.refused()
                settled(item, .failed("refused: \(why)"))
                logger.error("receiver refused the alert; not retrying", metadata: metadata.merging(["error": "\(why)"]) { $1 })
                try? await outbox.drop(item)
            case .gone(let why):
                settled(item, .failed("the receiver is gone: \(why)"))
                await gone(why)
                let dropped = (try? await outbox.dropAll(sink: name)) ?? 0
                logger.warning(
                    "sink disabled: the receiver is gone", metadata: metadata.merging(["error": "\(why)", "dropped": "\(dropped)"]) { $1 })
                return
            }
        }
    }

    /// Why the sink holds alerts at `date`, as the router judges it; a store that can't be read
    /// holds nothing back (better an alert too many than a missed one).
    private func holdReason(_ hold: SinkHold, at date: Date, outbox: Outbox) -> HoldReason? {
        let mute = (try? Holds(store: outbox.store).mutes(at: date))?.first { $0.sink == name }
        return hold.reason(mute: mute, at: date)
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

    package init(
        name: String, outbox: Outbox?, schedule: RetrySchedule, lease: Duration, wake: WakeSignal, now: @escaping @Sendable () -> Date,
        logger: Logger, disabledReason: @escaping @Sendable () -> String?,
        attempt: @escaping @Sendable (_ id: String, _ body: [UInt8]) async -> OutboxAttempt,
        gone: @escaping @Sendable (_ why: String) async -> Void, clock: any Clock<Duration> = ContinuousClock(), hold: SinkHold? = nil,
        passesHold: @escaping @Sendable (_ eventID: String) -> Bool = { _ in false }
    ) {
        self.name = name
        self.outbox = outbox
        self.schedule = schedule
        self.lease = lease
        self.wake = wake
        self.now = now
        self.logger = logger
        self.disabledReason = disabledReason
        self.attempt = attempt
        self.gone = gone
        self.clock = clock
        self.hold = hold
        self.passesHold = passesHold
    }
}

extension OutboxAttempt {
    /// Anything but delivered.
    var isFailure: Bool {
        if case .delivered = self { return false }
        return true
    }
}
