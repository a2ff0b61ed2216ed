import FaceoffKit
import Foundation

/// The topics of an MQTT sink (docs/ALERTS.md, MQTT; docs/ARCHITECTURE.md), under its `topic_prefix`.
public struct MQTTTopics: Sendable, Equatable {
    public var prefix: String
    public var discoveryPrefix: String

    public init(prefix: String, discoveryPrefix: String) {
        self.prefix = prefix
        self.discoveryPrefix = discoveryPrefix
    }

    public var event: String { "\(prefix)/event" }
    public var test: String { "\(prefix)/test" }
    public var status: String { "\(prefix)/status" }
    public func state(_ team: String) -> String { "\(prefix)/team/\(Self.segment(team))/state" }
    public func next(_ team: String) -> String { "\(prefix)/team/\(Self.segment(team))/next" }
    public func trigger(_ team: String, _ type: MQTTTrigger) -> String {
        "\(prefix)/team/\(Self.segment(team))/trigger/\(type.rawValue)"
    }

    /// A followed team (`TOR`, `nba:LAL`) in a topic or an object id: `TOR`, `nba-LAL`.
    public static func segment(_ team: String) -> String { TeamKey.segment(team) }
    /// A sink's mute switch: `ON` or `OFF` to its command topic; its state, retained.
    public func muteCommand(_ sink: String) -> String { "\(prefix)/mute/\(MQTTSlug.of(sink))/set" }
    public func muteState(_ sink: String) -> String { "\(prefix)/mute/\(MQTTSlug.of(sink))/state" }
    public var muteCommands: String { "\(prefix)/mute/+/set" }
}

/// One message for the broker.
public struct MQTTMessage: Codable, Sendable, Equatable {
    public var topic: String
    public var payload: String
    public var retain: Bool

    public init(topic: String, payload: String, retain: Bool) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }
}

/// A Home Assistant device trigger of a team's device, and the event kinds that fire it, seen
/// from that team's side. The table in docs/ALERTS.md (MQTT) is this one.
public enum MQTTTrigger: String, Sendable, CaseIterable {
    case goal
    case goalAgainst = "goal_against"
    case goalReinstated = "goal_reinstated"
    case goalOverturned = "goal_overturned"
    case powerPlay = "power_play"
    case penaltyKill = "penalty_kill"
    case powerPlayChange = "power_play_change"
    case powerPlayEnd = "power_play_end"
    case emptyNet = "empty_net"
    case gameStart = "game_start"
    case periodStart = "period_start"
    case periodEnd = "period_end"
    case final
    case win
    case loss
    case scheduleChange = "schedule_change"
    // Basketball's (an NBA team's device).
    case leadTaken = "lead_taken"
    case leadLost = "lead_lost"
    case run
    case runAgainst = "run_against"
    case closeGame = "close_game"
    case milestone

    /// The triggers a team's device has: those its league's events can fire (its
    /// `eventKinds`), then what every league shares.
    public static func of(_ league: League) -> [MQTTTrigger] {
        let possible = Set(
            league.definition.eventKinds.flatMap { kind in
                [true, false].flatMap { theirs in [-1, 0, 1].flatMap { fired(kind, theirs: theirs, margin: $0) } }
            })
        return allCases.filter { possible.contains($0) && !shared.contains($0) } + shared
    }

    /// What every league's games fire: their start, periods and end, and a schedule's change.
    static var shared: [MQTTTrigger] { [.gameStart, .periodStart, .periodEnd, .final, .win, .loss, .scheduleChange] }

    /// The triggers `event` fires for `team` (one of the game's two, as followed: `TOR`,
    /// `nba:LAL`).
    public static func fired(by event: GameEvent, for team: String) -> [MQTTTrigger] {
        let away = team == event.followKey(event.away)
        let margin = away ? event.score.away - event.score.home : event.score.home - event.score.away
        return fired(event.kind, theirs: event.team.map(event.followKey) == team, margin: margin)
    }

