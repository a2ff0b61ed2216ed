import Foundation

/// `GET /v1/club-schedule-season/{TEAM}/{SEASON|now}` (also covers the `club-schedule/{TEAM}/week|month`
/// variants, whose extra top-level keys are optional here).
public struct ClubSchedule: Codable, Sendable, Equatable {
    public var previousSeason: Int?
    public var currentSeason: Int?
    /// Absent while the next season isn't scheduled.
    public var nextSeason: Int?
    public var clubTimezone: String?
    public var clubUTCOffset: String?
    /// Chronological; preseason (1), regular (2) and playoff (3) games.
    public var games: [ScheduleGame]?
    // week / month variants only
    public var previousStartDate: String?
    public var nextStartDate: String?
    public var previousMonth: String?
    public var currentMonth: String?
    public var nextMonth: String?
    public var calendarUrl: String?
}

/// The game object shared by club schedule, league schedule (`gameWeek[].games[]`), scoreboard
/// (`gamesByDate[].games[]`), score (`games[]`) and right-rail `seasonSeries[]`.
/// Score games add `clock`, `period`, `goals` and, while live, `situation`.
public struct ScheduleGame: Codable, Sendable, Equatable, GameStateCarrying {
    public var id: Int?
    public var season: Int?
    public var gameType: GameType?
    /// Local calendar date of the venue, "YYYY-MM-DD".
    public var gameDate: String?
    public var venue: LocalizedString?
    public var neutralSite: Bool?
    /// "2025-10-12T00:00:00Z"; a placeholder when `gameScheduleState` is TBD. See `startTime`.
    public var startTimeUTC: String?
    public var easternUTCOffset: String?
    public var venueUTCOffset: String?
    public var venueTimezone: String?
    public var gameState: GameState?
    public var gameScheduleState: GameScheduleState?
    public var tvBroadcasts: [TVBroadcast]?
    public var alternateBroadcasts: [AlternateBroadcast]?
    public var awayTeam: GameTeam?
    public var homeTeam: GameTeam?
    public var periodDescriptor: PeriodDescriptor?
    public var gameOutcome: GameOutcome?
    public var winningGoalie: GamePlayerRef?
    /// Absent for shootout wins.
    public var winningGoalScorer: GamePlayerRef?
    public var seriesStatus: SeriesStatus?
    public var seriesUrl: String?
    public var gameCenterLink: String?
    public var specialEvent: SpecialEvent?
    public var threeMinRecap: String?
    public var threeMinRecapFr: String?
    public var condensedGame: String?
    public var condensedGameFr: String?
    public var ticketsLink: String?
    public var ticketsLinkFr: String?
    // score endpoint / live
    public var clock: GameClock?
    public var period: Int?
    public var goals: [ScoreGoal]?
    public var situation: Situation?

    /// `startTimeUTC` parsed (ISO-8601), nil when absent or malformed.
    public var startTime: Date? { NHLTimestamp.parse(startTimeUTC) }
    package init(
        id: Int? = nil, season: Int? = nil, gameType: GameType? = nil, gameDate: String? = nil, venue: LocalizedString? = nil,
        neutralSite: Bool? = nil, startTimeUTC: String? = nil, easternUTCOffset: String? = nil, venueUTCOffset: String? = nil,
        venueTimezone: String? = nil, gameState: GameState? = nil, gameScheduleState: GameScheduleState? = nil,
        tvBroadcasts: [TVBroadcast]? = nil, alternateBroadcasts: [AlternateBroadcast]? = nil, awayTeam: GameTeam? = nil,
        homeTeam: GameTeam? = nil, periodDescriptor: PeriodDescriptor? = nil, gameOutcome: GameOutcome? = nil,
        winningGoalie: GamePlayerRef? = nil, winningGoalScorer: GamePlayerRef? = nil, seriesStatus: SeriesStatus? = nil,
        seriesUrl: String? = nil, gameCenterLink: String? = nil, specialEvent: SpecialEvent? = nil, threeMinRecap: String? = nil,
        threeMinRecapFr: String? = nil, condensedGame: String? = nil, condensedGameFr: String? = nil, ticketsLink: String? = nil,
        ticketsLinkFr: String? = nil, clock: GameClock? = nil, period: Int? = nil, goals: [ScoreGoal]? = nil, situation: Situation? = nil
    ) {
        self.id = id
        self.season = season
        self.gameType = gameType
        self.gameDate = gameDate
        self.venue = venue
        self.neutralSite = neutralSite
        self.startTimeUTC = startTimeUTC
        self.easternUTCOffset = easternUTCOffset
        self.venueUTCOffset = venueUTCOffset
        self.venueTimezone = venueTimezone
        self.gameState = gameState
        self.gameScheduleState = gameScheduleState
        self.tvBroadcasts = tvBroadcasts
        self.alternateBroadcasts = alternateBroadcasts
        self.awayTeam = awayTeam
        self.homeTeam = homeTeam
        self.periodDescriptor = periodDescriptor
        self.gameOutcome = gameOutcome
        self.winningGoalie = winningGoalie
        self.winningGoalScorer = winningGoalScorer
        self.seriesStatus = seriesStatus
        self.seriesUrl = seriesUrl
        self.gameCenterLink = gameCenterLink
        self.specialEvent = specialEvent
        self.threeMinRecap = threeMinRecap
        self.threeMinRecapFr = threeMinRecapFr
        self.condensedGame = condensedGame
        self.condensedGameFr = condensedGameFr
        self.ticketsLink = ticketsLink
        self.ticketsLinkFr = ticketsLinkFr
        self.clock = clock
        self.period = period
        self.goals = goals
        self.situation = situation
    }
}

/// `GET /v1/schedule/{date|now}`: a league week.
public struct LeagueSchedule: Codable, Sendable, Equatable {
    public var nextStartDate: String?
    public var previousStartDate: String?
    public var gameWeek: [GameDay]?
    public var preSeasonStartDate: String?
    public var regularSeasonStartDate: String?
    public var regularSeasonEndDate: String?
    public var playoffEndDate: String?
    public var numberOfGames: Int?

    /// Every game of the week, in day order.
    public var allGames: [ScheduleGame] { (gameWeek ?? []).flatMap { $0.games ?? [] } }
}

/// One day of `gameWeek` (league schedule has `games`; the score endpoint's `gameWeek` has none).
public struct GameDay: Codable, Sendable, Equatable {
    public var date: String?
    public var dayAbbrev: String?
    public var numberOfGames: Int?
    public var games: [ScheduleGame]?
}

/// `GET /v1/scoreboard/now` and `/v1/scoreboard/{TEAM}/now`.
public struct Scoreboard: Codable, Sendable, Equatable {
    public var focusedDate: String?
    public var focusedDateCount: Int?
    public var gamesByDate: [ScoreboardDay]?
    // team-focused variant
    public var clubTimeZone: String?
    public var clubUTCOffset: String?
    public var clubScheduleLink: String?
}

public struct ScoreboardDay: Codable, Sendable, Equatable {
    public var date: String?
    public var games: [ScheduleGame]?
}
