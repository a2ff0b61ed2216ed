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
    public let state: GameState?
    public let period: PeriodDescriptor?
    public let clock: GameClock?
    public let away: Side
    public let home: Side
    /// In `sortOrder`.
    public let plays: [Play]
    public let outcome: GameOutcome?
    /// Player id → "Auston Matthews".
    public let names: [Int: String]
    /// The live situation object when the feed has one.
    public let liveSituation: SituationCode?

    public init(_ feed: PlayByPlay) {
        gameId = feed.id ?? 0
        state = feed.gameState
        period = feed.periodDescriptor
        clock = feed.clock
        func side(_ team: GameTeam?, fallback: String) -> Side {
            Side(id: team?.id, abbrev: team?.abbrev ?? fallback, name: team?.displayName ?? fallback, score: team?.score ?? 0, shots: team?.sog)
        }
        away = side(feed.awayTeam, fallback: "AWAY")
        home = side(feed.homeTeam, fallback: "HOME")
        plays = feed.playsInOrder
        outcome = feed.gameOutcome
        var names: [Int: String] = [:]
        for spot in feed.rosterSpots ?? [] {
            guard let id = spot.playerId else { continue }
            names[id] = [spot.firstName?.value, spot.lastName?.value].compactMap { $0 }.joined(separator: " ")
        }
        self.names = names
        liveSituation = SituationCode(feed.situation?.situationCode)
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

    /// The situation now: the live object when present, else the last play that says anything.
    public var currentSituation: SituationCode? {
        if let liveSituation { return liveSituation }
        for play in plays.reversed() {
            if let code = Strength.meaningfulCode(play) { return code }
        }
        return nil
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
