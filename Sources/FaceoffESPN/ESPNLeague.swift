/// A league in ESPN's site API: its paths name the sport and the league
/// (`basketball/nba`, `football/nfl`), and every resource Faceoff reads is the same shape
/// under them. The league's team table sits beside it (`NBATeams` for the NBA).
public struct ESPNLeague: Sendable, Hashable {
    /// ESPN's sport in paths: `basketball`.
    public let sport: String
    /// ESPN's league in paths: `nba`.
    public let league: String
    /// As fans write it: "NBA".
    public let name: String
    /// How many teams it has, for telling a gutted team list from a real one.
    public let teamCount: Int

    public init(sport: String, league: String, name: String, teamCount: Int) {
        self.sport = sport
        self.league = league
        self.name = name
        self.teamCount = teamCount
    }

    /// `basketball/nba`: the part of every path that names the league.
    public var path: String { "\(sport)/\(league)" }

    public static let nba = ESPNLeague(sport: "basketball", league: "nba", name: "NBA", teamCount: NBATeams.all.count)
}
