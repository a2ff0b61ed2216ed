import FaceoffKit
import Foundation

/// One alert's outcomes at the sinks that took it, told in one log line:
/// `goal TOR · TOR 1–0 MTL: hook ✓ ha queued desktop ✗`. A sink that could not deliver says
/// why in its own warning, once until it delivers again.
struct DeliveryTally {
    /// `goal TOR · TOR 1–0 MTL`
    var headline: String
    var owed = 0
    var outcomes: [(sink: String, delivery: Delivery)] = []

    /// The outcomes in `order` (the config's), whichever answered first.
    func summary(in order: [String]) -> String {
        outcomes.sorted { (order.firstIndex(of: $0.sink) ?? 0) < (order.firstIndex(of: $1.sink) ?? 0) }.map { sink, delivery in
            switch delivery {
            case .delivered: "\(sink) ✓"
            case .queued: "\(sink) queued"
            case .duplicate: "\(sink) sent before"
            case .held: "\(sink) held"
            case .skipped, .failed: "\(sink) ✗"
            }
        }.joined(separator: " ")
    }

    /// False when every sink had it already (a restart going over what was sent): debug only.
    var isNews: Bool { outcomes.contains { $0.delivery != .duplicate } }

    static func headline(_ event: GameEvent) -> String {
        let score = "\(event.away) \(event.score.away)–\(event.score.home) \(event.home)"
        return [event.kind.rawValue, event.team].compactMap(\.self).joined(separator: " ") + " · " + score
    }
}
