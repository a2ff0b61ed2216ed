import FaceoffHTTP
import Foundation

/// Where a watcher hands its events: a router, or the daemon's switch between the router of
/// the config before a reload and the one after.
public protocol EventRouting: Sendable {
    func route(_ event: GameEvent)
    func passOver(_ events: [GameEvent]) async
    /// The delay the scoreboard (and the status line's copy of the game) waits out: the one
    /// of the sink it follows; nil for none.
    var scoreboard: ScoreboardDelay? { get }
}

/// The delay of the sink a scoreboard follows, as it is now, and the signal of its changes.
public struct ScoreboardDelay: Sendable {
    public let book: DelayBook
    public let sink: String

    public init(book: DelayBook, sink: String) {
        self.book = book
        self.sink = sink
    }

    public var current: Duration { book.delay(for: sink) }
}
