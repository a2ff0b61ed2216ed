import FaceoffAPI
import FaceoffESPN
import FaceoffNHL
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
            if let nba = NBATeams.team(written: team) {
                let schedule = try await espn.fetch(.nbaSchedule(nba), revalidate: true).value
                candidates += (schedule.events ?? []).compactMap { GameSummary(nba: $0, team: nba, time: time) }
                    .filter { GameWindow.isCurrent(nba: $0, now: now) }.map { Pick(league: .nba, game: $0, series: nil) }
                continue
            }
            let schedule = try await nhl.fetch(.clubSchedule(team), revalidate: true).value
            let series = SeriesState.states(schedule.games ?? [])
            candidates += (schedule.games ?? []).filter { GameWindow.isCurrent($0, now: now) }
                .compactMap { GameSummary($0, team: team, time: time) }.map { Pick(league: .nhl, game: $0, series: series[$0.id]) }
        }
        return Self.earliest(candidates.filter { !finished.contains($0.game.id) })
    }

    /// A game on first, then the earliest start.
    static func earliest(_ picks: [Pick]) -> Pick? {
        func key(_ pick: Pick) -> Date { pick.game.isLive ? .distantPast : pick.game.startDate ?? .distantFuture }
        return picks.min { key($0) < key($1) }
    }
}
