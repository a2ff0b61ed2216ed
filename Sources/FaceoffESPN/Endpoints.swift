import FaceoffAPI
import Foundation

// ESPN's resources under `APIService.espn`'s base, for any league of its site API
// (`ESPNLeague`), each with what makes an answer the one asked for. Team paths take ESPN's id
// (`NBATeam.id`). The `nba…` names are the NBA's, as callers have always written them.

extension Endpoint where Response == ESPNTeamList {
    public static var nbaTeams: Self { teams(.nba) }

    public static func teams(_ league: ESPNLeague) -> Self {
        Self(
            "apis/site/v2/sports/\(league.path)/teams",
            problem: { list in
                let teams = list.teams.filter { $0.id != nil }
                return teams.count < league.teamCount / 2
                    ? "it lists \(teams.count) teams, where the \(league.name) has \(league.teamCount)" : nil
            },
            freshness: { _, _ in .seconds(7 * 24 * 3600) })
    }
}

extension Endpoint where Response == ESPNStandings {
    public static var nbaStandings: Self { standings(.nba) }

    /// The current season's (or the last one's, between seasons).
    public static func standings(_ league: ESPNLeague) -> Self {
        Self(
            "apis/v2/sports/\(league.path)/standings",
            problem: { standings in
                let entries = (standings.children ?? []).flatMap { $0.standings?.entries ?? [] }
                if entries.isEmpty { return "it has no teams" }
                // Every count a table shows is a season's: wins, losses, a seed.
                for entry in entries {
                    for name in ["wins", "losses", "playoffSeed"] {
                        guard let value = entry.stat(name)?.value else { continue }
                        if Plausible.int(value, in: Plausible.seasonCount) == nil { return "it gives a team's \(name) as \(value)" }
                    }
                }
                return nil
            },
            freshness: { _, _ in .seconds(3600) })
    }
}

extension Endpoint where Response == ESPNRoster {
    public static func nbaRoster(_ team: NBATeam) -> Self {
        Self(
            teamPath(team, "roster"), missing: missingTeam(team, "roster"),
            problem: { roster in
                if let other = otherTeam(roster.team, asked: team, what: "roster") { return other }
                let athletes = roster.athletes ?? []
                if athletes.isEmpty { return "it lists no players" }
                // Inches and pounds a person can measure.
                for athlete in athletes {
                    if let height = athlete.height, Plausible.int(height, in: Plausible.heightInches) == nil {
                        return "it gives a player's height as \(height)"
                    }
                    if let weight = athlete.weight, Plausible.int(weight, in: Plausible.weightPounds) == nil {
                        return "it gives a player's weight as \(weight)"
                    }
                }
                return nil
            },
            freshness: { _, _ in .seconds(24 * 3600) })
    }
}

/// A part of ESPN's season (`seasontype`).
public enum ESPNSeasonType: Int, Sendable {
    case regular = 2
    case postseason = 3
}

