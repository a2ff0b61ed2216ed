import FaceoffBase
import FaceoffKit
import Foundation
import Logging
import Synchronization

/// One sink with its filter and its configured broadcast delay.
public struct SinkRoute: Sendable {
    public var sink: any Sink
    public var filter: SinkFilter
    /// The alert waits this long after it is first seen, unless the router's `DelayBook`
    /// says otherwise (a delay changed while watching).
    public var delay: Duration
    /// Its quiet hours and what becomes of held alerts (a mute is in the store).
    public var hold: SinkHold

    public init(sink: any Sink, filter: SinkFilter, delay: Duration = .zero, hold: SinkHold = SinkHold()) {
        self.sink = sink
        self.filter = filter
        self.delay = delay
        self.hold = hold
    }
}

/// Fans each event out to the sinks that want it, each through a lane of its own: a sink's
/// delay, its ledger claim and its delivery happen in that lane, so a slow or failing sink
/// never delays another. Order is kept within a lane. An alert is due its sink's delay after
/// it was first seen; a delay changed meanwhile (`DelayBook`) re-times what a lane holds.
public final class AlertRouter<C: Clock>: EventRouting, Sendable where C.Duration == Duration {
    struct Item: Sendable {
        let event: GameEvent
        /// When it was first seen, on `clock`.
        let seen: C.Instant
    }

    struct Lane: Sendable {
        let route: SinkRoute
        let stream: AsyncStream<Item>
        let continuation: AsyncStream<Item>.Continuation
        /// The lane's deliveries and its sink's digest take turns: the digest is never
        /// overtaken by the alert that follows the hold.
        let turns = Turns()
    }

    public let routes: [SinkRoute]
    /// The delays in effect, read again every second while a lane holds an alert.
    public let delays: DelayBook
    public let scoreboard: (any ScoreboardDelay)?
    let lanes: [Lane]
    let ledger: Ledger?
    /// The mutes and held alerts, with the ledger's store: without one (replay, demo,
    /// test-alert) nothing is held.
    let holds: Holds?
    let clock: C
    /// The clock of the router's looks at what other processes and the wall clock did.
    let poll: any Clock<Duration>
    let now: @Sendable () -> Date
    let logger: Logger
    /// Reports of each delivery, for the callers that show them (test-alert) and tests.
    let onDelivery: @Sendable (String, GameEvent, Delivery) -> Void
    private let outstanding = Mutex<(count: Int, waiters: [CheckedContinuation<Void, Never>], released: Bool)>((0, [], false))
    /// Fired when an alert is routed: the delay check wakes from its idle wait.
    private let held = WakeSignal()
    /// Open once `run()` has returned: its lanes and its sinks' work are over.
    private let ended = Latch()
    /// Why each sink could not deliver its last alert: a reason is logged once, at warning,
    /// then at debug until the sink delivers again, which is logged once too.
    private let undeliverable = Mutex<[String: String]>([:])
    /// Each routed alert's outcomes so far, and how many sinks still owe one: when the last
    /// has answered, one log line tells the alert's fate at every sink.
    let tallies = Mutex<[String: DeliveryTally]>([:])
    /// Fired when an alert's line starts waiting for an outbox: `followQueued` wakes.
    let queuedInOutbox = WakeSignal()
    /// Held alerts the store could not record (a full disk), by sink: kept here for the
    /// digest, so it sums them up rather than losing them.
    let unrecorded = Mutex<[String: [GameEvent]]>([:])

