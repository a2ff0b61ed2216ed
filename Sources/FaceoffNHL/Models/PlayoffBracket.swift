import Foundation

/// `GET /v1/playoff-bracket/{year}` (the calendar year the playoffs are played in). Not
/// recorded: the shape is API.md §12b's, and every key may be missing.
public struct PlayoffBracket: Codable, Sendable, Equatable {
    public var bracketLogo: String?
    public var series: [PlayoffBracketSeries]?
}

/// One series of the bracket: `seriesLetter` A–H in the 1st round, I–L in the 2nd, M–N the
/// conference finals, O the final. Teams are absent while a slot is undecided.
public struct PlayoffBracketSeries: Codable, Sendable, Equatable {
    public var seriesUrl: String?
    /// "1st Round", "Eastern Conference Finals", "Stanley Cup Final"
    public var seriesTitle: String?
    /// "R1", "R2", "ECF", "WCF", "SCF"
    public var seriesAbbrev: String?
    public var seriesLetter: String?
    public var playoffRound: Int?
    public var topSeedRank: Int?
    /// "D1", "WC2"
    public var topSeedRankAbbrev: String?
    public var topSeedWins: Int?
    public var bottomSeedRank: Int?
    public var bottomSeedRankAbbrev: String?
    public var bottomSeedWins: Int?
    public var winningTeamId: Int?
    public var losingTeamId: Int?
    public var topSeedTeam: BracketTeam?
    public var bottomSeedTeam: BracketTeam?
    public var conferenceAbbrev: String?
    public var conferenceName: String?
}

public struct BracketTeam: Codable, Sendable, Equatable {
    public var id: Int?
    public var abbrev: String?
    public var name: LocalizedString?
    public var commonName: LocalizedString?
    public var placeNameWithPreposition: LocalizedString?
    public var logo: String?
    public var darkLogo: String?
}
