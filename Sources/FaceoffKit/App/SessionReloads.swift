import Logging
import Synchronization

/// The config in effect for `serve`, and its reloads (SIGHUP): a reload that takes becomes the
/// current session and is handed on through `sessions` (the newest only, to whoever follows
/// them); one that is refused keeps the running config and says why in the log.
public final class SessionReloads: Sendable {
    private let current: Mutex<Session>
    private let load: @Sendable () throws -> Session
    private let logger: Logger
    private let continuation: AsyncStream<Session>.Continuation
    /// Each reload that took, in order.
    public let sessions: AsyncStream<Session>

    public init(first: Session, logger: Logger, load: @escaping @Sendable () throws -> Session) {
        current = Mutex(first)
        self.load = load
        self.logger = logger
        (sessions, continuation) = AsyncStream.makeStream(of: Session.self, bufferingPolicy: .bufferingNewest(1))
    }

    public func reload() {
        current.withLock { running in
            switch running.reloaded(load: load) {
            case .success(let next):
                logger.notice("config reloaded", metadata: ["teams": "\(next.config.teams.joined(separator: ","))"])
                continuation.yield(next)
                running = next
            case .failure(let refused):
                logger.error("config reload refused; keeping the running config", metadata: ["error": "\(refused)"])
            }
        }
    }
}
