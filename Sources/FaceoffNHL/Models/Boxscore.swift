import Foundation

/// `GET /v1/gamecenter/{gameId}/boxscore`. (`summary` is `{}` in the recording and not modelled.)
public struct Boxscore: Codable, Sendable, Equatable, GameStateCarrying {
    public var id: Int?
    public var season: Int?
    public var gameType: GameType?
    public var limitedScoring: Bool?
    public var gameDate: String?
    public var venue: LocalizedString?
    public var venueLocation: LocalizedString?
    public var startTimeUTC: String?
    public var easternUTCOffset: String?
    public var venueUTCOffset: String?
    public var venueTimezone: String?
    public var tvBroadcasts: [TVBroadcast]?
    public var gameState: GameState?
    public var gameScheduleState: GameScheduleState?
    public var periodDescriptor: PeriodDescriptor?
    public var regPeriods: Int?
    public var awayTeam: GameTeam?
    public var homeTeam: GameTeam?
    public var clock: GameClock?
    public var situation: Situation?
    public var playerByGameStats: PlayerByGameStats?
    public var gameOutcome: GameOutcome?

    public var startTime: Date? { NHLTimestamp.parse(startTimeUTC) }
}

public struct PlayerByGameStats: Codable, Sendable, Equatable {
    public var awayTeam: TeamPlayerStats?
    public var homeTeam: TeamPlayerStats?
}

/// Note: `defense` here, `defensemen` in rosters.
public struct TeamPlayerStats: Codable, Sendable, Equatable {
    public var forwards: [SkaterGameStats]?
    public var defense: [SkaterGameStats]?
    public var goalies: [GoalieGameStats]?

    public var skaters: [SkaterGameStats] { (forwards ?? []) + (defense ?? []) }
}

public struct SkaterGameStats: Codable, Sendable, Equatable {
    public var playerId: Int?
    public var sweaterNumber: Int?
    /// "R. Donato".
    public var name: LocalizedString?
    public var position: String?
    public var goals: Int?
    public var assists: Int?
    public var points: Int?
    public var plusMinus: Int?
    public var pim: Int?
    public var hits: Int?
    public var powerPlayGoals: Int?
    public var sog: Int?
    public var faceoffWinningPctg: Double?
    public var toi: String?
    public var blockedShots: Int?
    public var shifts: Int?
    public var giveaways: Int?
    public var takeaways: Int?
}

/// `savePctg` and `decision` are absent for goalies who didn't play.
public struct GoalieGameStats: Codable, Sendable, Equatable {
    public var playerId: Int?
    public var sweaterNumber: Int?
    public var name: LocalizedString?
    public var position: String?
    /// "saves/shots", e.g. "12/16".
    public var evenStrengthShotsAgainst: String?
    public var powerPlayShotsAgainst: String?
    public var shorthandedShotsAgainst: String?
    public var saveShotsAgainst: String?
    public var savePctg: Double?
    public var evenStrengthGoalsAgainst: Int?
    public var powerPlayGoalsAgainst: Int?
    public var shorthandedGoalsAgainst: Int?
    public var pim: Int?
    public var goalsAgainst: Int?
    public var toi: String?
    public var starter: Bool?
    /// "W" | "L" | "O".
    public var decision: String?
    public var shotsAgainst: Int?
    public var saves: Int?
}
