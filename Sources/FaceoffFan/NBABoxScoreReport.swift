import FaceoffESPN
import FaceoffKit
import Foundation

/// `faceoff game nba:ID`: an NBA game's points by quarter, each player's line and the
/// leaders, from ESPN's summary. A game not begun has its start and nothing else: the
/// summary's leaders then are the season's, not the game's.
public struct NBABoxScoreReport: Codable, Sendable, Equatable {
    public struct Player: Codable, Sendable, Equatable {
        public var name: String
        public var starter: Bool
        public var didNotPlay: Bool
        public var minutes: Int?
        public var points: Int?
        public var rebounds: Int?
        public var assists: Int?
        /// "5-8"
        public var fieldGoals: String?
        public var threes: String?
        public var freeThrows: String?
        /// "-11"
        public var plusMinus: String?
    }

    public struct Team: Codable, Sendable, Equatable {
        public var abbrev: String
        public var name: String
        public var score: Int?
        /// Points by period: the four quarters, then each overtime.
        public var periods: [Int]
        public var players: [Player]
    }

    public struct Leader: Codable, Sendable, Equatable {
        /// "Points"
        public var category: String
        public var team: String
        public var name: String
        public var value: String
        /// "11/16 FG, 3/6 FT"
        public var detail: String?
    }

    public var league = "NBA"
    public var id: Int
    /// scheduled | live | final | postponed | cancelled
    public var status: String
    /// ESPN's words for the moment: "Final/OT", "8:10 - 4th Quarter".
    public var detail: String?
    /// Absent while ESPN has no time for it.
    public var start: String?
    /// The game's day (US Eastern, ESPN's) when it has no time yet.
    public var day: String?
    public var venue: String?
    public var attendance: Int?
    /// A playoff game's series: "Series tied 3-3".
    public var series: String?
    public var away: Team
    public var home: Team
    public var leaders: [Leader]

    public init(summary: ESPNSummary, id: Int) {
        self.id = id
        let competition = summary.header?.competitions?.first
        status = competition?.status?.game ?? "scheduled"
        detail = competition?.status?.type?.detail
        let timed = (summary.header?.timeValid ?? competition?.timeValid) != false
        start = timed ? competition?.date : nil
        day = timed ? nil : competition?.date.flatMap(ESPNDate.easternDay)
        venue = summary.gameInfo?.venue?.fullName
        attendance = summary.gameInfo?.attendance
        series = competition?.series?.summary
        let begun = status == "live" || status == "final"
        func team(_ homeAway: String) -> Team {
            let competitor = competition?.competitors?.first { $0.homeAway == homeAway }
            let abbrev = competitor?.team?.abbreviation ?? "?"
            let lines = (summary.boxscore?.players ?? []).first { $0.team?.id != nil && $0.team?.id == competitor?.team?.id }
            let table = lines?.statistics?.first
            let names = table?.names ?? []
            let players = (table?.athletes ?? []).map { athlete in
                let stats = athlete.stats ?? []
                func stat(_ name: String) -> String? {
                    guard let index = names.firstIndex(of: name), index < stats.count else { return nil }
                    let value = stats[index]
                    return value.isEmpty || value == "--" ? nil : value
                }
                return Player(
                    name: athlete.athlete?.displayName ?? "?", starter: athlete.starter ?? false,
                    didNotPlay: athlete.didNotPlay ?? stats.isEmpty, minutes: stat("MIN").flatMap { Int($0) },
                    points: stat("PTS").flatMap { Int($0) }, rebounds: stat("REB").flatMap { Int($0) },
                    assists: stat("AST").flatMap { Int($0) }, fieldGoals: stat("FG"), threes: stat("3PT"), freeThrows: stat("FT"),
                    plusMinus: stat("+/-"))
            }
            return Team(
                abbrev: abbrev, name: competitor?.team?.displayName ?? abbrev, score: begun ? competitor?.score?.points : nil,
                periods: begun ? (competitor?.linescores ?? []).compactMap { $0.displayValue.flatMap { Int($0) } } : [],
                players: begun ? players : [])
        }
        away = team("away")
        home = team("home")
        var leaders: [Leader] = []
        if begun {
            for teamLeaders in summary.leaders ?? [] {
                for category in teamLeaders.leaders ?? [] {
                    guard let top = category.leaders?.first, let name = top.athlete?.displayName, let value = top.displayValue else {
                        continue
                    }
                    leaders.append(
                        Leader(
                            category: category.displayName ?? "?", team: teamLeaders.team?.abbreviation ?? "?", name: name, value: value,
                            detail: top.summary))
                }
            }
        }
        self.leaders = leaders
    }
}
