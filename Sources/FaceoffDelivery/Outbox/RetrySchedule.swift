import FaceoffKit
import Foundation

/// When a durable sink's head alert is tried again while its receiver fails (webhooks, MQTT,
/// exec with `retry = true`). A receiver down for
/// a moment (a restart) should get its backlog as soon as it is back, so for the first
/// minute of an outage the head is retried at least every 5 s, and at once when a new
/// alert is queued for the sink; after that the waits are 30 s, 2 min, then 10 min until
/// the alert expires. The one place these numbers live; tests shrink them.
public struct RetrySchedule: Sendable {
    /// The longest wait between attempts early in an outage.
    public var early: Duration
    /// How long "early" lasts, from the outage's first failed attempt.
    public var earlyFor: Duration
    /// The waits after that, the last one repeated.
    public var delays: [Duration]
    /// Spread of the later waits (±); early waits only ever shrink by it.
    public var jitter: Double
    /// How often the worker looks for rows another process queued.
    public var idleCheck: Duration
    public static let standard = RetrySchedule(
        early: .seconds(5), earlyFor: .seconds(60), delays: [.seconds(30), .seconds(120), .seconds(600)], jitter: 0.2,
        idleCheck: .seconds(30))

    /// An MQTT sink's: its attempt itself waits for the broker (up to `connectWait`,
    /// while libmosquitto reconnects with its own backoff), so the pause between attempts
    /// stays short and a broker back after an hour gets the backlog at once.
    public static let mqtt = RetrySchedule(
        early: .seconds(2), earlyFor: .seconds(60), delays: [.seconds(2)], jitter: 0, idleCheck: .seconds(30))

    public init(early: Duration, earlyFor: Duration, delays: [Duration], jitter: Double, idleCheck: Duration) {
        self.early = early
        self.earlyFor = earlyFor
        self.delays = delays
        self.jitter = jitter
        self.idleCheck = idleCheck
    }

    /// The wait before the next attempt, `age` into an outage, after `later` attempts
    /// made past its early part.
    func delay(age: Duration, later: Int) -> Duration {
        if age < earlyFor { return jitter > 0 ? early * (1 - Double.random(in: 0...jitter)) : early }
        let base = delays[min(later, delays.count - 1)]
        guard jitter > 0 else { return base }
        return base * Double.random(in: (1 - jitter)...(1 + jitter))
    }

    func isEarly(_ age: Duration) -> Bool { age < earlyFor }
}
