import Foundation
import Logging
import Synchronization

/// One sink with its filter and its broadcast delay.
public struct SinkRoute: Sendable {
    public var sink: any Sink
    public var filter: SinkFilter
    /// The alert waits this long after it is seen.
    public var delay: Duration

    public init(sink: any Sink, filter: SinkFilter, delay: Duration = .zero) {
        self.sink = sink
        self.filter = filter
        self.delay = delay
    }
}

/// Where a watcher hands its events: a router, or the daemon's switch between the router of
/// the config before a reload and the one after.
public protocol EventRouting: Sendable {
    func route(_ event: GameEvent)
    func passOver(_ events: [GameEvent]) async
}

/// Fans each event out to the sinks that want it, each through a lane of its own: a sink's
/// delay, its ledger claim and its delivery happen in that lane, so a slow or failing sink
/// never delays another. Order is kept within a lane.
public final class AlertRouter<C: Clock>: EventRouting, Sendable where C.Duration == Duration {
    struct Item: Sendable {
        let event: GameEvent
        let due: C.Instant
    }

    struct Lane: Sendable {
        let route: SinkRoute
        let stream: AsyncStream<Item>
        let continuation: AsyncStream<Item>.Continuation
    }

    public let routes: [SinkRoute]
    let lanes: [Lane]
    let ledger: Ledger?
    let clock: C
    let now: @Sendable () -> Date
    let logger: Logger
    /// Reports of each delivery, for the callers that show them (test-alert) and tests.
    let onDelivery: @Sendable (String, GameEvent, Delivery) -> Void
    private let outstanding = Mutex<(count: Int, waiters: [CheckedContinuation<Void, Never>], released: Bool)>((0, [], false))
    /// Open once `run()` has returned: its lanes and its sinks' work are over.
    private let ended = Latch()

    /// - Parameter ledger: nil for replay, demo and test-alert: nothing is claimed, nothing queued.
    public init(
        routes: [SinkRoute], ledger: Ledger?, clock: C, now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "faceoff.alerts"),
        onDelivery: @escaping @Sendable (String, GameEvent, Delivery) -> Void = { _, _, _ in }
    ) {
        self.routes = routes
        lanes = routes.map { route in
            let (stream, continuation) = AsyncStream.makeStream(of: Item.self)
            return Lane(route: route, stream: stream, continuation: continuation)
        }
        self.ledger = ledger
        self.clock = clock
        self.now = now
        self.logger = logger
        self.onDelivery = onDelivery
    }

    /// Runs a lane per sink and each sink's own background work (a webhook's outbox), as child
    /// tasks, until `finish()` has been called and the lanes have handed over what they held,
    /// or until the task is cancelled (then alerts still in a delay are not claimed, so the
    /// next start sends them, and what webhooks owe stays in the outbox).
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            for route in routes { group.addTask { await route.sink.run() } }
            await withDiscardingTaskGroup { group in
                for lane in lanes { group.addTask { await self.drive(lane) } }
            }
            group.cancelAll()
        }
        releaseSettlers()
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

    /// Hands an event to every sink whose filter takes it.
    public func route(_ event: GameEvent) {
        for lane in lanes where lane.route.filter.matches(event) {
            outstanding.withLock { $0.count += 1 }
            lane.continuation.yield(Item(event: event, due: clock.now.advanced(by: lane.route.delay)))
        }
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
                if item.due > clock.now { try? await clock.sleep(until: item.due, tolerance: nil) }
                if !Task.isCancelled { await deliver(item.event, via: lane.route.sink) }
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

    private func deliver(_ event: GameEvent, via sink: any Sink) async {
        let delivery: Delivery
        if ledger != nil, let durable = sink as? any DurableSink {
            do { delivery = try await durable.enqueue(event, at: now()) } catch {
                // As for the ledger below: the outbox can't take it (a full disk), so one
                // attempt now, without the outbox's retries.
                logger.warning("cannot queue the alert in the store; sending it once, directly", metadata: ["sink": "\(sink.name)", "error": "\(error)"])
                delivery = await sink.send(event)
            }
        } else {
            var claimed = true
            var inLedger = false
            if let ledger {
                do {
                    claimed = try await ledger.claim(event, sink: sink.name, at: now())
                    inLedger = claimed
                } catch {
                    // Better twice than never: the store can't say, so send.
                    logger.warning("cannot record the alert in the ledger; sending anyway", metadata: ["sink": "\(sink.name)", "error": "\(error)"])
                }
            }
            delivery = claimed ? await sink.send(event) : .duplicate
            if inLedger, let ledger {
                do { try await ledger.sent(event, sink: sink.name) } catch {
                    logger.warning("cannot record the alert as sent; a later process may send it again", metadata: ["sink": "\(sink.name)", "error": "\(error)"])
                }
            }
        }
        let metadata: Logger.Metadata = ["sink": "\(sink.name)", "event": "\(event.id)", "outcome": "\(delivery)"]
        switch delivery {
        case .delivered, .queued: logger.info("alert sent", metadata: metadata)
        case .duplicate: logger.debug("alert already sent", metadata: metadata)
        case .skipped, .failed: logger.warning("alert not delivered", metadata: metadata)
        }
        onDelivery(sink.name, event, delivery)
    }
}
