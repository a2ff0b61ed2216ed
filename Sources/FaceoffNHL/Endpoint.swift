import FaceoffAPI
import FaceoffHTTP
import Foundation

/// The sanity checks of `Endpoint.problem`, one per kind of answer.
package enum AnswerChecks {
    static func game(_ id: Int?, asked: Int) -> String? {
        guard let id else { return "it has no game id" }
        return id == asked ? nil : "it is about game \(id), not \(asked)"
    }

    static func clubSchedule(_ schedule: ClubSchedule, team: String) -> String? {
        guard let games = schedule.games else { return "it has no list of games" }
        // Games whose teams are both named, neither of them this one.
        let others = games.filter { game in
            guard let away = game.awayTeam?.abbrev, let home = game.homeTeam?.abbrev else { return false }
            return away != team && home != team
        }
        guard others.isEmpty else {
            let teams = Set(others.flatMap { [$0.awayTeam?.abbrev, $0.homeTeam?.abbrev].compactMap { $0 } }).sorted()
            return "\(others.count) of its \(games.count) games are not \(team)'s (\(teams.prefix(4).joined(separator: ", ")))"
        }
        for game in games {
            let series = game.seriesStatus
            let problem = Plausible.first(
                Plausible.problem(game.awayTeam?.score, Plausible.score, "a game's away score"),
                Plausible.problem(game.homeTeam?.score, Plausible.score, "a game's home score"),
                Plausible.problem(series?.topSeedWins, Plausible.seriesCount, "a series' wins"),
                Plausible.problem(series?.bottomSeedWins, Plausible.seriesCount, "a series' wins"),
                Plausible.problem(series?.neededToWin, 1...Plausible.seriesCount.upperBound, "the wins a series needs"),
                Plausible.problem(series?.gameNumberOfSeries, Plausible.seriesCount, "a game's number in its series"))
            if let problem { return problem }
        }
        // The NHL cancels a game or two in a bad season, never a fifth of them.
        let cancelled = games.filter { $0.gameScheduleState?.isCancelled == true }.count
        if ScheduleCheck.implausible(cancelled, of: games.count) { return "it calls \(cancelled) of its \(games.count) games cancelled" }
        return nil
    }

    /// A new season replaces the old one; within one, `ScheduleCheck.regression` decides.
    static func clubSchedule(_ new: ClubSchedule, replacing old: ClubSchedule) -> String? {
        if let season = new.currentSeason, let before = old.currentSeason, season != before { return nil }
        return ScheduleCheck.regression(Set((new.games ?? []).compactMap(\.id)), replacing: Set((old.games ?? []).compactMap(\.id)))
    }
}

enum FreshnessRules {
    static let scheduleMaxAge = Freshness.seconds(6 * 3600)
    static let daily = Freshness.seconds(24 * 3600)
    /// A bracket in progress: a series moves on with each game.
    static let liveBracket = Freshness.seconds(3600)
    static let upcomingGame = Freshness.seconds(10 * 60)

    /// A schedule changes when a game starts or ends: revalidate while one is live, and don't
    /// keep a copy past the next start.
    static func schedule(_ games: [ScheduleGame], now: Date) -> Freshness {
        if games.contains(where: { $0.gameState?.isLive ?? false }) { return .revalidate }
        let nextStart = games.compactMap(\.startTime).filter { $0 > now }.min()
        guard let nextStart else { return scheduleMaxAge }
        return .seconds(max(60, min(6 * 3600, nextStart.timeIntervalSince(now))))
    }

    /// Finished games never change (OFF is official); live ones are always revalidated.
    static func game(_ state: GameState?) -> Freshness {
        guard let state else { return .revalidate }
        if state == .off { return .forever }
        if state.isUpcoming { return upcomingGame }
        return .revalidate
    }
}

/// `now`, `current` or a specific date/season, as the API spells path segments.
public enum DateSelector: Sendable, Equatable {
    case now
    case date(String)

    var segment: String {
        switch self {
        case .now: "now"
        case .date(let date): date
        }
    }
}

extension Endpoint where Response == ClubSchedule {
    /// `season` is "now" or an id such as "20252026".
    public static func clubSchedule(_ team: String, season: String = "now") -> Self {
        Self(
            "club-schedule-season/\(team)/\(season)",
            missing: season == "now" ? nil : "no games scheduled for \(team) in \(season)",
            problem: { AnswerChecks.clubSchedule($0, team: team) },
            regression: { AnswerChecks.clubSchedule($0, replacing: $1) }
        ) { FreshnessRules.schedule($0.games ?? [], now: $1) }
    }
}

extension Endpoint where Response == LeagueSchedule {
    public static func schedule(_ date: DateSelector = .now) -> Self {
        Self("schedule/\(date.segment)", problem: { $0.gameWeek == nil ? "it has no game week" : nil }) {
            FreshnessRules.schedule($0.allGames, now: $1)
        }
    }
}

extension Endpoint where Response == DailyScore {
    public static func score(_ date: DateSelector = .now) -> Self {
        Self("score/\(date.segment)", problem: { $0.games == nil ? "it has no list of games" : nil }) { score, _ in
            let states = (score.games ?? []).map(\.gameState)
            if states.contains(where: { $0?.isLive ?? false }) { return .revalidate }
            // A past day whose games are all official never changes; "now" moves on tomorrow.
            if date != .now, !states.isEmpty, states.allSatisfy({ $0 == .off }) { return .forever }
            return FreshnessRules.upcomingGame
        }
    }
}

/// An answer of `/v1/gamecenter/ID/...`: about one game, named by its id.
protocol GamecenterAnswer: GameStateCarrying {
    var id: Int? { get }
    /// Why a number in it can't be a real game's (`Plausible`), or nil.
    var implausible: String? { get }
}