    /// What an event of `kind` fires for a team: `theirs` when the event is the team's own
    /// (its goal, its power play), `margin` its lead in a final.
    static func fired(_ kind: GameEvent.Kind, theirs: Bool, margin: Int) -> [MQTTTrigger] {
        switch kind {
        case .goal: return [theirs ? .goal : .goalAgainst]
        case .goalReinstated: return theirs ? [.goalReinstated] : []
        case .goalOverturned: return [.goalOverturned]
        case .powerPlayStart: return [theirs ? .powerPlay : .penaltyKill]
        case .powerPlayChange: return [.powerPlayChange]
        case .powerPlayEnd: return [.powerPlayEnd]
        case .goaliePulled: return theirs ? [.emptyNet] : []
        case .gameStart: return [.gameStart]
        case .periodStart: return [.periodStart]
        case .periodEnd: return [.periodEnd]
        case .final: return margin == 0 ? [.final] : [.final, margin > 0 ? .win : .loss]
        case .scheduleChange: return [.scheduleChange]
        case .pregame, .gameJoined, .scoringChange, .goalHighlight, .penalty, .penaltyShotMissed, .goalieReturned, .digest: return []
        case .leadChange: return [theirs ? .leadTaken : .leadLost]
        case .run: return [theirs ? .run : .runAgainst]
        case .closeGame: return [.closeGame]
        case .milestone: return theirs ? [.milestone] : []
        case .score: return []
        }
    }

    /// How Home Assistant's automation editor shows it.
    var label: String {
        switch self {
        case .goal: "Goal"
        case .goalAgainst: "Goal against"
        case .goalReinstated: "Goal reinstated"
        case .goalOverturned: "Goal overturned"
        case .powerPlay: "Power play"
        case .penaltyKill: "Penalty kill"
        case .powerPlayChange: "Power play changes"
        case .powerPlayEnd: "Power play ends"
        case .emptyNet: "Goalie pulled"
        case .gameStart: "Game starts"
        case .periodStart: "Period starts"
        case .periodEnd: "Period ends"
        case .final: "Final"
        case .win: "Win"
        case .loss: "Loss"
        case .scheduleChange: "Schedule changes"
        case .leadTaken: "Takes the lead"
        case .leadLost: "Loses the lead"
        case .run: "Scoring run"
        case .runAgainst: "Run against"
        case .closeGame: "Close game"
        case .milestone: "Player milestone"
        }
    }
}

/// A followed team's game as Home Assistant's sensors show it: the retained state topic's
/// payload, moved on by each event of the team's games after the sink's delay.
public struct MQTTTeamState: Codable, Sendable, Equatable {
    /// pregame | live | intermission | final | idle
    public var state: String
    public var team: String
    public var gameId: Int?
    public var opponent: String?
    /// home | away
    public var homeOrAway: String?
    public var teamScore: Int?
    public var opponentScore: Int?
    /// "2–1", the team's goals first.
    public var score: String?
    /// "2nd", "OT"
    public var period: String?
    /// Elapsed in the period at the last event, "MM:SS"; for an NBA team the time left
    /// ("3:12").
    public var clock: String?
    /// EV, PP (the team has the man advantage) or PK.
    public var strength: String?
    /// Skaters, the team's first: "5v4", "4v5".
    public var manpower: String?
    /// The team's goalie is pulled.
    public var emptyNet: Bool?
    /// A playoff game's series: "WSH leads 3–1".
    public var series: String?
    /// The event that made this state.
    public var lastEvent: String?
    /// When it was published (UTC).
    public var updated: String
    /// The team's colours and logo URL.
    public var colors: TeamLook?

    public static func idle(_ team: String, at date: Date) -> MQTTTeamState {
        MQTTTeamState(state: "idle", team: team, updated: date.formatted(.iso8601), colors: TeamKey(written: team)?.team?.look)
    }

