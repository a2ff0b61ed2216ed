import Foundation

/// `GET /v1/gamecenter/{gameId}/right-rail`: linescore, shots by period, team stats, season series.
public struct GameRightRail: Codable, Sendable, Equatable {
    public var seasonSeries: [ScheduleGame]?
    public var seasonSeriesWins: SeasonSeriesWins?
    public var gameInfo: GameInfo?
    public var linescore: Linescore?
    public var shotsByPeriod: [PeriodLine]?
    /// `{category: "powerPlay", awayValue: "0/4", homeValue: "0/0"}`, numbers elsewhere.
    public var teamGameStats: [TeamGameStat]?
    public var gameReports: [String: String]?

    /// The team stat with that category ("sog", "powerPlay", "faceoffWinningPctg", "pim", "hits"…).
    public func teamStat(_ category: String) -> TeamGameStat? {
        teamGameStats?.first { $0.category == category }
    }
}

public struct SeasonSeriesWins: Codable, Sendable, Equatable {
    public var awayTeamWins: Int?
    public var homeTeamWins: Int?
}

public struct GameInfo: Codable, Sendable, Equatable {
    public var referees: [LocalizedString]?
    public var linesmen: [LocalizedString]?
    public var awayTeam: GameInfoTeam?
    public var homeTeam: GameInfoTeam?
}

public struct GameInfoTeam: Codable, Sendable, Equatable {
    public var headCoach: LocalizedString?
    public var scratches: [ScratchedPlayer]?
}

public struct ScratchedPlayer: Codable, Sendable, Equatable {
    public var id: Int?
    public var firstName: LocalizedString?
    public var lastName: LocalizedString?
}

public struct Linescore: Codable, Sendable, Equatable {
    public var byPeriod: [PeriodLine]?
    public var totals: AwayHome?
}

public struct PeriodLine: Codable, Sendable, Equatable {
    public var periodDescriptor: PeriodDescriptor?
    public var away: Int?
    public var home: Int?
}

public struct AwayHome: Codable, Sendable, Equatable {
    public var away: Int?
    public var home: Int?
}

public struct TeamGameStat: Codable, Sendable, Equatable {
    public var category: String?
    public var awayValue: FlexibleValue?
    public var homeValue: FlexibleValue?
}
