import FaceoffKit
import Foundation

/// The delays as `faceoff delay --json` and `status --json` show them
/// (docs/json/delay.schema.json).
public struct DelayReport: Encodable, Sendable, Equatable {
    public struct Sink: Encodable, Sendable, Equatable {
        public var sink: String
        /// In effect now.
        public var delaySeconds: Int
        /// What the config says.
        public var configuredSeconds: Int
        /// When it was changed while watching; absent while the configured delay applies.
        public var changedAt: Date?
    }

    public var sinks: [Sink]

    public init(_ book: DelayBook) {
        sinks = book.entries.map {
            Sink(
                sink: $0.sink, delaySeconds: Int($0.current.components.seconds), configuredSeconds: Int($0.configured.components.seconds),
                changedAt: $0.changedAt)
        }
    }
}
