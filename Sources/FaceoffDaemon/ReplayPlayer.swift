import FaceoffDelivery
import FaceoffKit
import Foundation

/// Plays a finished game as the polls of a live one would have seen it, one play more at each
/// step, at `speed` times real time (0: no pauses), through a router, with the terminal's
/// scoreboard drawn before each step's alerts: `replay` and `demo`, for any league's
/// recording (`RecordedGame`).
public struct ReplayPlayer: Sendable {
    let game: any RecordedGame
    let speed: Double
    let fromPeriod: Int?

    /// - Parameter fromPeriod: start there; what came before is one "joined" summary.
    public init(_ game: any RecordedGame, speed: Double, fromPeriod: Int? = nil) {
        self.game = game
        self.speed = speed == 0 ? .infinity : speed
        self.fromPeriod = fromPeriod
    }

    public func play<C: Clock>(terminal: StdoutSink, router: AlertRouter<C>) async throws where C.Duration == Duration {
        try await play(game, terminal: terminal, router: router)
    }

    private func play<G: RecordedGame, C: Clock>(_ game: G, terminal: StdoutSink, router: AlertRouter<C>) async throws
    where C.Duration == Duration {
        var detector = G.Detector()
        var index = 1
        if let fromPeriod, fromPeriod > 1, let first = game.start(ofPeriod: fromPeriod), first > 0 {
            let snapshot = game.snapshot(plays: first)
            terminal.snapshot(snapshot)
            router.route(detector.join(snapshot))
            index = first + 1
        }
        var pace = Pace(speed: speed, at: index > 1 ? game.secondsAt(index - 2) : 0)
        while index <= game.playCount {
            try await pace.wait(until: game.secondsAt(index - 1))
            let snapshot = game.snapshot(plays: index)
            let events = detector.detect(snapshot).events
            // In order: the scoreboard first, then its alerts, each through the router.
            await router.settle()
            terminal.snapshot(snapshot)
            for event in events { router.route(event) }
            index += 1
        }
    }

    /// Game time between plays, sped up; a long gap (a break between periods) counts as 20 s.
    struct Pace {
        let speed: Double
        var at: Double

        mutating func wait(until seconds: Double) async throws {
            let gap = min(max(0, seconds - at), 20)
            at = seconds
            if gap > 0, speed.isFinite { try await Task.sleep(for: .milliseconds(Int(gap / speed * 1000))) }
        }
    }
}
