import FaceoffKit
import Foundation

/// One alert's outcomes at the sinks that took it, told in one log line once every outcome is
/// known: `goal TOR · TOR 1–0 MTL: hook ✓ 204 · night held (quiet hours until 07:00) · desktop ✗`.
/// An alert queued in a sink's outbox waits for what became of it there (delivered, refused,
/// expired); a sink that could not deliver says why in its own warning, once until it delivers
/// again.
struct DeliveryTally {
    /// `goal TOR · TOR 1–0 MTL`
    var headline: String
    /// Sinks yet to answer.
    var owed = 0
    var outcomes: [(sink: String, delivery: Delivery)] = []
    /// Sinks whose alert waits in their outbox: the line waits for what becomes of it.
    var queued: Set<String> = []
    /// What an outbox said of a sink's alert before the sink's answer was recorded here.
    var early: [String: Delivery] = [:]

    var isComplete: Bool { owed == 0 && queued.isEmpty }

    /// A sink's answer to the router.
    mutating func record(_ sink: String, _ delivery: Delivery) {
        owed -= 1
        if case .queued = delivery {
            if let known = early.removeValue(forKey: sink) {
                outcomes.append((sink, known))
                return
            }
            queued.insert(sink)
        }
        outcomes.append((sink, delivery))
    }

    /// What became of the alert in a sink's outbox. It may be this process's answer of
    /// `duplicate` that it replaces: another process queued the alert, this one delivered it.
    mutating func settle(_ sink: String, _ delivery: Delivery) {
        guard let index = outcomes.firstIndex(where: { $0.sink == sink }) else {
            early[sink] = delivery
            return
        }
        outcomes[index].delivery = delivery
        queued.remove(sink)
    }

    /// The outcomes in `order` (the config's), whichever answered first.
    func summary(in order: [String]) -> String {
        outcomes.sorted { (order.firstIndex(of: $0.sink) ?? 0) < (order.firstIndex(of: $1.sink) ?? 0) }.map {
            Self.said($0.sink, $0.delivery)
        }.joined(separator: " · ")
    }

    static func said(_ sink: String, _ delivery: Delivery) -> String {
        switch delivery {
        // A receiver's short answer (a webhook's status) is worth the room; a long one is not.
        case .delivered(let detail): detail.isEmpty || detail.count > 8 ? "\(sink) ✓" : "\(sink) ✓ \(detail)"
        case .queued: "\(sink) queued"
        case .duplicate: "\(sink) already handled"
        case .held(let why): "\(sink) held (\(why))"
        case .skipped: "\(sink) ✗"
        case .failed(let why): why.count > 24 ? "\(sink) ✗" : "\(sink) ✗ \(why)"
        }
    }

    /// False when every sink had it already (a restart going over what was sent): debug only.
    var isNews: Bool { outcomes.contains { $0.delivery != .duplicate } }

    static func headline(_ event: GameEvent) -> String {
        let score = "\(event.away) \(event.score.away)–\(event.score.home) \(event.home)"
        return [event.kind.rawValue, event.team].compactMap(\.self).joined(separator: " ") + " · " + score
    }
}
