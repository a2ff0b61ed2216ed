import FaceoffAPI
import FaceoffNHL
import Foundation

extension HockeyLeague {
    func calendarSeason(of team: TeamKey, request: CalendarRequest, client: APIClient) async throws -> CalendarSeason {
        let segment = request.season == "current" ? "now" : request.season
        let fetched = try await client.fetch(.clubSchedule(team.abbrev, season: segment))
        var season = Self.calendarSeason(fetched.value, request: request)
        if let note = fetched.staleness { season.notes.append("\(team): \(note)") }
        return season
    }

    func calendarRecords(client: APIClient) async -> [String: String] {
        (try? await client.fetch(.standings()))?.value.records ?? [:]
    }

    func seasonWords(_ label: String) -> String { "the \(label) season" }

    /// A club's schedule as a calendar season, the overlay's finals laid over it.
    static func calendarSeason(_ schedule: ClubSchedule, request: CalendarRequest) -> CalendarSeason {
        let schedule = request.overlay.map { $0.apply(schedule) } ?? schedule
        let list = (schedule.games ?? []).filter { $0.id != nil }
        let series = SeriesState.states(list)
        let entries = list.map { game in
            CalendarSeason.Entry(
                id: game.id ?? 0, typeCode: game.gameType?.rawValue ?? 0, away: game.awayTeam?.abbrev ?? "?",
                home: game.homeTeam?.abbrev ?? "?")
        }
        return CalendarSeason(league: .nhl, entries: entries, season: schedule.currentSeason.map(String.init)) { index, team in
            guard let summary = GameSummary(list[index], team: team, time: nil) else { return nil }
            return calendarGame(list[index], summary: summary, series: series[summary.id], scores: request.scores)
        }
    }

    static func calendarGame(_ game: ScheduleGame, summary: GameSummary, series: SeriesState?, scores: Bool) -> CalendarGame {
        func names(_ team: GameTeam?, _ abbrev: String) -> CalendarGame.Names {
            CalendarGame.Names(short: team?.displayName ?? abbrev, full: team?.fullName ?? abbrev)
        }
        let link =
            game.gameCenterLink.map { $0.hasPrefix("http") ? $0 : "https://www.nhl.com" + $0 }
            ?? "https://www.nhl.com/gamecenter/\(summary.id)"
        var entry = CalendarGame(
            league: .nhl, summary: summary, start: game.startTime,
            away: names(game.awayTeam, summary.away.abbrev), home: names(game.homeTeam, summary.home.abbrev), link: link)
        // Networks by market, in one pass: "TSN4 (CA), RDS (CA)".
        for broadcast in summary.broadcasts {
            var name = broadcast.network
            if let country = broadcast.country { name += " (\(country))" }
            entry.tv[broadcast.market] = entry.tv[broadcast.market].map { $0 + ", " + name } ?? name
        }
        if let arena = summary.venue.flatMap(TeamFactsTable.arena(named:)) {
            entry.arena = CalendarGame.Arena(city: arena.city, latitude: arena.latitude, longitude: arena.longitude)
        }
        // A playoff game the series may not need is tentative; one it ended without, cancelled.
        // Spoiler-free feeds can't say either from the results: games past the fourth are "if
        // necessary" until played.
        entry.notNeeded = scores && series?.notNeeded == true
        entry.ifNecessary =
            scores
            ? series?.ifNecessary == true
            : series.map { $0.gameNumber > $0.neededToWin && !summary.isFinal && !summary.isLive } ?? false
        entry.seriesTag = series?.tag
        // The series score is a result: spoiler-free feeds leave it out.
        entry.seriesLine =
            series.map { state in
                ["\(state.abbrev) game \(state.gameNumber)", scores ? state.text : nil, entry.ifNecessary ? "if necessary" : nil]
                    .compactMap { $0 }.joined(separator: " · ")
            } ?? summary.series
        if summary.isFinal {
            let endedIn = summary.endedIn.flatMap { $0 == "REG" || $0.isEmpty ? nil : $0 }
            entry.finalLine =
                "Final: \(summary.away.abbrev) \(summary.away.score ?? 0)–\(summary.home.score ?? 0) \(summary.home.abbrev)"
                + (endedIn.map { " (\($0))" } ?? "")
        }
        return entry
    }
}

extension ScheduleOverlay {
    /// `schedule` with the finals known laid over the games it does not call final yet.
    func apply(_ schedule: ClubSchedule) -> ClubSchedule {
        let known = self.known
        guard !known.isEmpty, var games = schedule.games else { return schedule }
        for index in games.indices {
            guard let id = games[index].id, let final = known[id], !(games[index].gameState?.isFinal ?? false) else { continue }
            games[index].gameState = .off
            games[index].awayTeam?.score = final.away
            games[index].homeTeam?.score = final.home
            if games[index].gameOutcome == nil {
                games[index].gameOutcome = GameOutcome(lastPeriodType: final.endedIn.map(PeriodType.init(rawValue:)), otPeriods: nil)
            }
        }
        var copy = schedule
        copy.games = games
        return copy
    }
}

extension CalendarSeason {
    /// An NHL club's schedule already in hand: for the demo, benchmarks and tests, which
    /// build feeds without the network.
    public init(nhl schedule: ClubSchedule, request: CalendarRequest) {
        self = HockeyLeague.calendarSeason(schedule, request: request)
    }
}
