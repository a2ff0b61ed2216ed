import FaceoffBase
import FaceoffHTTP
import Foundation

/// Where a watcher hands its events: a router, or the daemon's switch between the router of
/// the config before a reload and the one after.
public protocol EventRouting: Sendable {
    func route(_ event: GameEvent)
    func passOver(_ events: [GameEvent]) async
    /// The delay the scoreboard (and the status line's copy of the game) waits out: the one
    /// of the sink it follows; nil for none.
    var scoreboard: (any ScoreboardDelay)? { get }
}

/// The delay of the sink a scoreboard follows: as it is now, the signal of its changes, and
/// a fresh look at what other processes changed.
public protocol ScoreboardDelay: Sendable {
    var current: Duration { get }
    var changed: ChangeSignal { get }
    func refresh()
}
