import FaceoffBase
import FaceoffKit
import FaceoffStore
import Foundation

/// Each sink's mute, quiet hours and held alerts, as `faceoff mute --list`, `status` and
/// `doctor` show them (`status --json`: `sinks`).
public struct MuteReport: Encodable, Sendable, Equatable {
    public struct Sink: Encodable, Sendable, Equatable {
        public var sink: String
        /// Muted now (`faceoff mute`, the MQTT switch).
        public var muted: Bool
        /// When the mute ends; absent while muted until unmuted, or not muted.
        public var mutedUntil: Date?
        /// "23:00-07:00", in the configured zone.
        public var quietHours: String?
        /// In its quiet hours now.
        public var quiet: Bool
        /// "drop" or "digest".
        public var held: String
        /// Alerts waiting for its digest.
        public var waiting: Int

    }

    public var sinks: [Sink]
    /// Why each sink holds its alerts now, for the words (`HoldReason.text(in: zone)`).
    public let holding: [String: HoldReason]
    /// The configured zone, which the words' times are in.
    public let zone: TimeZone

    enum CodingKeys: String, CodingKey { case sinks }

    /// The sinks `run` and `watch` deliver to (`DelayBook.sinks`) with the holds the config gives
    /// them: a `[[sink]]`'s own, else their kind's (`SinkHold.unconfigured`).
    /// The sinks named (all when none), each checked against the config's.
    public static func sinks(named asked: [String], config: Config) throws -> [String] {
        let names = holds(of: config).map(\.name)
        for name in asked where !names.contains(name) {
            throw UsageError(
                message: "no sink named '\(name)'\(Suggest.phrase(name, in: names)); the sinks are: \(names.joined(separator: ", "))")
        }
        return asked.isEmpty ? names : asked
    }

    public static func holds(of config: Config) -> [(name: String, hold: SinkHold)] {
        // Read once: with no `timezone` in the config, each read is the system's zone file.
        let zone = config.timeZone
        return DelayBook.sinks(of: config).map { name, _ in
            if let sink = config.sinks.first(where: { $0.displayName == name }) { return (name, SinkHold(sink, zone: zone)) }
            return (name, .unconfigured(name == "notify" ? .notify : .stdout, zone: zone))
        }
    }

    public init(config: Config, store: Store?, at date: Date) {
        let holds = store.map(Holds.init)
        let mutes = (try? holds?.mutes(at: date)) ?? []
        let waiting = (try? holds?.heldCounts()) ?? [:]
        var holding: [String: HoldReason] = [:]
        sinks = Self.holds(of: config).map { name, hold in
            let mute = mutes.first { $0.sink == name }
            holding[name] = hold.reason(mute: mute, at: date)
            return Sink(
                sink: name, muted: mute != nil, mutedUntil: mute?.until, quietHours: hold.quietHours?.description,
                quiet: hold.quietHours?.contains(date, in: hold.zone) ?? false, held: hold.held.rawValue, waiting: waiting[name, default: 0]
            )
        }
        self.holding = holding
        zone = config.timeZone
    }

    /// "muted until 07:00", "muted", "quiet hours until 07:00"; nil while it delivers.
    public func state(of sink: String) -> String? { holding[sink]?.text(in: zone) }
}
