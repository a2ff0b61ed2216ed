import FaceoffAPI
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

    func team(_ abbrev: String) -> LeagueTeam? {
        NBATeams.team(abbreviation: abbrev).map {
            LeagueTeam(
                abbrev: $0.abbrev, name: $0.name, shortName: $0.shortName,
                logo: "https://a.espncdn.com/i/teamlogos/nba/500/\($0.abbrev.lowercased()).png")
        }
    }

    func liveGame(_ id: Int, client: APIClient) -> any LiveGame { NBAGame(gameID: id, client: client) }
}
