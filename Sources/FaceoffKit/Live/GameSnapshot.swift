import FaceoffNHL
import Foundation

/// One poll of a game's play-by-play, reduced to what detection needs.
public struct GameSnapshot: Sendable {
    public struct Side: Sendable, Equatable {
        public var id: Int?
        public var abbrev: String
        public var name: String
        public var score: Int
        public var shots: Int?
    }

    public let gameId: Int
    /// Regular season or playoffs: overtime is three on three only outside the playoffs.
    public let gameType: GameType?
    public let state: GameState?
    public let period: PeriodDescriptor?
    public let clock: GameClock?
    public let away: Side
    public let home: Side
    /// In `sortOrder`.
    public let plays: [Play]
    public let outcome: GameOutcome?

    /// "Final", "Final/OT", "Final/SO" (the NHL's own words), for a finished game; nil before.
    public var finalLabel: String? {
        guard isFinal else { return nil }
        return FinalLabel.text(outcome?.lastPeriodType?.rawValue)
    }
    public let startTime: Date?
    /// Player id → "Auston Matthews".
    public let names: [Int: String]
    /// Player id → team id, from the roster spots.
    let playerTeams: [Int: Int]
    /// The live situation object when the feed has one.
    public let liveSituation: SituationCode?
    /// `cancelled` or `postponed` when the schedule says the game won't be played.
    public let notPlayed: String?

    public init(_ feed: PlayByPlay) {
        gameId = feed.id ?? 0
        gameType = feed.gameType
        state = feed.gameState
        period = feed.periodDescriptor
        clock = feed.clock
        func side(_ team: GameTeam?, fallback: String) -> Side {
            Side(
                id: team?.id, abbrev: team?.abbrev ?? fallback, name: team?.displayName ?? fallback, score: team?.score ?? 0,
                shots: team?.sog)
        }
        away = side(feed.awayTeam, fallback: "AWAY")
        home = side(feed.homeTeam, fallback: "HOME")
        // A play sent twice (the feed re-sending an event with a new sortOrder) counts once,
        // where it first appeared.
        var seen: Set<Int> = []
        plays = feed.playsInOrder.filter { play in play.eventId.map { seen.insert($0).inserted } ?? true }
        outcome = feed.gameOutcome
        startTime = feed.startTime
        var names: [Int: String] = [:]
        var teams: [Int: Int] = [:]
        for spot in feed.rosterSpots ?? [] {
            guard let id = spot.playerId else { continue }
            names[id] = [spot.firstName?.value, spot.lastName?.value].compactMap { $0 }.joined(separator: " ")
            teams[id] = spot.teamId
        }
        self.names = names
        playerTeams = teams
        liveSituation = SituationCode(feed.situation?.situationCode)
        let schedule = feed.gameScheduleState
        notPlayed = schedule?.isCancelled == true ? "cancelled" : schedule?.isPostponed == true ? "postponed" : nil
    }

    /// The abbreviation of the team with this id.
    func team(_ id: Int?) -> String? {
        guard let id else { return nil }
        if id == away.id { return away.abbrev }
        if id == home.id { return home.abbrev }
        return nil
    }

    func isHome(_ abbrev: String?) -> Bool { abbrev == home.abbrev }

    public var isFinal: Bool { state?.isFinal ?? false }
    public var isLive: Bool { state?.isLive ?? false }

    /// The situation now: the live object when present, else the last play that says anything
    /// (not a goal or a penalty: their codes describe the moment before them).
    public var currentSituation: SituationCode? {
        if let liveSituation { return liveSituation }
        for play in plays.reversed() where play.typeDescKey != .goal && play.typeDescKey != .penalty {
            if let code = Strength.meaningfulCode(play) { return code }
        }
        return nil
    }

    /// The score after each play, in `plays` order: a goal's own awayScore/homeScore, or one
    /// more for its team when the feed left them out. Shootout goals don't count.
    func scoresAfterPlays() -> [GameEvent.Score] {
        var running = GameEvent.Score(away: 0, home: 0)
        return plays.map { play in
            if play.typeDescKey == .goal, play.periodDescriptor?.periodType != .so {
                if let away = play.details?.awayScore, let home = play.details?.homeScore {
                    running = GameEvent.Score(away: away, home: home)
                } else if team(of: play) == home.abbrev {
                    running.home += 1
                } else {
                    running.away += 1
                }
            }
            return running
        }
    }

    /// The team of a play: its owner, else the team of the scorer or the penalised player.
    func team(of play: Play) -> String? {
        if let owner = team(play.details?.eventOwnerTeamId) { return owner }
        let player = play.details?.scoringPlayerId ?? play.details?.committedByPlayerId
        return player.flatMap { playerTeams[$0] }.flatMap(team)
    }

    /// Scorers so far, for a "joined in progress" summary: "TOR: Matthews 2, Nylander; MTL: Suzuki".
    func scorersSummary() -> String {
        var byTeam: [String: [String]] = [:]
        for play in plays where play.typeDescKey == .goal && play.periodDescriptor?.periodType != .so {
            guard let team = team(play.details?.eventOwnerTeamId), let scorer = play.details?.scoringPlayerId else { continue }
            byTeam[team, default: []].append(names[scorer].map(lastName) ?? "#\(scorer)")
        }
        return [away.abbrev, home.abbrev].compactMap { team in
            byTeam[team].map { "\(team): \($0.joined(separator: ", "))" }
        }.joined(separator: "; ")
    }

    private func lastName(_ full: String) -> String {
        full.split(separator: " ").dropFirst().joined(separator: " ").nonEmpty ?? full
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}

/// Reading strength from plays: which codes mean something.
enum Strength {
    /// A play's situation, unless its code is a placeholder (period/game end, period start),
    /// a one-on-one shot (penalty shot or shootout), or missing.
    static func meaningfulCode(_ play: Play) -> SituationCode? {
        if play.periodDescriptor?.periodType == .so { return nil }
        switch play.typeDescKey {
        case .periodEnd?, .gameEnd?, .periodStart?: return nil
        default: break
        }
        guard let code = SituationCode(play.situationCode), !code.isPenaltyShot else { return nil }
        return code
    }
}

/// How a finished game is named wherever it is shown: "Final", "Final/OT", "Final/SO".
public enum FinalLabel {
    /// - Parameter endedIn: "REG", "OT", "SO" (or "2OT" and on), as the API and events say.
    public static func text(_ endedIn: String?) -> String {
        guard let endedIn, endedIn != "REG", !endedIn.isEmpty else { return "Final" }
        return "Final/\(endedIn)"
    }
}