extension Endpoint where Response == ESPNTeamSchedule {
    /// The current season: its current part (ESPN's choice: the postseason while it is on),
    /// or the `part` named.
    public static func nbaSchedule(_ team: NBATeam, part: ESPNSeasonType? = nil) -> Self {
        Self(
            teamPath(team, "schedule") + (part.map { "?seasontype=\($0.rawValue)" } ?? ""),
            missing: missingTeam(team, part.map { $0 == .postseason ? "playoff schedule" : "regular-season schedule" } ?? "schedule"),
            problem: { schedule in
                if let other = otherTeam(schedule.team, asked: team, what: "schedule") { return other }
                // ESPN's parts: 1 preseason, 2 regular season, 3 postseason, 4 off season.
                if let season = Plausible.first(
                    Plausible.problem(schedule.season?.year, Plausible.year, "the season's year"),
                    Plausible.problem(schedule.season?.type, 1...4, "the season's part"))
                {
                    return season
                }
                let events = schedule.events ?? []
                let others = events.filter { event in
                    let ids = (event.competition?.competitors ?? []).compactMap { $0.team?.id }
                    return ids.count == 2 && !ids.contains(team.id)
                }
                return others.isEmpty ? nil : "\(others.count) of its \(events.count) games are not the \(team.name)'"
            },
            regression: { new, old in
                // Compared part by part: the plain schedule moves on to the playoffs, and
                // shrinks, when they begin. Games with no time yet are a series' "if
                // necessary" ones, which ESPN drops when the series ends early: their going
                // is no loss.
                guard new.season?.year == old.season?.year, new.season?.type == old.season?.type else { return nil }
                let kept = (old.events ?? []).filter { event in
                    event.hasTime || ["live", "final"].contains(event.competition?.status?.game ?? "")
                }
                return ScheduleCheck.regression(Set((new.events ?? []).compactMap(\.id)), replacing: Set(kept.compactMap(\.id)))
            },
            freshness: { schedule, now in
                let events = schedule.events ?? []
                // A game on: asked again each time. Otherwise an hour, but never past the next
                // start, so `next` and `game` see a game begin.
                if events.contains(where: { $0.competition?.status?.type?.state == "in" }) { return .revalidate }
                let nextStart = events.compactMap { event in event.hasTime ? event.startDate : nil }.filter { $0 > now }.min()
                return .seconds(max(60, min(3600, nextStart.map { $0.timeIntervalSince(now) } ?? 3600)))
            })
    }
}

/// A team's resource (`roster`, `schedule`), by ESPN's id.
func teamPath(_ team: NBATeam, _ resource: String) -> String {
    "apis/site/v2/sports/\(ESPNLeague.nba.path)/teams/\(team.id)/\(resource)"
}

/// What a 404 for a team's resource means: the team is one ESPN has (it is in the table), so
/// it is that resource that is missing (a mirror without the file, a part of the season not
/// published yet). The URL or file follows in the error.
func missingTeam(_ team: NBATeam, _ resource: String) -> String {
    "ESPN has no \(resource) for the \(team.name) (team \(team.id))"
}

/// Why a team's answer is not the team asked for ("it is the roster of the Los Angeles Lakers,
/// not the Boston Celtics"), or nil.
func otherTeam(_ answered: ESPNTeam?, asked team: NBATeam, what: String) -> String? {
    guard let id = answered?.id, id != team.id else { return nil }
    return "it is the \(what) of \(answered?.displayName.map { "the \($0)" } ?? "team \(id)"), not the \(team.name)"
}

extension Endpoint where Response == ESPNScoreboard {
    public static func nbaScoreboard(day: String?) -> Self { scoreboard(.nba, day: day) }

    /// A day's games (`day` YYYY-MM-DD; nil: ESPN's today).
    public static func scoreboard(_ league: ESPNLeague, day: String?) -> Self {
        let query = day.map { "?dates=" + $0.replacingOccurrences(of: "-", with: "") } ?? ""
        return Self(
            "apis/site/v2/sports/\(league.path)/scoreboard\(query)",
            problem: { board in
                guard let day, let answered = board.day?.date, answered != day else { return nil }
                return "it holds the games of \(answered), not \(day)"
            },
            freshness: { board, _ in
                let states = (board.events ?? []).map { $0.competition?.status?.type?.state }
                if states.contains("in") { return .revalidate }
                // A past day of finals never changes again.
                if day != nil, !states.isEmpty, states.allSatisfy({ $0 == "post" }) { return .forever }
                return .seconds(60)
            })
    }
}

extension Endpoint where Response == ESPNSummary {
    public static func nbaSummary(_ id: Int) -> Self { summary(.nba, id) }

    /// One game: its score by period, box score and leaders, and its plays.
    public static func summary(_ league: ESPNLeague, _ id: Int) -> Self {
        Self(
            "apis/site/v2/sports/\(league.path)/summary?event=\(id)",
            missing: "ESPN has no \(league.name) game with the id \(id)",
            problem: { summary in
                guard let answered = summary.header?.id else { return "it has no game id" }
                return answered == String(id) ? summary.implausible : "it is about game \(answered), not \(id)"
            },
            freshness: { summary, _ in
                switch summary.header?.competitions?.first?.status?.type?.state {
                case "post": .forever
                case "in": .revalidate
                default: .seconds(600)
                }
            })
    }
}
