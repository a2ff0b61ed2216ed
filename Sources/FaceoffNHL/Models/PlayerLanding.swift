import Foundation

/// `GET /v1/player/{playerId}/landing`. Retired players have `isActive == false` and no `currentTeam*`.
public struct PlayerLanding: Codable, Sendable, Equatable {
    public var playerId: Int?
    public var isActive: Bool?
    public var currentTeamId: Int?
    public var currentTeamAbbrev: String?
    public var fullTeamName: LocalizedString?
    public var teamCommonName: LocalizedString?
    public var teamPlaceNameWithPreposition: LocalizedString?
    public var firstName: LocalizedString?
    public var lastName: LocalizedString?
    public var badges: [PlayerBadge]?
    public var teamLogo: String?
    public var sweaterNumber: Int?
    /// "C" | "L" | "R" | "D" | "G".
    public var position: String?
    public var headshot: String?
    public var heroImage: String?
    public var heightInInches: Int?
    public var heightInCentimeters: Int?
    public var weightInPounds: Int?
    public var weightInKilograms: Int?
    public var birthDate: String?
    public var birthCity: LocalizedString?
    public var birthStateProvince: LocalizedString?
    public var birthCountry: String?
    public var shootsCatches: String?
    public var draftDetails: DraftDetails?
    public var playerSlug: String?
    /// 0/1 in the recordings.
    public var inTop100AllTime: FlexibleBool?
    public var inHHOF: FlexibleBool?
    public var featuredStats: FeaturedStats?
    public var careerTotals: CareerTotals?
    public var shopLink: String?
    public var twitterLink: String?
    public var watchLink: String?
    public var last5Games: [PlayerGameLogEntry]?
    /// Includes non-NHL leagues: filter `leagueAbbrev == "NHL"` and the game type.
    public var seasonTotals: [SeasonTotal]?
    public var awards: [PlayerAward]?
    public var currentTeamRoster: [TeammateRef]?

    public var fullName: String {
        [firstName?.value, lastName?.value].compactMap { $0 }.joined(separator: " ")
    }
    public var isGoalie: Bool { position == "G" }

    /// NHL rows of `seasonTotals` for a game type (regular season by default), in order.
    public func nhlSeasons(gameType: GameType = .regularSeason) -> [SeasonTotal] {
        (seasonTotals ?? []).filter { $0.leagueAbbrev == "NHL" && $0.gameTypeId == gameType }
    }
}

public struct DraftDetails: Codable, Sendable, Equatable {
    public var year: Int?
    public var teamAbbrev: String?
    public var round: Int?
    public var pickInRound: Int?
    public var overallPick: Int?
}

/// `featuredStats = {season, regularSeason: {subSeason, career}, playoffs?: {subSeason?, career}}`.
public struct FeaturedStats: Codable, Sendable, Equatable {
    public var season: Int?
    public var regularSeason: FeaturedStatsGroup?
    public var playoffs: FeaturedStatsGroup?
}

public struct FeaturedStatsGroup: Codable, Sendable, Equatable {
    /// The `season`'s numbers.
    public var subSeason: PlayerStatLine?
    public var career: PlayerStatLine?
}

public struct CareerTotals: Codable, Sendable, Equatable {
    public var regularSeason: PlayerStatLine?
    public var playoffs: PlayerStatLine?
}

/// Union of skater and goalie stat keys used by featuredStats, careerTotals and seasonTotals.
/// Percentages and averages are Doubles (fractions: `savePctg` 0.898807, `shootingPctg` 0.1234).
public struct PlayerStatLine: Codable, Sendable, Equatable {
    public var gamesPlayed: Int?
    // skaters
    public var goals: Int?
    public var assists: Int?
    public var points: Int?
    public var plusMinus: Int?
    public var pim: Int?
    public var gameWinningGoals: Int?
    public var otGoals: Int?
    public var shots: Int?
    public var shootingPctg: Double?
    public var powerPlayGoals: Int?
    public var powerPlayPoints: Int?
    public var shorthandedGoals: Int?
    public var shorthandedPoints: Int?
    /// "MM:SS" average time on ice.
    public var avgToi: String?
    public var faceoffWinningPctg: Double?
    public var hits: Int?
    public var blockedShots: Int?
    // goalies
    public var gamesStarted: Int?
    public var wins: Int?
    public var losses: Int?
    public var otLosses: Int?
    public var ties: Int?
    public var shutouts: Int?
    public var goalsAgainstAvg: Double?
    public var savePctg: Double?
    public var goalsAgainst: Int?
    public var shotsAgainst: Int?
    /// Total time on ice, "MMMM:SS".
    public var timeOnIce: String?
}

/// One `seasonTotals[]` row: identification plus a flat `PlayerStatLine` (same JSON object).
public struct SeasonTotal: Codable, Sendable, Equatable {
    public var season: Int?
    public var sequence: Int?
    /// "NHL", "AHL", "OHL", "WC", …
    public var leagueAbbrev: String?
    public var gameTypeId: GameType?
    public var teamName: LocalizedString?
    public var teamCommonName: LocalizedString?
    public var teamPlaceNameWithPreposition: LocalizedString?
    /// The row's numbers (decoded from the same object).
    public var stats: PlayerStatLine

