import FaceoffAPI
import FaceoffESPN
import FaceoffKit
import Foundation

/// The NBA's fan commands, from ESPN's site API through the same cache.
extension FanService {
    public func nbaTeams() async -> Output<TeamsReport> {
        if let fetched = try? await espn.fetch(.nbaTeams) {
            return Output(report: TeamsReport(nba: fetched.value), notes: notes([fetched]))
        }
        return Output(report: TeamsReport(nba: nil), notes: ["ESPN's team list could not be fetched; showing the built-in team list"])
    }

    public func nbaStandings(by grouping: NBAStandingsReport.Grouping, followed: [NBATeam] = []) async throws -> Output<NBAStandingsReport>
    {
        let fetched = try await espn.fetch(.nbaStandings)
        return Output(report: NBAStandingsReport(standings: fetched.value, by: grouping, followed: followed), notes: notes([fetched]))
    }

    public func nbaRoster(team: NBATeam) async throws -> Output<RosterReport> {
        let fetched = try await espn.fetch(.nbaRoster(team))
        return Output(report: RosterReport(nba: fetched.value, team: team), notes: notes([fetched]))
    }
}

extension FanService {
    private func nbaGames(_ team: NBATeam) async throws -> (games: [GameSummary], season: String?, fetched: Fetched<ESPNTeamSchedule>) {
        let fetched = try await espn.fetch(.nbaSchedule(team))
        let games = (fetched.value.events ?? []).compactMap { GameSummary(nba: $0, team: team, time: time) }
        return (games, fetched.value.season?.displayName, fetched)
    }

    public func nbaSchedule(team: NBATeam, from: String?, to: String?) async throws -> Output<ScheduleReport> {
        let (games, season, fetched) = try await nbaGames(team)
        let report = ScheduleReport(league: "NBA", team: team.abbrev, season: season, time: time, games: games, from: from, to: to)
        return Output(report: report, notes: notes([fetched]))
    }

    public func nbaRecent(team: NBATeam, count: Int) async throws -> Output<RecentReport> {
        let (games, _, fetched) = try await nbaGames(team)
        var report = RecentReport(team: team.abbrev, time: time, games: games, count: count)
        report.league = "NBA"
        return Output(report: report, notes: notes([fetched]))
    }

    /// The game on, else the next (a game with no time yet counts, on its day), else the last;
    /// both teams' records as the schedule gives them.
    public func nbaNext(team: NBATeam) async throws -> Output<NextReport> {
        let (games, season, fetched) = try await nbaGames(team)
        guard let (kind, game) = NextReport.pick(from: games, now: now) else {
            throw FanError("no games scheduled for the \(team.name) in \(season ?? "the current season") (ESPN's schedule)")
        }
        var records: [String: String] = [:]
        let event = (fetched.value.events ?? []).first { $0.id == String(game.id) }
        for competitor in event?.competition?.competitors ?? [] {
            guard let abbrev = competitor.team?.abbreviation,
                let total = competitor.record?.first(where: { $0.type == "total" })?.displayValue
            else { continue }
            records[abbrev] = total
        }
        var report = NextReport(
            team: team.abbrev, timezone: time.timeZone.identifier, kind: kind, game: game, now: now, records: records, live: nil)
        report.league = "NBA"
        return Output(report: report, notes: notes([fetched]))
    }
}

extension FanService {
    /// The NBA's games of `day` (ESPN's today when nil), the followed teams' first.
    public func nbaScores(on day: CalendarDay?, followed: [NBATeam] = []) async throws -> Output<ScoresReport> {
        let fetched = try await espn.fetch(.nbaScoreboard(day: day?.description))
        return Output(
            report: ScoresReport(nba: fetched.value, day: day?.description, followed: followed, time: time), notes: notes([fetched]))
    }
}

extension FanService {
    public func nbaBoxScore(game id: Int) async throws -> Output<NBABoxScoreReport> {
        let fetched = try await espn.fetch(.nbaSummary(id))
        return Output(report: NBABoxScoreReport(summary: fetched.value, id: id), notes: notes([fetched]))
    }

    /// The team's game on now, else its last one, from its schedule.
    public func nbaCurrentOrLastGame(team: NBATeam) async throws -> Int {
        let (games, _, _) = try await nbaGames(team)
        if let live = games.first(where: \.isLive) { return live.id }
        guard let last = games.filter(\.isFinal).max(by: { ($0.startDate ?? .distantPast) < ($1.startDate ?? .distantPast) }) else {
            throw FanError("the \(team.name) have no game on and none finished in ESPN's schedule")
        }
        return last.id
    }
}
