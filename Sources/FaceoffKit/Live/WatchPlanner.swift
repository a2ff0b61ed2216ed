import FaceoffAPI
import Foundation

/// `watch TEAM`: of the teams' schedules (either league's), the game to watch next: one on
/// now, else the earliest to come (`GameWindow`), never one already watched.
public struct WatchPlanner: Sendable {
    public struct Pick: Sendable {
        public let league: League
        public let game: GameSummary
        /// A playoff game's series before it (the NHL's).
        public let series: SeriesState?
    }

    let nhl: APIClient
    let espn: APIClient
    let time: LocalTime

    public init(nhl: APIClient, espn: APIClient, time: LocalTime) {
        self.nhl = nhl
        self.espn = espn
        self.time = time
    }

    /// - Parameter teams: as the config writes them (`TOR`, `nba:LAL`).
    public func next(of teams: [String], skipping finished: Set<Int>, now: Date) async throws -> Pick? {
        var candidates: [Pick] = []
        for team in teams {
            guard let key = TeamKey(written: team) else { continue }
            let league = key.league.definition
            candidates += try await league.current(of: key, client: league.client(among: [nhl, espn]), time: time, now: now)
                .map { Pick(league: key.league, game: $0, series: $1) }
        }
        return Self.earliest(candidates.filter { !finished.contains($0.game.id) })
    }

    /// A game on first, then the earliest start.
    static func earliest(_ picks: [Pick]) -> Pick? {
        func key(_ pick: Pick) -> Date { pick.game.isLive ? .distantPast : pick.game.startDate ?? .distantFuture }
        return picks.min { key($0) < key($1) }
    }
}
