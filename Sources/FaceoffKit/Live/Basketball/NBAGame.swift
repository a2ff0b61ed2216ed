import FaceoffAPI
import FaceoffESPN
import Foundation

/// An NBA game for the game watcher: ESPN's summary, polled.
public struct NBAGame: LiveGame {
    public typealias Detector = NBAEventDetector

    public let gameID: Int
    let client: APIClient

    public init(gameID: Int, client: APIClient) {
        self.gameID = gameID
        self.client = client
    }

    public var league: League? { .nba }
    public var logName: String { "nba:\(gameID)" }
    public var name: String { "NBA game \(gameID)" }

    public func poll() async throws -> NBASnapshot {
        NBASnapshot(try await client.live(.nbaSummary(gameID), what: "the summary"))
    }
}

extension NBASnapshot: LiveSnapshot {
    public var awayAbbrev: String { away.abbrev }
    public var homeAbbrev: String { home.abbrev }
    public var score: GameEvent.Score { GameEvent.Score(away: away.score, home: home.score) }
    public var notPlayed: String? { state == "postponed" || state == "cancelled" ? state : nil }

    public var inProgress: Bool {
        guard isLive else { return false }
        if (period ?? 1) > 1 || away.score + home.score > 0 { return true }
        return (plays.last?.remaining).map { NBAPeriod.length(1) - $0 > 120 } ?? false
    }

    public var newestPlaySeconds: Double? { plays.last?.gameSeconds }

    public var breakClock: Int? { nil }

    public func status(at date: Date) -> LiveStatus.Game { LiveStatus.game(self, at: date) }
    public func scoreboardLine(_ board: LiveScoreboard) -> LiveScoreboard.Line { board.line(self) }

    /// At halftime and between quarters at least every 30 s.
    public func livePoll(_ settings: WatcherSettings, breakClockBefore: Int?) -> Duration {
        atBreak ? max(settings.poll, .seconds(30)) : settings.poll
    }
}

extension NBAEventDetector: LiveDetector {
    public var handedOut: Set<String> { emitted }

    public mutating func detect(_ snapshot: NBASnapshot) -> (events: [GameEvent], skipped: String?) { (process(snapshot), nil) }
}

/// A finished NBA game's summary, played back one play at a time.
public struct NBARecording: RecordedGame {
    public typealias Detector = NBAEventDetector

    public let summary: ESPNSummary
    let plays: [NBASnapshot.Play]

    public init(_ summary: ESPNSummary) {
        self.summary = summary
        plays = NBASnapshot(summary).plays
    }

    public var playCount: Int { plays.count }
    public func snapshot(plays count: Int) -> NBASnapshot { NBASnapshot(summary, playCount: count) }
    public func secondsAt(_ index: Int) -> Double { plays[index].gameSeconds }
    public func start(ofPeriod period: Int) -> Int? { plays.firstIndex { $0.period >= period } }
}
