import FaceoffDelivery
import FaceoffESPN
import FaceoffKit
import Foundation

/// Plays a finished game as the polls of a live one would have seen it, one play more at each
/// step, at `speed` times real time (0: no pauses), through a router, with the terminal's
/// scoreboard drawn before each step's alerts: `replay` and `demo`, for either league.
public struct ReplayPlayer: Sendable {
    public enum Game: Sendable {
        /// The NHL's play-by-play.
        case nhl(ReplayFeed)
        /// An NBA game's ESPN summary.
        case nba(ESPNSummary)
    }

    let game: Game
    let speed: Double
    let fromPeriod: Int?

    /// - Parameter fromPeriod: start there; what came before is one "joined" summary.
    public init(_ game: Game, speed: Double, fromPeriod: Int? = nil) {
        self.game = game
        self.speed = speed == 0 ? .infinity : speed
        self.fromPeriod = fromPeriod
    }

    public func play<C: Clock>(terminal: StdoutSink, router: AlertRouter<C>) async throws where C.Duration == Duration {
        switch game {
        case .nhl(let replay): try await play(replay, terminal: terminal, router: router)
        case .nba(let summary): try await play(summary, terminal: terminal, router: router)
        }
    }

    private func play<C: Clock>(_ replay: ReplayFeed, terminal: StdoutSink, router: AlertRouter<C>) async throws
    where C.Duration == Duration {
        var detector = EventDetector()
        var index = 1
        if let fromPeriod, fromPeriod > 1 {
            index = max(1, replay.firstIndex(ofPeriod: fromPeriod))
            let snapshot = GameSnapshot(replay.prefix(index))
            terminal.snapshot(snapshot)
            router.route(detector.join(snapshot))
            index += 1
        }
        var pace = Pace(speed: speed, at: index > 1 ? Double(replay.gameSeconds(index - 2)) : 0)
        while index <= replay.count {
            try await pace.wait(until: Double(replay.gameSeconds(index - 1)))
            let snapshot = GameSnapshot(replay.prefix(index))
            let events = detector.process(snapshot).events
            // In order: the scoreboard first, then its alerts, each through the router.
            await router.settle()
            terminal.snapshot(snapshot)
            for event in events { router.route(event) }
            index += 1
        }
    }

    private func play<C: Clock>(_ summary: ESPNSummary, terminal: StdoutSink, router: AlertRouter<C>) async throws
    where C.Duration == Duration {
        let plays = NBASnapshot(summary).plays
        func seconds(_ index: Int) -> Double { NBAPeriod.gameSeconds(period: plays[index].period, remaining: plays[index].remaining) }
        var detector = NBAEventDetector()
        var index = 1
        if let fromPeriod, fromPeriod > 1, let first = plays.firstIndex(where: { $0.period >= fromPeriod }), first > 0 {
            let snapshot = NBASnapshot(summary, playCount: first)
            terminal.snapshot(snapshot)
            router.route(detector.join(snapshot))
            index = first + 1
        }
        var pace = Pace(speed: speed, at: index > 1 ? seconds(index - 2) : 0)
        while index <= plays.count {
            try await pace.wait(until: seconds(index - 1))
            let snapshot = NBASnapshot(summary, playCount: index)
            let events = detector.process(snapshot)
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