    private enum CodingKeys: String, CodingKey {
        case season, sequence, leagueAbbrev, gameTypeId, teamName, teamCommonName, teamPlaceNameWithPreposition
    }

    public init(
        season: Int? = nil, sequence: Int? = nil, leagueAbbrev: String? = nil, gameTypeId: GameType? = nil,
        teamName: LocalizedString? = nil, teamCommonName: LocalizedString? = nil,
        teamPlaceNameWithPreposition: LocalizedString? = nil, stats: PlayerStatLine? = nil
    ) {
        self.season = season
        self.sequence = sequence
        self.leagueAbbrev = leagueAbbrev
        self.gameTypeId = gameTypeId
        self.teamName = teamName
        self.teamCommonName = teamCommonName
        self.teamPlaceNameWithPreposition = teamPlaceNameWithPreposition
        self.stats = stats ?? PlayerStatLine()
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        season = try c.decodeIfPresent(Int.self, forKey: .season)
        sequence = try c.decodeIfPresent(Int.self, forKey: .sequence)
        leagueAbbrev = try c.decodeIfPresent(String.self, forKey: .leagueAbbrev)
        gameTypeId = try c.decodeIfPresent(GameType.self, forKey: .gameTypeId)
        teamName = try c.decodeIfPresent(LocalizedString.self, forKey: .teamName)
        teamCommonName = try c.decodeIfPresent(LocalizedString.self, forKey: .teamCommonName)
        teamPlaceNameWithPreposition = try c.decodeIfPresent(LocalizedString.self, forKey: .teamPlaceNameWithPreposition)
        stats = try PlayerStatLine(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try stats.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(season, forKey: .season)
        try c.encodeIfPresent(sequence, forKey: .sequence)
        try c.encodeIfPresent(leagueAbbrev, forKey: .leagueAbbrev)
        try c.encodeIfPresent(gameTypeId, forKey: .gameTypeId)
        try c.encodeIfPresent(teamName, forKey: .teamName)
        try c.encodeIfPresent(teamCommonName, forKey: .teamCommonName)
        try c.encodeIfPresent(teamPlaceNameWithPreposition, forKey: .teamPlaceNameWithPreposition)
    }
}

/// `last5Games[]` (and game-log rows): skater and goalie keys, all optional.
public struct PlayerGameLogEntry: Codable, Sendable, Equatable {
    public var gameId: Int?
    public var gameDate: String?
    public var gameTypeId: GameType?
    /// "H" | "R".
    public var homeRoadFlag: String?
    public var opponentAbbrev: String?
    public var teamAbbrev: String?
    public var opponentCommonName: LocalizedString?
    public var commonName: LocalizedString?
    public var toi: String?
    // skaters
    public var goals: Int?
    public var assists: Int?
    public var points: Int?
    public var plusMinus: Int?
    public var pim: Int?
    public var shots: Int?
    public var shifts: Int?
    public var powerPlayGoals: Int?
    public var powerPlayPoints: Int?
    public var shorthandedGoals: Int?
    public var shorthandedPoints: Int?
    public var gameWinningGoals: Int?
    public var otGoals: Int?
    // goalies
    /// "W" | "L" | "O".
    public var decision: String?
    public var gamesStarted: Int?
    public var goalsAgainst: Int?
    public var shotsAgainst: Int?
    public var savePctg: Double?
    public var penaltyMins: Int?
}

public struct PlayerBadge: Codable, Sendable, Equatable {
    public var logoUrl: LocalizedString?
    public var title: LocalizedString?
}

public struct PlayerAward: Codable, Sendable, Equatable {
    public var trophy: LocalizedString?
    public var seasons: [AwardSeason]?
}

/// One season of an award: `seasonId`, `gameTypeId` plus a flat stat line.
public struct AwardSeason: Codable, Sendable, Equatable {
    public var seasonId: Int?
    public var gameTypeId: GameType?
    public var stats: PlayerStatLine

    private enum CodingKeys: String, CodingKey { case seasonId, gameTypeId }

    public init(seasonId: Int? = nil, gameTypeId: GameType? = nil, stats: PlayerStatLine? = nil) {
        self.seasonId = seasonId
        self.gameTypeId = gameTypeId
        self.stats = stats ?? PlayerStatLine()
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        seasonId = try c.decodeIfPresent(Int.self, forKey: .seasonId)
        gameTypeId = try c.decodeIfPresent(GameType.self, forKey: .gameTypeId)
        stats = try PlayerStatLine(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try stats.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(seasonId, forKey: .seasonId)
        try c.encodeIfPresent(gameTypeId, forKey: .gameTypeId)
    }
}

/// `currentTeamRoster[]`.
public struct TeammateRef: Codable, Sendable, Equatable {
    public var playerId: Int?
    public var firstName: LocalizedString?
    public var lastName: LocalizedString?
    public var playerSlug: String?
}
