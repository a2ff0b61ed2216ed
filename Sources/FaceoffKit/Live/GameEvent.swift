import FaceoffNHL
import Foundation

/// What happened in a game: the one currency between detection and delivery.
/// The id is `{gameId}:{kind}:{key}` (docs/ARCHITECTURE.md, Events), stable across polls, restarts
/// and machines, so a second sighting of the same thing is recognised as the same event.
public struct GameEvent: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case pregame
        case gameStart = "game_start"
        case gameJoined = "game_joined"
        case goal
        case goalOverturned = "goal_overturned"
        case goalReinstated = "goal_reinstated"
        case scoringChange = "scoring_change"
        case goalHighlight = "goal_highlight"
        case penalty
        /// A penalty shot that did not score (saved or missed); one that scores is a `goal`
        /// with `penalty_shot`.
        case penaltyShotMissed = "penalty_shot_missed"
        case powerPlayStart = "power_play_start"
        case powerPlayChange = "power_play_change"
        case powerPlayEnd = "power_play_end"
        case goaliePulled = "goalie_pulled"
        case goalieReturned = "goalie_returned"
        case periodStart = "period_start"
        case periodEnd = "period_end"
        case final
        /// A followed team's game moved, got its time, was postponed or cancelled, added or
        /// moved to another arena (from `run`'s schedule refreshes).
        case scheduleChange = "schedule_change"
        /// What a muted or quiet sink held, in one message when the hold ends (`summary` in
        /// its details). Sent to the sink that held the alerts, whatever its `events` list.
        case digest
        // Basketball's (the NBA through ESPN; `Live/Basketball/`).
        /// A basket or free throw, each one: opt-in.
        case score
        /// The other team goes ahead.
        case leadChange = "lead_change"
        /// One team's unanswered points reach `NBAEventDetector.runPoints` (10-0).
        case run
        /// Within `NBAEventDetector.closeMargin` points in the last five minutes of the 4th
        /// quarter or in overtime: once each time the game gets that close.
        case closeGame = "close_game"
        /// A player's 30, 40 or 50 points, double-double or triple-double.
        case milestone

        /// Kinds a sink gets only when its `events` lists them: a highlight link comes minutes
        /// after its goal, which is news only to a sink that asked; a basket-by-basket feed is
        /// for a sink that wants every one.
        public static let optIn: Set<Kind> = [.goalHighlight, .score]
        /// What a sink without `events` gets.
        public static let byDefault = allCases.filter { !optIn.contains($0) }
    }

    public struct Player: Codable, Sendable, Equatable {
        /// scorer, assist, penalty, drawn_by, served_by; a penalty shot's shooter and goalie
        public var role: String
        public var id: Int
        public var name: String
        public var team: String?
        /// Season total after this game event (goals for a scorer, assists for an assist).
        public var seasonTotal: Int?
    }

    public struct Score: Codable, Sendable, Equatable {
        public var away: Int
        public var home: Int

        public init(away: Int, home: Int) {
            self.away = away
            self.home = home
        }
    }

    /// A playoff game's series: before the game for `pregame` and `game_start`, after it for
    /// `final`.
    public struct Series: Codable, Sendable, Equatable {
        public var round: Int?
        public var letter: String?
        /// "R1"
        public var abbrev: String
        public var game: Int
        public var topSeed: String?
        public var bottomSeed: String?
        public var topWins: Int
        public var bottomWins: Int
        public var neededToWin: Int
        /// "WSH leads 3–1", "series tied 2–2", "WSH wins 4–1"
        public var text: String?
        /// Who won it, once one side has `neededToWin`.
        public var winner: String?

        public init(_ state: SeriesState) {
            round = state.round
            letter = state.letter
            abbrev = state.abbrev
            game = state.gameNumber
            topSeed = state.top
            bottomSeed = state.bottom
            topWins = state.topWins
            bottomWins = state.bottomWins
            neededToWin = state.neededToWin
            text = state.text
            if max(topWins, bottomWins) >= neededToWin { winner = topWins > bottomWins ? state.top : state.bottom }
        }
    }

    public var kind: Kind
    public var id: String
    /// The NBA's games say so; the NHL's leave it out, as they always did.
    public var league: League?
    public var gameId: Int
    public var away: String
    public var home: String
    /// The team the event is about (the scorer's, the penalised, the one on the power play...).
    public var team: String?
    public var period: Int?
    /// REG, OT or SO
    public var periodType: String?
    /// Elapsed time in the period, "MM:SS".
    public var clock: String?
    public var score: Score
    public var shots: Score?
    /// EV, PP or SH for goals; "5v4" etc. for power plays.
    public var strength: String?
    public var emptyNet: Bool?
    public var penaltyShot: Bool?
    public var players: [Player]
    /// For a playoff game's `pregame`, `game_start` and `final`.
    public var series: Series?
    /// Kind-specific facts: infraction, minutes, reason (expired/goal/offsetting/penalty), ended_in
    /// (REG/OT/SO), winner, revision, intermission, minutes_before...
    public var details: [String: String]
    /// When Faceoff first saw the event in a feed (wall clock, by any process on the store):
    /// what a sink's delay counts from. Set by the watcher; nil until then.
    public var seenAt: Date?

    public init(
        kind: Kind, key: String?, gameId: Int, away: String, home: String, team: String? = nil, period: Int? = nil,
        periodType: String? = nil, clock: String? = nil, score: Score, shots: Score? = nil, strength: String? = nil,
        emptyNet: Bool? = nil, penaltyShot: Bool? = nil, players: [Player] = [], details: [String: String] = [:]
    ) {
        self.kind = kind
        id = key.map { "\(gameId):\(kind.rawValue):\($0)" } ?? "\(gameId):\(kind.rawValue)"
        self.gameId = gameId
        self.away = away
        self.home = home
        self.team = team
        self.period = period
        self.periodType = periodType
        self.clock = clock
        self.score = score
        self.shots = shots
        self.strength = strength
        self.emptyNet = emptyNet
        self.penaltyShot = penaltyShot
        self.players = players
        self.details = details
    }

    /// "1st", "2nd", "3rd", "OT", "2OT", "SO"; basketball's "Q1"…"Q4", "OT", "2OT".
    public var periodLabel: String? {
        guard let period else { return nil }
        return leagueDefinition.periodLabel(period, type: periodType)
    }
}

