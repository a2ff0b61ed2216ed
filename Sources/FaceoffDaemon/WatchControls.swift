import FaceoffBase
import FaceoffDelivery
import FaceoffKit
import Foundation
import Synchronization

/// `watch`'s keys under its scoreboard: + and - move the delay of every sink of the process by
/// 5 s, ] and [ by 1 s, s syncs it to the latest goal, q quits. The line under the scoreboard
/// shows the delay the scoreboard follows, also when another process changes it.
public final class WatchControls: Sendable {
    let book: DelayBook
    /// The sinks of this process, whose delays the keys change.
    let sinks: [String]
    let terminal: StdoutSink
    /// The game being watched: `s` syncs to its goals, not another game's.
    public let watching = Mutex<Int?>(nil)

    public init(alerts: WatchDelivery) {
        book = alerts.router.delays
        sinks = alerts.router.routes.map(\.sink.name)
        terminal = alerts.terminal
    }

    public func footer(_ message: String? = nil) -> String {
        let delay = book.delay(for: terminal.name)
        var text = "Delay \(DurationText.format(delay))"
        if let message { text += " · \(message)" } else { text += " · +/- 5s  ]/[ 1s  s sync  q quit" }
        return text
    }

    /// Runs `body` with the keys read beside it: returns when `body` does, or at `q` (then
    /// `body` is cancelled: what a delay still held is sent by the next start). Without a
    /// terminal, just `body`.
    public func around(_ keys: TerminalKeys?, _ body: @escaping @Sendable () async throws -> Void) async throws {
        guard let keys else { return try await body() }
        terminal.setFooter(footer())
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await body() }
            group.addTask { await self.read(keys) }
            group.addTask { await self.follow() }
            // The first to end (the watch, or the q key) ends the others.
            try await group.next()
            group.cancelAll()
        }
    }

    /// Reads keys until q.
    private func read(_ keys: TerminalKeys) async {
        for await key in keys.keys {
            let now = Date()
            var message: String?
            do {
                switch key {
                case "q", "Q": return
                case "+", "=": try await book.adjust(by: .seconds(5), sinks: sinks, at: now)
                case "-", "_": try await book.adjust(by: .seconds(-5), sinks: sinks, at: now)
                case "]": try await book.adjust(by: .seconds(1), sinks: sinks, at: now)
                case "[": try await book.adjust(by: .seconds(-1), sinks: sinks, at: now)
                case "s", "S":
                    switch try await book.sync(sinks: sinks, games: watching.withLock { $0 }.map { [$0] }, now: now) {
                    case .synced(_, let goal): message = "synced to \(goal)"
                    case .noRecentGoal: message = "no goal in the last 3 minutes; unchanged"
                    case .severalGames: message = "goals in several games; unchanged"
                    case .gameOver: message = "that game is over; unchanged"
                    }
                default: continue
                }
            } catch {
                message = "not changed: \(error)"
            }
            terminal.setFooter(footer(message))
        }
    }

    /// Reads the delays every second, so a change made elsewhere (`faceoff delay 30s`) shows,
    /// whichever reader of the book saw it first.
    private func follow() async {
        var shown = book.delay(for: terminal.name)
        while !Task.isCancelled {
            book.refresh()
            let now = book.delay(for: terminal.name)
            if now != shown { terminal.setFooter(footer()) }
            shown = now
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
