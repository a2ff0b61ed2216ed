import FaceoffAPI
import FaceoffBase
import FaceoffESPN
import FaceoffKit
import FaceoffNHL
import Foundation

// The NBA's answers (ESPN's site API) as the fan commands' reports: the teams and the roster
// in the NHL's shapes, the standings in one of their own (wins, losses, games behind).

extension TeamsReport {
    /// The 30 teams by conference and division (Faceoff's fact table), named and coloured as
    /// ESPN's team list says when there is one.
    public init(nba list: ESPNTeamList?) {
        let answered = Dictionary(
            (list?.teams ?? []).compactMap { team in team.id.map { ($0, team) } }, uniquingKeysWith: { first, _ in first })
        func colour(_ hex: String?) -> String? { hex.flatMap { RGB(parsing: "#" + $0)?.hex } }
        let teams = NBATeams.all.map { team in
            let espn = answered[team.id]
            return Team(
                abbrev: team.abbrev, name: espn?.displayName ?? team.name, conference: team.conference, division: team.division,
                arena: nil, city: nil, latitude: nil, longitude: nil, timeZone: nil, primaryColor: colour(espn?.color),
                secondaryColor: colour(espn?.alternateColor))
        }
        self.init(league: "NBA", source: answered.isEmpty ? "built-in" : "api", teams: teams)
    }
}

extension RosterReport {
    /// An NBA roster by jersey number, in one group.
    public init(nba roster: ESPNRoster, team: NBATeam) {
        let players = (roster.athletes ?? [])
            .map { athlete in
                let place = [athlete.birthPlace?.city, athlete.birthPlace?.state, athlete.birthPlace?.country]
                    .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
                let inches = athlete.height.flatMap { Plausible.int($0, in: Plausible.heightInches) }
                let pounds = athlete.weight.flatMap { Plausible.int($0, in: Plausible.weightPounds) }
                return Player(
                    id: athlete.id.flatMap { Int($0) }, number: athlete.jersey.flatMap { Int($0) },
                    name: athlete.displayName ?? athlete.fullName ?? "?", position: athlete.position?.abbreviation, handedness: nil,
                    age: athlete.age, birthDate: athlete.dateOfBirth.map { String($0.prefix(10)) }, heightInches: inches,
                    heightCm: inches.map { Int((Double($0) * 2.54).rounded()) }, weightPounds: pounds,
                    weightKg: pounds.map { Int((Double($0) * 0.453_592_37).rounded()) }, birthplace: place.isEmpty ? nil : place)
            }
            .sorted { ($0.number ?? Int.max, $0.name) < ($1.number ?? Int.max, $1.name) }
        self.init(league: "NBA", team: team.abbrev, groups: [Group(name: "Players", players: players)])
    }
}

/// `faceoff standings --league nba`: by conference (ESPN's seeds) or by division.
public struct NBAStandingsReport: Codable, Sendable, Equatable {
    public enum Grouping: String, Codable, Sendable, CaseIterable {
        case conference, division
    }

    public struct Row: Codable, Sendable, Equatable {
        /// The place in its group: the playoff seed by conference, by record in a division.
        public var rank: Int
        public var seed: Int?
        public var abbrev: String
        public var name: String
        public var wins: Int
        public var losses: Int
        /// ".732", as ESPN writes it.
        public var winPct: String?
        /// "-" for the leader, else games behind it ("3.5"), within the group.
        public var gamesBehind: String?
        /// "W3"
        public var streak: String?
        /// "8-2"
        public var lastTen: String?
        public var home: String?
        public var road: String?
        /// ESPN's mark: z, y, x, pb, e…
        public var clinch: String?
        /// A team the config follows.
        public var followed = false
    }

    public struct Group: Codable, Sendable, Equatable {
        public var name: String
        public var rows: [Row]
    }

    public var league = "NBA"
    public var by: Grouping
    /// "2025-26"
    public var season: String?
    public var groups: [Group]

    /// What ESPN's clinch marks mean, as its final tables use them: `*` on the league's best
    /// record, `z` on each other conference's first seed, `xp` on the seeds the play-in decided.
    public static let clinchMarks: [(mark: String, meaning: String)] = [
        ("*", "best record in the league"), ("z", "first in the conference"), ("y", "division title"), ("x", "playoff spot"),
        ("xp", "playoff spot through the play-in"), ("pb", "play-in spot"), ("e", "eliminated"),
    ]

