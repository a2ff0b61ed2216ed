import FaceoffBase
import FaceoffKit
import FaceoffNHL
import Foundation

/// `faceoff playoffs`: a season's bracket by round, and one team's run through it game by
/// game; before the bracket exists, when the playoffs start and where the team stands.
/// Its JSON form is `docs/json/playoffs.schema.json`.
public struct PlayoffsReport: Codable, Sendable, Equatable {
    public struct Team: Codable, Sendable, Equatable {
        public var abbrev: String
        public var name: String
        /// "D1", "WC2"
        public var seed: String?
        public var wins: Int
        public var followed: Bool
    }

    public struct Series: Codable, Sendable, Equatable {
        public var letter: String?
        public var round: Int
        public var title: String
        /// nil while the slot is to be decided.
        public var top: Team?
        public var bottom: Team?
        public var neededToWin: Int
        /// tbd | upcoming | tied | leads | won
        public var state: String
        public var winner: String?
        /// "WSH leads 3–2", "series tied 2–2", "WSH wins 4–1", "to be decided"
        public var text: String
    }

    public struct Round: Codable, Sendable, Equatable {
        public var number: Int
        public var title: String
        public var series: [Series]
    }

    public struct RunGame: Codable, Sendable, Equatable {
        public var number: Int
        public var id: Int?
        /// The local date, YYYY-MM-DD; nil for a game not scheduled yet.
        public var date: String?
        public var start: String?
        /// home | away
        public var homeOrAway: String?
        /// "2–3", the team's score first.
        public var score: String?
        /// REG, OT, 2OT, 3OT… for a finished game (OT when how many is not known).
        public var endedIn: String?
        /// W | L
        public var result: String?
        /// final | live | scheduled | if necessary | not needed
        public var status: String
    }

    public struct RunSeries: Codable, Sendable, Equatable {
        public var round: Int
        public var title: String
        public var letter: String?
        public var opponent: String
        public var opponentSeed: String?
        public var wins: Int
        public var losses: Int
        public var neededToWin: Int
        /// won | lost | leads | trails | tied
        public var state: String
        /// "won 4–2", "lost 1–4", "leads 3–2", "tied 2–2"
        public var text: String
        public var games: [RunGame]
    }

    public struct Run: Codable, Sendable, Equatable {
        public var team: String
        public var name: String
        /// Made the playoffs: nil while that is not known (no bracket, no playoff game).
        public var made: Bool?
        /// "out in the 1st Round, 1–4 against WSH", "Stanley Cup champions", "in the 2nd Round"…
        public var text: String
        public var series: [RunSeries]
    }

    /// Before the playoffs: where the team stands.
    public struct Race: Codable, Sendable, Equatable {
        public var team: String
        /// x, y, z, p (clinched), e (eliminated), when the NHL has marked one.
        public var clinch: String?
        /// "3rd in the Atlantic", "WC1 in the Eastern Conference", "3 points behind WC2 in the Eastern Conference"
        public var position: String
    }

    /// "20242025"
    public var season: String
    /// The calendar year of these playoffs.
    public var year: Int
    /// false before the NHL publishes the bracket.
    public var hasBracket: Bool
    public var rounds: [Round]
    public var champion: String?
    /// Before the bracket: the last day of the regular season, YYYY-MM-DD, when known.
    public var regularSeasonEnds: String?
    public var run: Run?
    public var race: Race?
}

extension PlayoffsReport {
    static let roundTitles = [1: "1st Round", 2: "2nd Round", 3: "Conference Finals", 4: "Stanley Cup Final"]