extension GameEvent {
    /// How a list of followed teams (config `teams`, a sink's `teams`) names a team of this
    /// event's league: `TOR`, `nba:LAL` (`TeamKey.written`), so the Celtics' `BOS` is
    /// never the Bruins'.
    public func followKey(_ abbrev: String) -> String { TeamKey(league: league ?? .nhl, abbrev: abbrev).written }

    /// What the event's league is and says (the NHL's for an event that names none).
    public var leagueDefinition: any LeagueDefinition { (league ?? .nhl).definition }

    /// The game is one of these followed teams'.
    public func isGame(of followed: Set<String>) -> Bool {
        followed.contains(followKey(away)) || followed.contains(followKey(home))
    }

    /// The goal a correction is about (`goal_overturned`, `goal_reinstated`,
    /// `scoring_change`): the id of that goal's own alert, whose message a receiver that can
    /// edit turns into the correction. nil for anything else.
    public static func correctedGoal(of id: String) -> String? {
        guard let (game, kind, key) = parts(of: id), let key else { return nil }
        switch kind {
        case .goalOverturned, .goalReinstated: return "\(game):goal:\(key)"
        // "eventId-revision": the play's goal, whatever the revision.
        case .scoringChange: return key.split(separator: "-").first.map { "\(game):goal:\($0)" }
        default: return nil
        }
    }

    /// An id's parts, `{gameId}:{kind}:{key}` (docs/ARCHITECTURE.md, Events); nil for an id
    /// of another shape.
    public static func parts(of id: String) -> (game: Int, kind: Kind, key: String?)? {
        let parts = id.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count >= 2, let game = Int(parts[0]), let kind = Kind(rawValue: parts[1]) else { return nil }
        return (game, kind, parts.count == 3 ? parts[2] : nil)
    }
}