extension PlayByPlay: GamecenterAnswer {}
extension GameLanding: GamecenterAnswer { var implausible: String? { nil } }
extension Boxscore: GamecenterAnswer { var implausible: String? { nil } }

extension Endpoint where Response: GamecenterAnswer {
    /// One of a game's gamecenter resources: a 404 means no such game, an answer about
    /// another game is wrong, and freshness follows the game's state.
    static func gamecenter(_ gameID: Int, _ resource: String) -> Self {
        Self(
            "gamecenter/\(gameID)/\(resource)", missing: "no NHL game has the id \(gameID)",
            problem: { AnswerChecks.game($0.id, asked: gameID) ?? $0.implausible }
        ) { response, _ in FreshnessRules.game(response.gameState) }
    }
}

extension Endpoint where Response == PlayByPlay {
    public static func playByPlay(_ gameID: Int) -> Self { gamecenter(gameID, "play-by-play") }
}

extension Endpoint where Response == GameLanding {
    public static func landing(_ gameID: Int) -> Self { gamecenter(gameID, "landing") }
}

extension Endpoint where Response == Boxscore {
    public static func boxscore(_ gameID: Int) -> Self { gamecenter(gameID, "boxscore") }
}

extension Endpoint where Response == GameRightRail {
    /// The right-rail carries no id or state of its own: `state` is the game's, from its
    /// landing, so a finished game's copy is kept for good like the others.
    public static func rightRail(_ gameID: Int, state: GameState?) -> Self {
        Self(
            "gamecenter/\(gameID)/right-rail", missing: "no NHL game has the id \(gameID)",
            problem: { rail in
                // Goals and shots by period, and their totals: a game's.
                let lines = (rail.shotsByPeriod ?? []) + (rail.linescore?.byPeriod ?? [])
                let totals = [rail.linescore?.totals?.away, rail.linescore?.totals?.home]
                let numbers = lines.flatMap { [$0.away, $0.home] } + totals
                return numbers.lazy.compactMap { Plausible.problem($0, Plausible.score, "a period's goals or shots") }.first
            }
        ) { _, _ in FreshnessRules.game(state) }
    }
}

extension Endpoint where Response == Standings {
    public static func standings(_ date: DateSelector = .now) -> Self {
        // Before a season the NHL answers an empty list, so only a missing one is wrong.
        Self(
            "standings/\(date.segment)",
            problem: { answer in
                guard let rows = answer.standings else { return "it has no standings list" }
                // A season's counts: games, wins, points, goals (a goal difference within them).
                for row in rows {
                    let counts = [row.gamesPlayed, row.wins, row.losses, row.otLosses, row.points, row.regulationWins]
                    let goals = [row.goalFor, row.goalAgainst]
                    let problem = Plausible.first(
                        counts.lazy.compactMap { Plausible.problem($0, Plausible.seasonCount, "a team's record") }.first,
                        goals.lazy.compactMap { Plausible.problem($0, 0...1000, "a team's goals") }.first,
                        Plausible.problem(row.goalDifferential, -1000...1000, "a team's goal difference"))
                    if let problem { return problem }
                }
                return nil
            }
        ) { _, _ in
            FreshnessRules.daily
        }
    }
}

extension Endpoint where Response == PlayoffBracket {
    /// `year`: the calendar year of the playoffs (2025 for 2024-25). Before a season's playoffs
    /// are set the NHL has no bracket for it (a 404, or no series).
    public static func playoffBracket(_ year: Int) -> Self {
        Self(
            "playoff-bracket/\(year)", missing: "the NHL has no playoff bracket for \(year) yet",
            problem: { bracket in
                let wins = (bracket.series ?? []).flatMap { [$0.topSeedWins, $0.bottomSeedWins] }
                return wins.lazy.compactMap { Plausible.problem($0, Plausible.seriesCount, "a series' wins") }.first
            }
        ) { bracket, _ in
            // A bracket with a champion never changes again; one in progress changes with every game.
            let decided = (bracket.series ?? []).contains { $0.playoffRound == 4 && $0.winningTeamId != nil }
            return decided ? .forever : FreshnessRules.liveBracket
        }
    }
}

extension Endpoint where Response == Roster {
    /// `season` is "current" or an id such as "20252026".
    public static func roster(_ team: String, season: String = "current") -> Self {
        // A past season without data has empty lists; the current roster never does.
        Self(
            "roster/\(team)/\(season)",
            problem: { roster in
                if roster.forwards == nil && roster.defensemen == nil && roster.goalies == nil { return "it has no player lists" }
                return season == "current" && roster.allPlayers.isEmpty ? "it lists no players" : nil
            }
        ) { _, _ in FreshnessRules.daily }
    }
}

extension Endpoint where Response == PlayerLanding {
    public static func player(_ id: Int) -> Self {
        Self(
            "player/\(id)/landing", missing: "no NHL player has the id \(id)",
            problem: { player in
                guard let playerId = player.playerId else { return "it has no player id" }
                guard playerId == id else { return "it is about player \(playerId), not \(id)" }
                if player.firstName == nil && player.lastName == nil { return "it has no name" }
                // A season's games, as the player report adds them up (a traded player's rows).
                let games = (player.seasonTotals ?? []).flatMap { [$0.stats.gamesPlayed, $0.stats.gamesStarted] }
                return games.lazy.compactMap { Plausible.problem($0, Plausible.seasonCount, "a season's games") }.first
            }
        ) { _, _ in FreshnessRules.daily }
    }
}

extension APIService {
    /// The public NHL web API (the config's `api_base`).
    public static let nhl = APIService(
        name: "the NHL API", setting: "`api_base` in the config (or --api-base)", defaultBase: "https://api-web.nhle.com/v1/")
}
