import FaceoffAPI
import FaceoffBase
import FaceoffESPN
import Foundation

/// The NBA, through ESPN's site API (`FaceoffESPN`, `basketball/nba`).
struct BasketballLeague: LeagueDefinition {
    /// The kinds only basketball fires (`Live/Basketball/`).
    static let ownKinds: [GameEvent.Kind] = [.score, .leadChange, .run, .closeGame, .milestone]

    var league: League { .nba }
    var sportEmoji: String { "🏀" }
    var startWord: String { "Tip-off" }
    var icon: String { "mdi:basketball" }
    var regulationPeriods: Int { 4 }
    var clockCountsDown: Bool { true }
    var service: APIService { .espn }
    var hasManpower: Bool { false }
    var eventKinds: [GameEvent.Kind] {
        [.pregame, .gameStart, .gameJoined, .periodStart, .periodEnd, .final, .scheduleChange, .digest] + Self.ownKinds
    }

    func periodLabel(_ period: Int, type: String?) -> String { NBAPeriod.label(period) }
    /// Its events say their period themselves (`period_name`).
    func periodName(_ period: Int, type: String?) -> String? { nil }
    func afterPeriod(_ label: String) -> String { "end of \(label)" }
    /// ESPN's ids: positive, up to ten digits (401585607).
    func isGameID(_ id: Int) -> Bool { (1..<10_000_000_000).contains(id) }
    func gameURL(_ id: Int) -> String { "https://www.espn.com/nba/game/_/gameId/\(id)" }
    /// ESPN's PNGs, for its teams.
    func logo(_ abbrev: String) -> String? {
        NBATeams.team(abbreviation: abbrev).map { "https://a.espncdn.com/i/teamlogos/nba/500/\($0.abbrev.lowercased()).png" }
    }

    var abbreviations: [String] { NBATeams.all.map(\.abbrev) }

    func team(_ abbrev: String) -> LeagueTeam? {
        NBATeams.team(abbreviation: abbrev).map {
            LeagueTeam(abbrev: $0.abbrev, name: $0.name, shortName: $0.shortName, logo: logo($0.abbrev))
        }
    }

    func liveGame(_ id: Int, client: APIClient) -> any LiveGame { NBAGame(gameID: id, client: client) }

    func schedule(of key: TeamKey, client: APIClient, at date: Date, time: LocalTime) async throws -> TeamSchedule {
        let team = try Self.team(key)
        let schedule = try await client.fetch(.nbaSchedule(team), revalidate: true)
        let events = schedule.value.events ?? []
        // The part of the season counts as a season: when ESPN's answer moves on to the
        // playoffs there is nothing to compare, rather than every playoff game "added".
        // (Its year and part are ones a season has: the endpoint refuses others.)
        let part = schedule.value.season.flatMap { season in season.year.map { $0 * 10 + (season.type ?? 0) } }
        let planned = events.compactMap { event -> PlannedGame? in
            guard let game = GameSummary(nba: event, team: team, time: time), GameWindow.isPlanned(nba: game, now: date) else {
                return nil
            }
            return PlannedGame(
                id: game.id, start: game.startDate, away: game.away.abbrev, home: game.home.abbrev, live: game.isLive, league: .nba)
        }
        return TeamSchedule(
            stale: schedule.stale, changes: events.compactMap { ScheduleChanges.Game(nba: $0, season: part) }, planned: planned)
    }

    func games(of key: TeamKey, client: APIClient, time: LocalTime) async throws -> [GameSummary] {
        let team = try Self.team(key)
        let schedule = try await client.fetch(.nbaSchedule(team)).value
        return (schedule.events ?? []).compactMap { GameSummary(nba: $0, team: team, time: time) }
    }

    static func team(_ key: TeamKey) throws -> NBATeam {
        guard let team = NBATeams.team(abbreviation: key.abbrev) else { throw UsageError(message: "\(key) is no NBA team") }
        return team
    }

    func current(of key: TeamKey, client: APIClient, time: LocalTime, now: Date) async throws -> [(GameSummary, SeriesState?)] {
        let team = try Self.team(key)
        return Self.current(try await client.fetch(.nbaSchedule(team), revalidate: true).value, team: team, time: time, now: now)
    }

    func cachedCurrent(of key: TeamKey, cache: ResponseCache, base: String, time: LocalTime, now: Date) -> [(GameSummary, SeriesState?)]? {
        guard let team = try? Self.team(key) else { return nil }
        return cache.value(of: .nbaSchedule(team), base: base).map { Self.current($0, team: team, time: time, now: now) }
    }

    /// The games of `schedule` to come or on (ESPN's summaries carry no series state).
    static func current(_ schedule: ESPNTeamSchedule, team: NBATeam, time: LocalTime, now: Date) -> [(GameSummary, SeriesState?)] {
        (schedule.events ?? []).compactMap { GameSummary(nba: $0, team: team, time: time) }
            .filter { GameWindow.isCurrent(nba: $0, now: now) }.map { ($0, nil) }
    }
}
