import FaceoffAPI
import FaceoffNHL
import Foundation

/// The NHL, through its public web API (`FaceoffNHL`).
struct HockeyLeague: LeagueDefinition {
    var league: League { .nhl }
    var sportEmoji: String { "🏒" }
    var startWord: String { "Puck drop" }
    var icon: String { "mdi:hockey-puck" }
    var regulationPeriods: Int { 3 }
    var clockCountsDown: Bool { false }
    var service: APIService { .nhl }
    var hasManpower: Bool { true }
    /// Every kind but basketball's.
    var eventKinds: [GameEvent.Kind] { GameEvent.Kind.allCases.filter { !BasketballLeague.ownKinds.contains($0) } }

    func periodLabel(_ period: Int, type: String?) -> String {
        PeriodDescriptor(number: period, periodType: type.map(PeriodType.init(rawValue:)), maxRegulationPeriods: regulationPeriods).label
    }

    func periodName(_ period: Int, type: String?) -> String? {
        switch type {
        case "OT": "Overtime"
        case "SO": "Shootout"
        default: "\(periodLabel(period, type: type)) period"
        }
    }

    func afterPeriod(_ label: String) -> String { "\(label) intermission" }

    /// Ten digits: the season's first year, then the game type and number (2025020100).
    func isGameID(_ id: Int) -> Bool { (1_917_000_000..<2_100_000_000).contains(id) }

    func gameURL(_ id: Int) -> String { "https://www.nhl.com/gamecenter/\(id)" }
    func logo(_ abbrev: String) -> String? { TeamFacts.logoURL(abbrev) }

    var abbreviations: [String] { Teams.abbreviations }

    func team(_ abbrev: String) -> LeagueTeam? {
        if let facts = TeamFactsTable.facts(for: abbrev) {
            return LeagueTeam(
                abbrev: facts.abbrev, name: facts.fullName, shortName: facts.commonName, primary: facts.primary,
                secondary: facts.secondary, logo: logo(facts.abbrev))
        }
        return Teams.info(abbrev).map { LeagueTeam(abbrev: $0.abbrev, name: $0.fullName, shortName: $0.abbrev) }
    }

    func liveGame(_ id: Int, client: APIClient) -> any LiveGame { NHLGame(gameID: id, client: client) }

    func schedule(of team: TeamKey, client: APIClient, at date: Date, time: LocalTime) async throws -> TeamSchedule {
        let schedule = try await client.fetch(.clubSchedule(team.abbrev), revalidate: true)
        let all = schedule.value.games ?? []
        // Past games are done; the season's far future waits for later refreshes.
        let series = SeriesState.states(all)
        let planned = all.compactMap { game -> PlannedGame? in
            guard GameWindow.isPlanned(game, now: date), let id = game.id, let away = game.awayTeam?.abbrev,
                let home = game.homeTeam?.abbrev
            else { return nil }
            return PlannedGame(
                id: id, start: game.startTime, away: away, home: home, live: game.gameState?.isLive ?? false, series: series[id])
        }
        return TeamSchedule(stale: schedule.stale, changes: all.compactMap(ScheduleChanges.Game.init), planned: planned)
    }

    func games(of team: TeamKey, client: APIClient, time: LocalTime) async throws -> [GameSummary] {
        let schedule = try await client.fetch(.clubSchedule(team.abbrev)).value
        return (schedule.games ?? []).compactMap { GameSummary($0, team: team.abbrev, time: time) }
    }

    func current(of team: TeamKey, client: APIClient, time: LocalTime, now: Date) async throws -> [(GameSummary, SeriesState?)] {
        Self.current(try await client.fetch(.clubSchedule(team.abbrev), revalidate: true).value, team: team, time: time, now: now)
    }

    func cachedCurrent(of team: TeamKey, cache: ResponseCache, base: String, time: LocalTime, now: Date) -> [(GameSummary, SeriesState?)]? {
        cache.value(of: .clubSchedule(team.abbrev), base: base).map { Self.current($0, team: team, time: time, now: now) }
    }

    /// The games of `schedule` to come or on, each with its series before it.
    static func current(_ schedule: ClubSchedule, team: TeamKey, time: LocalTime, now: Date) -> [(GameSummary, SeriesState?)] {
        let games = schedule.games ?? []
        let series = SeriesState.states(games)
        return games.filter { GameWindow.isCurrent($0, now: now) }.compactMap { GameSummary($0, team: team.abbrev, time: time) }
            .map { ($0, series[$0.id]) }
    }
}
