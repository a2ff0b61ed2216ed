import ServiceLifecycle
import UnixSignals

/// SIGHUP reloads the config (`run` and `serve`): each hangup calls `reload`, until a graceful
/// shutdown. Trap the signal (`UnixSignalsSequence(trapping: .sighup)`) before anything else
/// starts, so an early SIGHUP reloads instead of killing the process.
public struct HangupService: Service {
    let signals: UnixSignalsSequence
    let reload: @Sendable () -> Void

    public init(signals: UnixSignalsSequence, reload: @escaping @Sendable () -> Void) {
        self.signals = signals
        self.reload = reload
    }

    public func run() async throws {
        for await _ in signals.cancelOnGracefulShutdown() { reload() }
    }
}
