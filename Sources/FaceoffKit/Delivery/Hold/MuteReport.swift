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

        /// Holding alerts now, for one of the two reasons.
        public var holding: Bool { muted || quiet }
    }

    public var sinks: [Sink]

    /// The sinks `run` and `watch` deliver to (`DelayBook.sinks`) with the holds the config gives
    /// them: a `[[sink]]`'s own, else drop for desktop notifications and digest for the log
    /// and the terminal.
    public static func holds(of config: Config) -> [(name: String, hold: SinkHold)] {
        DelayBook.sinks(of: config).map { name, _ in
            if let sink = config.sinks.first(where: { $0.displayName == name }) { return (name, SinkHold(sink, zone: config.timeZone)) }
            return (name, SinkHold(held: name == "notify" ? .drop : .digest, zone: config.timeZone))
        }
    }

    public init(config: Config, store: Store?, at date: Date) {
        let holds = store.map(Holds.init)
        let mutes = (try? holds?.mutes(at: date)) ?? []
        let waiting = (try? holds?.heldCounts()) ?? [:]
        sinks = Self.holds(of: config).map { name, hold in
            let mute = mutes.first { $0.sink == name }
            return Sink(
                sink: name, muted: mute != nil, mutedUntil: mute?.until, quietHours: hold.quietHours?.description,
                quiet: hold.quietHours?.contains(date, in: hold.zone) ?? false, held: hold.held.rawValue, waiting: waiting[name, default: 0]
            )
        }
    }

    /// "muted until 07:00", "muted", "quiet until 07:00", nil while it delivers.
    public static func state(_ sink: Sink, hold: SinkHold, at date: Date) -> String? {
        let mute = sink.muted ? Holds.Mute(sink: sink.sink, until: sink.mutedUntil, since: date) : nil
        return hold.reason(mute: mute, at: date)?.text(in: hold.zone)
    }
}
