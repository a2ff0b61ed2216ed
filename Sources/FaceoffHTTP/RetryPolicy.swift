/// How often and how long to try a request again after a transient failure.
///
/// Delays grow exponentially from `baseDelay`, capped at `maxDelay`, each drawn at random from
/// the upper half of its range so many clients that failed together don't return together.
/// A server's `Retry-After` replaces the computed delay. The whole exchange, waits included,
/// never exceeds `maxTotal`.
public struct RetryPolicy: Sendable, Equatable {
    public var maxAttempts: Int
    public var baseDelay: Duration
    public var maxDelay: Duration
    public var maxTotal: Duration

    public init(maxAttempts: Int, baseDelay: Duration, maxDelay: Duration, maxTotal: Duration) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxTotal = maxTotal
    }

    /// The daemon's patience: it has time, and a fetch that succeeds late still helps.
    public static let standard = RetryPolicy(
        maxAttempts: 4, baseDelay: .milliseconds(500), maxDelay: .seconds(8), maxTotal: .seconds(60))

    /// A person waiting at a terminal (fan commands, `calendar`, `watch`, a feed request):
    /// an answer or a plain "did not answer" within about 10 s.
    public static let interactive = RetryPolicy(
        maxAttempts: 3, baseDelay: .milliseconds(500), maxDelay: .seconds(2), maxTotal: .seconds(10))

    /// The wait before attempt `attempt + 1`, after `attempt` failures (1-based).
    /// `unit` is a random number in 0..<1.
    public func delay(afterAttempt attempt: Int, retryAfter: Duration?, unit: Double) -> Duration {
        if let retryAfter { return retryAfter }
        let exponent = min(max(attempt - 1, 0), 30)
        let ceiling = min(baseDelay * (1 << exponent), maxDelay)
        return ceiling * (0.5 + 0.5 * min(max(unit, 0), 1))
    }
}
