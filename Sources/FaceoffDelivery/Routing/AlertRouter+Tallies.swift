import FaceoffKit
import Foundation
import Logging

/// One log line per alert, once its outcome is known at every sink that took it: an alert
/// queued in an outbox waits for the outbox's word (delivered, refused, expired), from this
/// process's worker or, for a row another process took, from the store.
extension AlertRouter {
    /// Changes the tally of an alert routed here, if it is still open, and says its line when
    /// that completes it; the tally as changed, nil for an alert with none.
    @discardableResult
    private func change(_ eventID: String, _ body: (inout DeliveryTally) -> Void) -> DeliveryTally? {
        let changed = tallies.withLock { state -> DeliveryTally? in
            guard var tally = state[eventID] else { return nil }
            body(&tally)
            state[eventID] = tally.isComplete ? nil : tally
            return tally
        }
        if let changed, changed.isComplete { say(changed, eventID) }
        return changed
    }

    /// A sink's answer to an alert routed here.
    func tally(_ eventID: String, sink: String, _ delivery: Delivery) {
        guard let tally = change(eventID, { $0.record(sink, delivery) }), !tally.isComplete else { return }
        if case .queued = delivery {
            queuedInOutbox.fire()
            // With -v, the queued state too.
            logger.debug("\(tally.headline): \(DeliveryTally.said(sink, delivery))", metadata: ["event": "\(eventID)"])
        }
    }

    /// What became of a row a sink's outbox worker in this process took. A row this process
    /// did not route (queued by another process, or before a restart) gets a line of its own.
    func settled(_ item: Outbox.Item, at sink: String, _ delivery: Delivery) {
        if change(item.eventID, { $0.settle(sink, delivery) }) == nil {
            logger.info("\(item.kind) · game \(item.gameID): \(DeliveryTally.said(sink, delivery))", metadata: ["event": "\(item.eventID)"])
        }
    }

    private func say(_ tally: DeliveryTally, _ eventID: String) {
        let line = "\(tally.headline): \(tally.summary(in: routes.map(\.sink.name)))"
        logger.log(level: tally.isNews ? .info : .debug, "\(line)", metadata: ["event": "\(eventID)"])
    }

    /// Every 2 s while an alert waits in an outbox: a row gone from the store that no worker
    /// here settled was another process's to deliver (that process logs what became of it).
    func followQueued() async {
        guard let store = ledger?.store else { return }
        let outbox = Outbox(store: store)
        func waiting() -> [(String, String)] { tallies.withLock { state in state.flatMap { id, tally in tally.queued.map { (id, $0) } } } }
        while !Task.isCancelled {
            // Idle, it waits for an alert to be queued and reads nothing.
            if waiting().isEmpty {
                await queuedInOutbox.wait(timeout: .seconds(3600))
                continue
            }
            try? await poll.sleep(for: .seconds(2))
            let waiting = waiting()
            guard !waiting.isEmpty, let rows = try? outbox.pending() else { continue }
            let present = Set(rows.map { "\($0.sink)\u{0}\($0.eventID)" })
            for (eventID, sink) in waiting where !present.contains("\(sink)\u{0}\(eventID)") {
                // Unless a worker here settled it meanwhile.
                change(eventID) { if $0.queued.contains(sink) { $0.settle(sink, .duplicate) } }
            }
        }
    }

    /// The alerts a stop cut short get their line too: what their sinks said so far, and
    /// that the rest were not sent (the next start sends them).
    func sayCutShort() {
        let left = tallies.withLock { state -> [DeliveryTally] in
            defer { state.removeAll() }
            return Array(state.values)
        }
        for tally in left {
            let said = tally.summary(in: routes.map(\.sink.name))
            let rest =
                tally.owed > 0
                ? "stopped before \(tally.owed == 1 ? "one sink" : "\(tally.owed) sinks") had it"
                : "stopped with it in the outbox; the next start delivers it"
            logger.info("\(tally.headline): \(said.isEmpty ? "" : said + " · ")\(rest)")
        }
    }
}
