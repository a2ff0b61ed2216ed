import FaceoffAPI
import FaceoffESPN
import Foundation

extension BasketballLeague {
    /// A season as ESPN splits a team's schedule: the regular season, then the playoffs.
    static let seasonParts: [ESPNSeasonType] = [.regular, .postseason]

    /// The whole season, both of its parts: ESPN's plain answer is its current part only, and
    /// at the playoffs' start the regular season would leave it.
    func calendarSeason(of key: TeamKey, request: CalendarRequest, client: APIClient) async throws -> CalendarSeason {
        let team = try Self.team(key)
        var parts: [ESPNTeamSchedule] = []
        var notes: [String] = []
        for part in Self.seasonParts {
            let fetched = try await client.fetch(.nbaSchedule(team, part: part))
            parts.append(fetched.value)
            if let note = fetched.staleness { notes.append("\(key) (\(part == .regular ? "regular season" : "playoffs")): \(note)") }
        }
        var season = Self.calendarSeason(parts)
        season.notes = notes
        return season
    }

    /// Both season parts asked again, so the feeds built next read what `run`'s schedule
    /// refresh (another URL: the plain schedule) announced.
    func refreshCalendar(of key: TeamKey, client: APIClient) async {
        guard let team = try? Self.team(key) else { return }
        for part in Self.seasonParts { _ = try? await client.fetch(.nbaSchedule(team, part: part), revalidate: true) }
    }

    /// A team's season parts as a calendar season.
    static func calendarSeason(_ parts: [ESPNTeamSchedule]) -> CalendarSeason {
        let events = parts.flatMap { $0.events ?? [] }.filter { $0.id.flatMap { Int($0) } != nil }
        let entries = events.map { event in
            func side(_ homeAway: String) -> String { event.competition?.competitor(homeAway)?.team?.abbreviation ?? "?" }
            return CalendarSeason.Entry(
                id: event.id.flatMap { Int($0) } ?? 0, typeCode: event.seasonType?.type ?? 2, away: side("away"), home: side("home"))
        }
        // ESPN's season year is the year it ends in: 2026 is 2025-26, "20252026" as the NHL writes it.
        let season = parts.compactMap(\.season?.year).first.map { "\($0 - 1)\($0)" }
        return CalendarSeason(league: .nba, entries: entries, season: season) { index, team in
            calendarGame(events[index], team: team.flatMap { NBATeams.team(abbreviation: $0) })
        }
    }

    /// A playoff game's round and number from ESPN's note ("West Semifinals · Game 5", "if
    /// necessary" while it may not be needed); a game with no time yet an all-day event on
    /// its day (US Eastern, ESPN's); a final said in ESPN's words (`Final/OT`).
    static func calendarGame(_ event: ESPNEvent, team: NBATeam?) -> CalendarGame? {
        guard let summary = GameSummary(nba: event, team: team, time: LocalTime(timeZone: .gmt)) else { return nil }
        let allDay = summary.timeTBD
        let start = allDay ? summary.date.flatMap { try? Date("\($0)T00:00:00Z", strategy: .iso8601) } : event.startDate
        func names(_ side: GameSummary.Side) -> CalendarGame.Names {
            let known = NBATeams.team(abbreviation: side.abbrev)
            return CalendarGame.Names(short: known?.shortName ?? side.abbrev, full: known?.name ?? side.name)
        }
        var game = CalendarGame(
            league: .nba, summary: summary, start: start, away: names(summary.away),
            home: names(summary.home), link: "https://www.espn.com/nba/game/_/gameId/\(summary.id)")
        game.allDay = allDay
        for broadcast in summary.broadcasts {
            game.tv[broadcast.market] = game.tv[broadcast.market].map { $0 + ", " + broadcast.network } ?? broadcast.network
        }
        if game.tv["national"] == nil { game.tv["national"] = game.tv["other"] }
        game.seriesTag = summary.round
        game.seriesLine = summary.roundLine
        game.ifNecessary = summary.ifNecessary
        game.leavesWhenNotNeeded = summary.ifNecessary
        if summary.isFinal {
            game.finalLine =
                "\(FinalLabel.text(summary.endedIn)): \(summary.away.abbrev) \(summary.away.score ?? 0)–\(summary.home.score ?? 0) \(summary.home.abbrev)"
        }
        return game
    }
}

extension CalendarSeason {
    /// An NBA team's season parts already in hand: for tests, which build feeds without the
    /// network.
    public init(nba parts: [ESPNTeamSchedule]) {
        self = BasketballLeague.calendarSeason(parts)
    }
}
