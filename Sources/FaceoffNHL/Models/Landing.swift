import Foundation

/// `GET /v1/gamecenter/{gameId}/landing`. The pre-game `matchup` block is not modelled.
public struct GameLanding: Codable, Sendable, Equatable, GameStateCarrying {
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
    public var periodDescriptor: PeriodDescriptor?
    public var tvBroadcasts: [TVBroadcast]?
    public var gameState: GameState?
    public var gameScheduleState: GameScheduleState?
    public var awayTeam: GameTeam?
    public var homeTeam: GameTeam?
    public var shootoutInUse: Bool?
    public var maxPeriods: Int?
    public var regPeriods: Int?
    public var otInUse: Bool?
    public var tiesInUse: Bool?
    public var summary: LandingSummary?
    public var clock: GameClock?
    public var situation: Situation?
    /// Not in the recorded landings; other game endpoints carry it.
    public var gameOutcome: GameOutcome?

    public var startTime: Date? { NHLTimestamp.parse(startTimeUTC) }
}

public struct LandingSummary: Codable, Sendable, Equatable {
    /// One entry per period played (also OT/SO, possibly with no goals).
    public var scoring: [PeriodScoring]?
    /// Shootout attempts in order; empty when there was none.
    public var shootout: [ShootoutAttempt]?
    public var threeStars: [ThreeStar]?
    public var penalties: [PeriodPenalties]?

    /// All goals of all periods, in order.
    public var allGoals: [LandingGoal] { (scoring ?? []).flatMap { $0.goals ?? [] } }
}

public struct PeriodScoring: Codable, Sendable, Equatable {
    public var periodDescriptor: PeriodDescriptor?
    public var goals: [LandingGoal]?
}

public struct LandingGoal: Codable, Sendable, Equatable {
    public var situationCode: String?
    public var eventId: Int?
    /// ev | pp | sh (official label; prefer it over situationCode).
    public var strength: String?
    public var playerId: Int?
    public var firstName: LocalizedString?
    public var lastName: LocalizedString?
    public var name: LocalizedString?
    /// `{"default": "TOR"}` here.
    public var teamAbbrev: LocalizedString?
    public var headshot: String?
    public var goalsToDate: Int?
    public var awayScore: Int?
    public var homeScore: Int?
    public var leadingTeamAbbrev: LocalizedString?
    public var timeInPeriod: String?
    public var shotType: String?
    /// none | empty-net | penalty-shot | own-goal | …
    public var goalModifier: String?
    public var assists: [ScoreAssist]?
    public var homeTeamDefendingSide: String?
    public var isHome: Bool?
    public var highlightClip: Int?
    public var highlightClipSharingUrl: String?
    public var pptReplayUrl: String?
}

public struct ShootoutAttempt: Codable, Sendable, Equatable {
    public var sequence: Int?
    public var playerId: Int?
    public var teamAbbrev: LocalizedString?
    public var firstName: LocalizedString?
    public var lastName: LocalizedString?
    public var shotType: String?
    /// "goal" | "save" | "miss" …
    public var result: String?
    public var headshot: String?
    public var gameWinner: Bool?
}

public struct ThreeStar: Codable, Sendable, Equatable {
    public var star: Int?
    public var playerId: Int?
    /// A plain string here ("TOR").
    public var teamAbbrev: LocalizedString?
    public var headshot: String?
    public var name: LocalizedString?
    public var sweaterNo: Int?
    public var position: String?
    public var goals: Int?
    public var assists: Int?
    public var points: Int?
    // goalies
    public var goalsAgainstAverage: Double?
    public var savePctg: Double?
}

public struct PeriodPenalties: Codable, Sendable, Equatable {
    public var periodDescriptor: PeriodDescriptor?
    public var penalties: [LandingPenalty]?
}

public struct LandingPenalty: Codable, Sendable, Equatable {
    public var timeInPeriod: String?
    /// MIN, MAJ, MIS, BEN, …
    public var type: String?
    /// Minutes.
    public var duration: Int?
    public var committedByPlayer: PersonName?
    public var teamAbbrev: LocalizedString?
    public var drawnBy: PersonName?
    public var servedBy: PersonName?
    public var descKey: String?
}
