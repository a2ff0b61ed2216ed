import FaceoffBase
import FaceoffKit

/// One sink's delay in the delay book: what a scoreboard that follows that sink waits out.
public struct SinkDelay: ScoreboardDelay {
    public let book: DelayBook
    public let sink: String

    public init(book: DelayBook, sink: String) {
        self.book = book
        self.sink = sink
    }

    public var current: Duration { book.delay(for: sink) }
    public var changed: ChangeSignal { book.changed }
    public func refresh() { book.refresh() }
}
