import FaceoffKit
import Synchronization

/// The router in effect: a reload swaps it without a watcher noticing.
public final class RouterSwitch: EventRouting {
    private let current = Mutex<(any EventRouting)?>(nil)
    public init() {}
    public func set(_ router: any EventRouting) { current.withLock { $0 = router } }
    // Under the lock: an event is never handed to a router being swapped out (routing
    // itself only queues, so it never blocks).
    public func route(_ event: GameEvent) { current.withLock { $0?.route(event) } }
    // Passing over writes the ledger, so it happens outside the lock, with the router current
    // when it began (a swap in between leaves the new router's added sinks unmarked; they
    // were never going to get those plays live).
    public func passOver(_ events: [GameEvent]) async { await current.withLock { $0 }?.passOver(events) }
    public var scoreboard: ScoreboardDelay? { current.withLock { $0?.scoreboard } }
}