    /// The state after `event` (a game of `team`'s), from `previous`.
    public static func after(_ event: GameEvent, team: String, previous: MQTTTeamState?, at date: Date) -> MQTTTeamState {
        // A schedule change is news about a game to come, not a moment of one, and a digest
        // tells of moments the state has moved on with already: the state stays.
        guard ![.scheduleChange, .digest].contains(event.kind) else { return previous ?? .idle(team, at: date) }
        let home = event.followKey(event.home) == team
        let opponent = home ? event.away : event.home
        // Another game than the one before: nothing carries over.
        var state = previous?.gameId == event.gameId ? previous! : MQTTTeamState(state: "idle", team: team, updated: "")
        state.team = team
        state.colors = TeamKey(written: team)?.team?.look
        state.gameId = event.gameId
        state.opponent = opponent
        state.homeOrAway = home ? "home" : "away"
        let (mine, theirs) = home ? (event.score.home, event.score.away) : (event.score.away, event.score.home)
        state.teamScore = mine
        state.opponentScore = theirs
        state.score = "\(mine)–\(theirs)"
        if let period = event.periodLabel { state.period = period }
        if let series = event.series?.text { state.series = series }
        let league = event.leagueDefinition
        if league.clockCountsDown {
            // Basketball's clock is the time left, as its fans read it.
            if let left = event.details["time_remaining"] { state.clock = left }
        } else {
            if let clock = event.clock { state.clock = clock }
        }
        if league.hasManpower {
            state.strength = state.strength ?? "EV"
            state.emptyNet = state.emptyNet ?? false
        }
        switch event.kind {
        case .pregame:
            state.state = "pregame"
            state.strength = "EV"
            state.manpower = nil
        case .periodEnd:
            // The end of the third period or an overtime with a winner is the end of the
            // game (the final follows), not an intermission.
            let decided = (event.period ?? 0) >= league.regulationPeriods && event.score.away != event.score.home
            state.state = decided ? "live" : "intermission"
            state.emptyNet = false
        case .final:
            state.state = "final"
            state.strength = "EV"
            state.manpower = nil
            state.emptyNet = false
        case .powerPlayStart, .powerPlayChange:
            state.state = "live"
            let ours = event.team == team
            state.strength = ours ? "PP" : "PK"
            state.manpower = event.strength.map { ours ? $0 : Self.flipped($0) }
        case .powerPlayEnd:
            state.state = "live"
            state.strength = "EV"
            state.manpower = nil
        case .goaliePulled:
            state.state = "live"
            if event.team == team { state.emptyNet = true }
        case .goalieReturned:
            state.state = "live"
            if event.team == team { state.emptyNet = false }
        case .gameJoined:
            state.state = event.details["intermission"] == "true" ? "intermission" : "live"
        case .goalHighlight, .scoringChange:
            // News about a goal, not a moment of the game: a final stays final.
            if state.state == "idle" { state.state = "live" }
        default:
            state.state = "live"
        }
        if !league.hasManpower {
            // No skaters to count, no nets.
            state.strength = nil
            state.manpower = nil
            state.emptyNet = nil
        }
        state.lastEvent = event.id
        state.updated = date.formatted(.iso8601)
        return state
    }

    static func flipped(_ manpower: String) -> String {
        let sides = manpower.split(separator: "v")
        guard sides.count == 2 else { return manpower }
        return "\(sides[1])v\(sides[0])"
    }
}

/// A followed team's next game: the retained `next` topic's payload.
public struct MQTTNextGame: Codable, Sendable, Equatable {
    public var team: String
    public var gameId: Int?
    /// UTC, ISO 8601: what Home Assistant's timestamp sensor reads.
    public var start: String?
    /// In the configured time zone, with its offset.
    public var startLocal: String?
    public var opponent: String?
    public var homeOrAway: String?
    public var venue: String?
    /// Networks, national first.
    public var tv: [String]?
    /// A playoff game's series, "R1 game 3".
    public var series: String?

    /// The game on now or next: not over, starting at most 4 hours ago (a game running long
    /// is still the one on), the earliest first.
    public static func pick(_ games: [GameSummary], now: Date, over: Set<Int>) -> GameSummary? {
        games.filter { game in
            guard game.status == "scheduled" || game.status == "live", !over.contains(game.id), let start = game.startDate else {
                return false
            }
            return start.timeIntervalSince(now) > -4 * 3600
        }.min { ($0.startDate ?? .distantFuture) < ($1.startDate ?? .distantFuture) }
    }

    public init(team: String, game: GameSummary?) {
        self.team = team
        guard let game else { return }
        gameId = game.id
        start = game.start
        startLocal = game.startLocal
        opponent = game.opponent
        homeOrAway = game.homeOrAway
        venue = game.venue
        let order = ["national": 0, "home": 1, "away": 2]
        let networks = game.broadcasts.sorted { order[$0.market, default: 3] < order[$1.market, default: 3] }.map(\.network)
        var seen: Set<String> = []
        tv = networks.filter { seen.insert($0).inserted }
        series = game.series
    }
}
