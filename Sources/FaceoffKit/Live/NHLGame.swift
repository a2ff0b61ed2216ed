import FaceoffAPI
import FaceoffNHL
import Foundation

/// An NHL game for the game watcher: its play-by-play, polled.
public struct NHLGame: LiveGame {
    public typealias Detector = EventDetector

    public let gameID: Int
    let client: APIClient

    public init(gameID: Int, client: APIClient) {
        self.gameID = gameID
        self.client = client
    }

    public var league: League? { nil }
    public var logName: String { "\(gameID)" }
    public var name: String { "game \(gameID)" }

    public func poll() async throws -> GameSnapshot {
        GameSnapshot(try await client.live(.playByPlay(gameID), what: "the feed"))
    }
}

extension GameSnapshot: LiveSnapshot {
    public var isUpcoming: Bool { state?.isUpcoming == true }
    /// The play-by-play has none: the watcher is given the schedule's.
    public var series: SeriesState? { nil }
    public var awayAbbrev: String { away.abbrev }
    public var homeAbbrev: String { home.abbrev }
    public var score: GameEvent.Score { GameEvent.Score(away: away.score, home: home.score) }

    public var inProgress: Bool {
        guard isLive else { return false }
        if (period?.number ?? 1) > 1 || away.score + home.score > 0 { return true }
        let elapsed = plays.last.flatMap { GameClockTime.seconds($0.timeInPeriod) } ?? 0
        return elapsed > 120
    }

    public var newestPlaySeconds: Double? {
        plays.compactMap { GameClockTime.seconds(period: $0.periodDescriptor?.number, clock: $0.timeInPeriod) }.max().map(Double.init)
    }

    public var breakClock: Int? { clock?.inIntermission == true ? clock?.secondsRemaining : nil }

    public func status(at date: Date) -> LiveStatus.Game { LiveStatus.game(self, at: date) }
    public func scoreboardLine(_ board: LiveScoreboard) -> LiveScoreboard.Line { board.line(self) }

    /// Through an intermission at least once a minute, so the scoreboard's intermission
    /// clock keeps moving; at the usual rate for its last minute and a half, or once the
    /// clock stands still (the break is over early, or the feed has stopped counting it).
    public func livePoll(_ settings: WatcherSettings, breakClockBefore: Int?) -> Duration {
        if let left = breakClock, left > 90, left != breakClockBefore {
            return max(settings.poll, min(.seconds(left - 60), .seconds(60)))
        }
        return settings.poll
    }
}

extension EventDetector: LiveDetector {
    public init() { self.init(state: State()) }

    public var handedOut: Set<String> { state.emitted }

    public mutating func detect(_ snapshot: GameSnapshot) -> (events: [GameEvent], skipped: String?) {
        let (events, skipped) = process(snapshot)
        return (events, skipped.map { "\($0)" })
    }

    public static func gameSeconds(_ event: GameEvent) -> Double? {
        GameClockTime.seconds(period: event.period, clock: event.clock).map(Double.init)
    }
}

extension ReplayFeed: RecordedGame {
    public typealias Detector = EventDetector

    public var playCount: Int { count }
    public func snapshot(plays: Int) -> GameSnapshot { GameSnapshot(prefix(plays)) }
    public func secondsAt(_ index: Int) -> Double { Double(gameSeconds(index)) }
    public func start(ofPeriod period: Int) -> Int? { plays.firstIndex { ($0.periodDescriptor?.number ?? 1) >= period } }
}