    public init(standings: ESPNStandings, by: Grouping, followed: [NBATeam] = []) {
        self.by = by
        season = standings.season?.displayName
        struct Entry {
            var team: NBATeam?
            var row: Row
            var sortKey: (Int, Double)
        }
        func entry(_ source: ESPNStandings.Entry) -> Entry? {
            guard let id = source.team?.id, let abbrev = source.team?.abbreviation else { return nil }
            let wins = source.stat("wins")?.value.flatMap { Plausible.int($0, in: Plausible.seasonCount) } ?? 0
            let losses = source.stat("losses")?.value.flatMap { Plausible.int($0, in: Plausible.seasonCount) } ?? 0
            let seed = source.stat("playoffSeed")?.value.flatMap { Plausible.int($0, in: Plausible.seasonCount) }
            let clinch = source.stat("clincher")?.displayValue.flatMap { $0.isEmpty || $0 == "-" ? nil : $0 }
            let row = Row(
                rank: 0, seed: seed, abbrev: abbrev, name: source.team?.displayName ?? abbrev, wins: wins, losses: losses,
                winPct: source.stat("winPercent")?.displayValue, gamesBehind: source.stat("gamesBehind")?.displayValue,
                streak: source.stat("streak")?.displayValue, lastTen: source.stat("Last Ten Games")?.displayValue,
                home: source.stat("Home")?.displayValue, road: source.stat("Road")?.displayValue, clinch: clinch,
                followed: followed.contains { $0.id == id })
            let games = wins + losses
            return Entry(team: NBATeams.team(id: id), row: row, sortKey: (seed ?? Int.max, games == 0 ? 0 : -Double(wins) / Double(games)))
        }
        switch by {
        case .conference:
            // ESPN's entries are not in order: by seed, and a team without one by record.
            groups = (standings.children ?? []).map { group in
                let entries = (group.standings?.entries ?? []).compactMap(entry).sorted { $0.sortKey < $1.sortKey }
                return Group(
                    name: group.name ?? "", rows: entries.enumerated().map { index, entry in with(entry.row) { $0.rank = index + 1 } })
            }
        case .division:
            let entries = (standings.children ?? []).flatMap { $0.standings?.entries ?? [] }.compactMap(entry)
            var order: [String] = []
            for team in NBATeams.all where !order.contains(team.division) { order.append(team.division) }
            groups = order.compactMap { division in
                let members = entries.filter { $0.team?.division == division }
                    .sorted { (-Self.pct($0.row), $0.sortKey.0) < (-Self.pct($1.row), $1.sortKey.0) }
                guard let leader = members.first?.row else { return nil }
                let rows = members.enumerated().map { index, entry in
                    with(entry.row) { row in
                        row.rank = index + 1
                        row.gamesBehind = Self.gamesBehind(row, leader: leader)
                    }
                }
                return Group(name: division, rows: rows)
            }
        }
    }

    static func pct(_ row: Row) -> Double {
        let games = row.wins + row.losses
        return games == 0 ? 0 : Double(row.wins) / Double(games)
    }

    /// Half the difference of the two records, "-" for the leader itself.
    static func gamesBehind(_ row: Row, leader: Row) -> String {
        let behind = Double((leader.wins - row.wins) + (row.losses - leader.losses)) / 2
        if behind == 0 { return "-" }
        return behind == behind.rounded() ? String(Int(behind)) : String(format: "%.1f", behind)
    }
}

private func with<T>(_ value: T, _ change: (inout T) -> Void) -> T {
    var copy = value
    change(&copy)
    return copy
}

extension ScoresReport {
    /// A day of NBA games from ESPN's scoreboard, followed teams' first: a live game's quarter
    /// and clock, halftime or the end of a quarter, a final's OT.
    /// `day`: the day asked for, for a scoreboard that does not say its own.
    public init(nba board: ESPNScoreboard, day: String?, followed: [NBATeam], time: LocalTime) {
        league = "NBA"
        // A scoreboard that says neither its day nor was asked for one (ESPN's today) is the
        // day its games are on, as the NBA dates them (US Eastern).
        date = board.day?.date ?? day ?? (board.events ?? []).compactMap { $0.date.flatMap(ESPNDate.easternDay) }.min()
        var games: [Game] = []
        for event in board.events ?? [] {
            let ids = Set((event.competition?.competitors ?? []).compactMap { $0.team?.id })
            let ours = followed.first { ids.contains($0.id) }
            guard let summary = GameSummary(nba: event, team: ours, time: time) else { continue }
            let status = event.competition?.status
            var period: String?
            var clock: String?
            if summary.isLive {
                switch status?.type?.name {
                case "STATUS_HALFTIME": period = "Halftime"
                case "STATUS_END_PERIOD": period = status?.period.map { "End of \(NBAPeriod.ordinal($0))" }
                default:
                    period = status?.period.map(NBAPeriod.ordinal)
                    clock = status?.displayClock
                }
            }
            games.append(
                Game(
                    id: summary.id, status: summary.status, start: summary.start, startLocal: summary.startLocal, timeTBD: summary.timeTBD,
                    away: summary.away, home: summary.home, period: period, clock: clock, intermission: false, powerPlay: nil,
                    emptyNet: [], endedIn: summary.endedIn, networks: summary.networks, followed: ours != nil))
        }
        self.games = games.filter(\.followed) + games.filter { !$0.followed }
    }
}