    /// - Parameters:
    ///   - bracket: nil when the NHL has none for the season yet.
    ///   - schedule: the team's club schedule of that season, for its games.
    ///   - overtimes: "2OT" and beyond by game id, for overtime games whose play-by-play told how
    ///     many periods they took (the schedule only says OT).
    public init(
        season: Season, bracket: PlayoffBracket?, team: String?, schedule: ClubSchedule?, standings: Standings?,
        regularSeasonEnds: String?, followed: [String], time: LocalTime, now: Date, overtimes: [Int: String] = [:]
    ) {
        self.season = season.id
        year = season.startYear + 1
        let allSeries = (bracket?.series ?? []).filter { $0.playoffRound != nil || $0.seriesLetter != nil }
        hasBracket = !allSeries.isEmpty
        self.regularSeasonEnds = hasBracket ? nil : regularSeasonEnds

        // Team ids to abbreviations, from every team the bracket names.
        var abbrevByID: [Int: String] = [:]
        for series in allSeries {
            for team in [series.topSeedTeam, series.bottomSeedTeam] {
                if let id = team?.id, let abbrev = team?.abbrev { abbrevByID[id] = abbrev }
            }
        }
        func entrant(_ source: BracketTeam?, seed: String?, wins: Int?) -> Team? {
            guard let abbrev = source?.abbrev else { return nil }
            let name = source?.name?.value ?? TeamFactsTable.facts(for: abbrev)?.fullName ?? abbrev
            return Team(abbrev: abbrev, name: name, seed: seed, wins: wins ?? 0, followed: followed.contains(abbrev))
        }
        var rounds: [Int: [Series]] = [:]
        for source in allSeries {
            let number = source.playoffRound ?? Self.round(ofLetter: source.seriesLetter) ?? 0
            let top = entrant(source.topSeedTeam, seed: source.topSeedRankAbbrev, wins: source.topSeedWins)
            let bottom = entrant(source.bottomSeedTeam, seed: source.bottomSeedRankAbbrev, wins: source.bottomSeedWins)
            let needed = 4
            var state = "tbd"
            var text = "to be decided"
            var winner = source.winningTeamId.flatMap { abbrevByID[$0] }
            if let top, let bottom {
                let leader = top.wins >= bottom.wins ? top : bottom
                let trailer = top.wins >= bottom.wins ? bottom : top
                if winner == nil, leader.wins >= needed { winner = leader.abbrev }
                if let winner {
                    let (won, lost) = winner == top.abbrev ? (top.wins, bottom.wins) : (bottom.wins, top.wins)
                    state = "won"
                    text = "\(winner) wins \(won)–\(lost)"
                } else if top.wins + bottom.wins == 0 {
                    state = "upcoming"
                    text = "not started"
                } else if top.wins == bottom.wins {
                    state = "tied"
                    text = "series tied \(top.wins)–\(bottom.wins)"
                } else {
                    state = "leads"
                    text = "\(leader.abbrev) leads \(leader.wins)–\(trailer.wins)"
                }
            }
            let title = source.seriesTitle ?? Self.roundTitles[number] ?? "Round \(number)"
            rounds[number, default: []].append(
                Series(
                    letter: source.seriesLetter, round: number, title: title, top: top, bottom: bottom, neededToWin: needed, state: state,
                    winner: winner, text: text))
        }
        self.rounds = rounds.keys.sorted().map { number in
            let series = rounds[number]!.sorted { ($0.letter ?? "~") < ($1.letter ?? "~") }
            return Round(number: number, title: Self.roundTitles[number] ?? series.first?.title ?? "Round \(number)", series: series)
        }
        champion = self.rounds.last { $0.number == 4 }?.series.first?.winner

        guard let team else { return }
        run = Self.run(team: team, schedule: schedule, rounds: self.rounds, hasBracket: hasBracket, time: time, overtimes: overtimes)
        if !hasBracket, let standings {
            race = Self.race(team: team, standings: standings)
        }
    }

    /// A bracket letter's round: A–H 1st, I–L 2nd, M–N conference finals, O final.
    static func round(ofLetter letter: String?) -> Int? {
        guard let scalar = letter?.unicodeScalars.first, letter?.count == 1 else { return nil }
        switch scalar {
        case "A"..."H": return 1
        case "I"..."L": return 2
        case "M"..."N": return 3
        case "O": return 4
        default: return nil
        }
    }