    /// - Parameters:
    ///   - ledger: nil for replay, demo and test-alert: nothing is claimed, nothing queued.
    ///   - delays: the delays in effect; default: the routes' own, changed only in this process
    ///     without a ledger, through the ledger's store with one.
    ///   - scoreboard: the sink whose delay the scoreboard follows.
    ///   - poll: the clock of the looks at what other processes do (the delays, once a second
    ///     while a lane holds an alert; held alerts for their digests, every 2 s): the real
    ///     one unless a test steps it (not `clock`, whose sleeps a test may end at once).
    public init(
        routes: [SinkRoute], ledger: Ledger?, clock: C, now: @escaping @Sendable () -> Date = { Date() },
        delays: DelayBook? = nil, scoreboard: String? = nil, poll: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "faceoff.alerts"),
        onDelivery: @escaping @Sendable (String, GameEvent, Delivery) -> Void = { _, _, _ in }
    ) {
        self.routes = routes
        let book = delays ?? DelayBook(configured: routes.map { ($0.sink.name, $0.delay) }, store: ledger?.store)
        self.delays = book
        self.scoreboard = scoreboard.map { SinkDelay(book: book, sink: $0) }
        lanes = routes.map { route in
            let (stream, continuation) = AsyncStream.makeStream(of: Item.self)
            return Lane(route: route, stream: stream, continuation: continuation)
        }
        self.ledger = ledger
        holds = ledger.map { Holds(store: $0.store) }
        self.clock = clock
        self.poll = poll
        self.now = now
        self.logger = logger
        self.onDelivery = onDelivery
    }

    /// Runs a lane per sink and each sink's own background work (a webhook's outbox), as child
    /// tasks, until `finish()` has been called and the lanes have handed over what they held,
    /// or until the task is cancelled (then alerts still in a delay are not claimed, so the
    /// next start sends them, and what webhooks owe stays in the outbox).
    public func run() async {
        await delays.forgetStale()
        await withTaskGroup(of: Void.self) { group in
            for route in routes {
                if let durable = route.sink as? any DurableSink {
                    let name = durable.name
                    group.addTask { await durable.run { item, delivery in self.settled(item, at: name, delivery) } }
                } else {
                    group.addTask { await route.sink.run() }
                }
            }
            if ledger != nil { group.addTask { await self.followQueued() } }
            if delays.store != nil { group.addTask { await self.followDelayChanges() } }
            if holds != nil { group.addTask { await self.sendDigests() } }
            await withDiscardingTaskGroup { group in
                for lane in lanes { group.addTask { await self.drive(lane) } }
            }
            group.cancelAll()
        }
        releaseSettlers()
        sayCutShort()
        ended.open()
    }

    /// Runs after `previous` has handed over everything it held (its delays included) and
    /// stopped: no sink sees an alert twice or out of order, and no two outbox workers share
    /// a sink. The daemon swaps routers this way on a reload.
    public func run(after previous: AlertRouter?) async {
        if let previous {
            await withTaskCancellationHandler {
                await previous.settle()
            } onCancel: {
                previous.releaseSettlers()
            }
            previous.finish()
            await previous.ended.wait()
        }
        await run()
    }

    /// No more events: the lanes end once they have handed over what they hold.
    public func finish() {
        for lane in lanes { lane.continuation.finish() }
    }

    /// Runs `body` with the lanes and sinks running beside it as child tasks: for the
    /// commands that route for as long as they run (`watch`, `replay`, `demo`). When `body`
    /// returns, what was routed is handed over, then the lanes end and the sinks stop. When it
    /// throws or the task is cancelled, they stop at once: what a lane still held is not
    /// claimed (the next start sends it), what a webhook owes stays in the outbox.
    public func serving(_ body: () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.run() }
            do { try await body() } catch {
                group.cancelAll()
                throw error
            }
            await settle()
            finish()
            try await group.waitForAll()
        }
    }

    /// Hands an event to every sink whose filter takes it. Its delay counts from when it was
    /// first seen (`seenAt`, which a watcher sets; else now).
    public func route(_ event: GameEvent) {
        var event = event
        let date = now()
        let seenAt = event.seenAt ?? date
        event.seenAt = seenAt
        let seen = clock.now.advanced(by: .seconds(-max(0, date.timeIntervalSince(seenAt))))
        let taking = lanes.filter { $0.route.filter.matches(event) }
        guard !taking.isEmpty else { return }
        // A change made while nothing was held is read now.
        if outstanding.withLock({ $0.count }) == 0 { delays.refresh() }
        tallies.withLock { $0[event.id, default: DeliveryTally(headline: DeliveryTally.headline(event))].owed += taking.count }
        for lane in taking {
            outstanding.withLock { $0.count += 1 }
            lane.continuation.yield(Item(event: event, seen: seen))
        }
        held.fire()
    }

    /// Marks events as passed over at every sink that would have taken them (the plays before
    /// a game was first seen): claimed, never sent.
    public func passOver(_ events: [GameEvent]) async {
        guard let ledger else { return }
        for event in events {
            for route in routes where route.filter.matches(event) {
                _ = try? await ledger.passOver(event, sink: route.sink.name, at: now())
            }
        }
    }

    /// Returns once every routed event has been handed to its sink.
    public func settle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = outstanding.withLock { state -> Bool in
                if state.count == 0 || state.released { return true }
                state.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Ends every `settle` now and later: the router is stopping and what it holds is dropped.
    func releaseSettlers() {
        let waiters = outstanding.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.released = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits (up to `timeout`) for the webhook outboxes to empty; the names of sinks that still
    /// owe alerts (kept in the outbox for the next start).
    public func settleDurable(timeout: Duration) async -> [String] {
        var owing: [String] = []
        for route in routes {
            if ledger != nil, let durable = route.sink as? any DurableSink, !(await durable.settle(timeout: timeout)) {
                owing.append(durable.name)
            }
        }
        return owing
    }

    private func drive(_ lane: Lane) async {
        for await item in lane.stream {
            if !Task.isCancelled {
                await waitOut(item, lane.route)
                if !Task.isCancelled {
                    await lane.turns.run {
                        await sendDigest(of: lane.route)
                        await deliver(item.event, via: lane.route)
                    }
                }
            }
            let waiters = outstanding.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.count -= 1
                guard state.count == 0 else { return [] }
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Waits until the item is due at this sink, re-timed whenever a delay changes: a shorter
    /// one releases it at once, a longer one holds it on.
    private func waitOut(_ item: Item, _ route: SinkRoute) async {
        while !Task.isCancelled {
            let version = delays.changed.version
            let due = item.seen.advanced(by: delays.delay(for: route.sink.name, fallback: route.delay))
            if due <= clock.now { return }
            await delays.changed.wait(after: version, until: due, on: clock)
        }
    }

    /// While a lane holds an alert, reads the delays from the store every second, so a change
    /// another process made (`faceoff delay 30s`) re-times it within a second. Idle, it waits
    /// for the next alert and reads nothing.
    private func followDelayChanges() async {
        while !Task.isCancelled {
            if outstanding.withLock({ $0.count }) == 0 {
                await held.wait(timeout: .seconds(3600))
                continue
            }
            delays.refresh()
            try? await poll.sleep(for: .seconds(1))
        }
    }

    func deliver(_ event: GameEvent, via route: SinkRoute) async {
        let sink = route.sink
        let delivery: Delivery
        // A correction that only edits a message the sink showed before goes through a hold:
        // it sets the first message right rather than sounding anew.
        if let holds, event.kind != .digest, let reason = holdReason(route, at: now()), (sink as? any EditingSink)?.edits(event) != true {
            delivery = await holdBack(event, route, reason, holds: holds)
        } else if ledger != nil, let durable = sink as? any DurableSink, durable.isDurable {
            do { delivery = try await durable.enqueue(event, at: now()) } catch {
                // As for the ledger below: the outbox can't take it (a full disk), so one
                // attempt now, without the outbox's retries.
                logger.warning(
                    "cannot queue the alert in the store; sending it once, directly",
                    metadata: ["sink": "\(sink.name)", "error": "\(error)"])
                delivery = await sink.send(event)
            }
        } else {
            var claimed = true
            var inLedger = false
            var unrecorded: String?
            if let ledger {
                do {
                    claimed = try await ledger.claim(event, sink: sink.name, at: now(), final: sink.atMostOnce)
                    inLedger = claimed && !sink.atMostOnce
                } catch {
                    if sink.atMostOnce {
                        // Better never than twice, as this sink asks: the store can't say.
                        unrecorded = "the store can't record it, and this sink sends at most once (\(error))"
                    } else {
                        // Better twice than never: the store can't say, so send.
                        logger.warning(
                            "cannot record the alert in the ledger; sending anyway",
                            metadata: ["sink": "\(sink.name)", "error": "\(error)"])
                    }
                }
            }
            if let unrecorded {
                delivery = .skipped(unrecorded)
            } else {
                delivery = claimed ? await sink.send(event) : .duplicate
            }
            if inLedger, let ledger {
                do { try await ledger.sent(event, sink: sink.name) } catch {
                    logger.warning(
                        "cannot record the alert as sent; a later process may send it again",
                        metadata: ["sink": "\(sink.name)", "error": "\(error)"])
                }
            }
        }
        let metadata: Logger.Metadata = ["sink": "\(sink.name)", "event": "\(event.id)", "outcome": "\(delivery)"]
        switch delivery {
        case .delivered, .queued:
            if undeliverable.withLock({ $0.removeValue(forKey: sink.name) }) != nil {
                logger.notice("sink delivering again", metadata: ["sink": "\(sink.name)"])
            }
            logger.debug("alert handed over", metadata: metadata)
        case .duplicate: logger.debug("alert already sent", metadata: metadata)
        case .held: logger.debug("alert held", metadata: metadata)
        case .skipped(let why), .failed(let why):
            let new = undeliverable.withLock { state -> Bool in
                defer { state[sink.name] = why }
                return state[sink.name] != why
            }
            if new {
                logger.warning("alert not delivered; said once until the sink delivers again", metadata: metadata)
            } else {
                logger.debug("alert not delivered", metadata: metadata)
            }
        }
        onDelivery(sink.name, event, delivery)
        tally(event.id, sink: sink.name, delivery)
    }
}
