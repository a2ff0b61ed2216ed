import Foundation

/// `GET /v1/score/{date|now}`: every game of one day with goals; the cheapest live refresh.
public struct DailyScore: Codable, Sendable, Equatable {
    public var prevDate: String?
    public var currentDate: String?
    public var nextDate: String?
    /// Days around `currentDate` with game counts only (no `games`).
    public var gameWeek: [GameDay]?
    public var games: [ScheduleGame]?
}

/// A goal in score `games[].goals[]`. No situationCode here: use `strength` and `goalModifier`.
public struct ScoreGoal: Codable, Sendable, Equatable {
    public var period: Int?
    public var periodDescriptor: PeriodDescriptor?
    /// Elapsed time in the period, "MM:SS".
    public var timeInPeriod: String?
    public var playerId: Int?
    /// "E. Robinson".
    public var name: LocalizedString?
    public var firstName: LocalizedString?
    public var lastName: LocalizedString?
    /// none | empty-net | penalty-shot | own-goal | own-goal-empty-net | awarded | awarded-empty-net.
    public var goalModifier: String?
    /// ev | pp | sh (upper-case EV/PP/SH in 2023-era responses).
    public var strength: String?
    public var assists: [ScoreAssist]?
    /// A plain string here ("CAR"); LocalizedString accepts both shapes.
    public var teamAbbrev: LocalizedString?
    public var goalsToDate: Int?
    public var awayScore: Int?
    public var homeScore: Int?
    public var mugshot: String?
    public var situationCode: String?
    public var shotType: String?
    public var highlightClip: Int?
    public var highlightClipSharingUrl: String?

    /// `strength` lower-cased ("ev", "pp", "sh").
    public var normalizedStrength: String? { strength?.lowercased() }
    public var isEmptyNet: Bool { goalModifier?.contains("empty-net") ?? false }
}

/// An assist in score goals and landing scoring goals.
public struct ScoreAssist: Codable, Sendable, Equatable {
    public var playerId: Int?
    public var name: LocalizedString?
    public var firstName: LocalizedString?
    public var lastName: LocalizedString?
    public var assistsToDate: Int?
    public var sweaterNumber: Int?
}