    /// The team's series, from its playoff games in the club schedule (`seriesStatus` on each),
    /// with seeds from the bracket.
    package static func run(
        team: String, schedule: ClubSchedule?, rounds: [Round], hasBracket: Bool, time: LocalTime, overtimes: [Int: String] = [:]
    ) -> Run {
        let name = TeamFactsTable.facts(for: team)?.fullName ?? team
        let playoffGames = (schedule?.games ?? []).filter { $0.gameType == .playoffs && $0.seriesStatus != nil }
        let states = SeriesState.states(playoffGames)
        var byRound: [Int: [ScheduleGame]] = [:]
        for game in playoffGames { byRound[game.seriesStatus?.round ?? 0, default: []].append(game) }
        var series: [RunSeries] = []
        for number in byRound.keys.sorted() {
            let games = byRound[number]!.sorted { ($0.seriesStatus?.gameNumberOfSeries ?? 0) < ($1.seriesStatus?.gameNumberOfSeries ?? 0) }
            guard let first = games.first, let status = first.seriesStatus else { continue }
            let opponent = (first.awayTeam?.abbrev == team ? first.homeTeam?.abbrev : first.awayTeam?.abbrev) ?? "?"
            let needed = status.neededToWin ?? 4
            var wins = 0
            var losses = 0
            var shown: [RunGame] = []
            for game in games {
                guard let summary = GameSummary(game, team: team, time: time) else { continue }
                if summary.result == "W" { wins += 1 } else if summary.result == "L" { losses += 1 }
                let state = states[summary.id]
                let status = state?.notNeeded == true ? "not needed" : state?.ifNecessary == true ? "if necessary" : summary.status
                shown.append(
                    RunGame(
                        number: game.seriesStatus?.gameNumberOfSeries ?? shown.count + 1, id: summary.id, date: summary.date,
                        start: summary.start, homeOrAway: summary.homeOrAway,
                        score: summary.isFinal || summary.isLive ? Self.score(summary) : nil,
                        endedIn: summary.isFinal ? (summary.endedIn == "REG" ? "REG" : overtimes[summary.id] ?? "OT") : nil,
                        result: summary.result,
                        status: status))
            }
            // The games the series may still need that have no date yet, up to the last possible one.
            let known = shown.map(\.number).max() ?? 0
            let last = 2 * needed - 1
            if max(wins, losses) < needed, known < last {
                for number in (known + 1)...last {
                    let certain = SeriesState.isCertain(number, wins: wins, losses: losses, needed: needed)
                    shown.append(RunGame(number: number, status: certain ? "scheduled" : "if necessary"))
                }
            }
            let state = wins >= needed ? "won" : losses >= needed ? "lost" : wins > losses ? "leads" : wins < losses ? "trails" : "tied"
            let text = "\(state) \(wins)–\(losses)"
            let seed = rounds.flatMap(\.series).first { $0.letter != nil && $0.letter == status.seriesLetter }
                .flatMap { $0.top?.abbrev == opponent ? $0.top?.seed : $0.bottom?.abbrev == opponent ? $0.bottom?.seed : nil }
            series.append(
                RunSeries(
                    round: number, title: status.seriesTitle ?? roundTitles[number] ?? "Round \(number)", letter: status.seriesLetter,
                    opponent: opponent, opponentSeed: seed, wins: wins, losses: losses, neededToWin: needed, state: state, text: text,
                    games: shown))
        }
        let inBracket = rounds.flatMap(\.series).contains { $0.top?.abbrev == team || $0.bottom?.abbrev == team }
        let made: Bool? = !series.isEmpty || inBracket ? true : hasBracket ? false : nil
        var text: String
        if let last = series.last {
            switch last.state {
            case "won" where last.round == 4:
                text = "Stanley Cup champions, \(last.wins)–\(last.losses) against \(last.opponent) in the final"
            case "won": text = "won the \(last.title) \(last.wins)–\(last.losses) against \(last.opponent)"
            case "lost": text = "out in the \(last.title), \(last.wins)–\(last.losses) against \(last.opponent)"
            default: text = "in the \(last.title) against \(last.opponent): \(last.text)"
            }
        } else if made == true {
            text = "in the playoffs; no game played yet"
        } else if made == false {
            text = "did not make the playoffs"
        } else {
            text = "the playoffs have not started"
        }
        return Run(team: team, name: name, made: made, text: text, series: series)
    }

    /// "2–3 OT", the team's score first.
    static func score(_ game: GameSummary) -> String? {
        guard let away = game.away.score, let home = game.home.score else { return nil }
        let (ours, theirs) = game.homeOrAway == "home" ? (home, away) : (away, home)
        return "\(ours)–\(theirs)"
    }

    /// Where the team stands in the wild-card view of the standings.
    static func race(team: String, standings: Standings) -> Race? {
        let report = StandingsReport(standings: standings, by: .wildcard, followed: [team])
        for group in report.groups {
            guard let index = group.rows.firstIndex(where: { $0.abbrev == team }) else { continue }
            let row = group.rows[index]
            let position: String
            if let cutoff = group.cutoff {
                let conference = group.name.replacingOccurrences(of: " Wild Card", with: "")
                if index < cutoff {
                    position = "WC\(index + 1) in the \(conference) Conference"
                } else {
                    let behind = group.rows[cutoff - 1].points - row.points
                    position = "\(behind) point\(behind == 1 ? "" : "s") behind WC\(cutoff) in the \(conference) Conference"
                }
            } else {
                let ordinal = ["1st", "2nd", "3rd"][min(index, 2)]
                position = "\(ordinal) in the \(group.name)"
            }
            return Race(team: team, clinch: row.clinch, position: position)
        }
        return nil
    }
}
