import FaceoffAPI
import Foundation

/// `GET /v1/gamecenter/{gameId}/play-by-play`.
/// `summary` (empty after the game, `iceSurface` while live) is not modelled.
public struct PlayByPlay: Codable, Sendable, Equatable, GameStateCarrying {
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
    public var awayTeam: GameTeam?
    public var homeTeam: GameTeam?
    public var shootoutInUse: Bool?
    public var otInUse: Bool?
    public var clock: GameClock?
    /// Unreliable (1 in a finished game); use `periodDescriptor.number`.
    public var displayPeriod: Int?
    public var maxPeriods: Int?
    public var regPeriods: Int?
    public var gameOutcome: GameOutcome?
    public var situation: Situation?
    /// In `sortOrder` order in the recordings; sort by `sortOrder` to be safe (`eventId` is not chronological).
    public var plays: [Play]?
    public var rosterSpots: [RosterSpot]?

    public var startTime: Date? { NHLTimestamp.parse(startTimeUTC) }

    /// Plays sorted by `sortOrder` (plays without one keep their relative order at the end).
    public var playsInOrder: [Play] {
        (plays ?? []).enumerated().sorted { a, b in
            switch (a.element.sortOrder, b.element.sortOrder) {
            case (let x?, let y?): return x != y ? x < y : a.offset < b.offset
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a.offset < b.offset
            }
        }.map(\.element)
    }

    /// Roster spot for a player id.
    public func rosterSpot(for playerId: Int?) -> RosterSpot? {
        guard let playerId else { return nil }
        return rosterSpots?.first { $0.playerId == playerId }
    }
}

public struct Play: Codable, Sendable, Equatable {
    public var eventId: Int?
    public var periodDescriptor: PeriodDescriptor?
    /// Elapsed, "MM:SS".
    public var timeInPeriod: String?
    /// Countdown, "MM:SS".
    public var timeRemaining: String?
    /// away goalie, away skaters, home skaters, home goalie; e.g. "1541".
    public var situationCode: String?
    public var homeTeamDefendingSide: String?
    /// 505 goal, 509 penalty, … (see PlayType).
    public var typeCode: Int?
    public var typeDescKey: PlayType?
    public var sortOrder: Int?
    public var details: PlayDetails?
    public var pptReplayUrl: String?
}

/// Union of every `details` key of API.md's typeCode table; all optional.
public struct PlayDetails: Codable, Sendable, Equatable {
    /// Goal: scoring team. Penalty: penalised team. Blocked shot: blocking team.
    public var eventOwnerTeamId: Int?
    // goal
    public var scoringPlayerId: Int?
    public var scoringPlayerTotal: Int?
    public var assist1PlayerId: Int?
    public var assist1PlayerTotal: Int?
    public var assist2PlayerId: Int?
    public var assist2PlayerTotal: Int?
    /// Absent on empty-net goals.
    public var goalieInNetId: Int?
    public var awayScore: Int?
    public var homeScore: Int?
    public var highlightClip: Int?
    public var highlightClipSharingUrl: String?
    // shots
    public var awaySOG: Int?
    public var homeSOG: Int?
    public var shotType: String?
    public var shootingPlayerId: Int?
    public var blockingPlayerId: Int?
    // hit / faceoff / giveaway / takeaway
    public var hittingPlayerId: Int?
    public var hitteePlayerId: Int?
    public var winningPlayerId: Int?
    public var losingPlayerId: Int?
    public var playerId: Int?
    // missed/blocked shot, stoppage
    public var reason: String?
    public var secondaryReason: String?
    // penalty
    /// Penalty type: MIN, MAJ, MIS, BEN, GAM, MAT, PS.
    public var typeCode: String?
    /// Infraction slug: "tripping", "high-sticking-double-minor", …
    public var descKey: String?
    /// Minutes.
    public var duration: Int?
    public var committedByPlayerId: Int?
    public var drawnByPlayerId: Int?
    public var servedByPlayerId: Int?
    // location
    public var zoneCode: String?
    public var xCoord: Int?
    public var yCoord: Int?
}

/// `rosterSpots[]`: turns player ids into names.
public struct RosterSpot: Codable, Sendable, Equatable {
    public var teamId: Int?
    public var playerId: Int?
    public var firstName: LocalizedString?
    public var lastName: LocalizedString?
    public var sweaterNumber: Int?
    public var positionCode: String?
    public var headshot: String?

    public var fullName: String {
        [firstName?.value, lastName?.value].compactMap { $0 }.joined(separator: " ")
    }
}

extension PlayByPlay {
    /// Why the answer can't be a real game's (`Plausible`): a period, a clock, a score or a
    /// shot count out of what a game reaches; nil when all are.
    public var implausible: String? {
        func time(_ text: String?, _ what: String) -> String? {
            guard let text, NHLClock.seconds(text) == nil else { return nil }
            return "it gives \(what) as \"\(text.prefix(40))\""
        }
        func team(_ team: GameTeam?, _ side: String) -> String? {
            Plausible.first(
                Plausible.problem(team?.score, Plausible.score, "the \(side) team's score"),
                Plausible.problem(team?.sog, Plausible.score, "the \(side) team's shots"))
        }
        if let problem = Plausible.first(
            Plausible.problem(periodDescriptor?.number, Plausible.period, "the game's period"),
            Plausible.problem(periodDescriptor?.maxRegulationPeriods, 1...Plausible.period.upperBound, "its regulation periods"),
            Plausible.problem(clock?.secondsRemaining, Plausible.periodSeconds, "the clock's seconds left"),
            time(clock?.timeRemaining, "the clock"), team(awayTeam, "away"), team(homeTeam, "home"),
            Plausible.problem(plays?.count, Plausible.plays, "the number of plays"))
        {
            return problem
        }
        for play in plays ?? [] {
            let details = play.details
            let problem = Plausible.first(
                Plausible.problem(play.periodDescriptor?.number, Plausible.period, "a play's period"),
                Plausible.problem(
                    play.periodDescriptor?.maxRegulationPeriods, 1...Plausible.period.upperBound, "a play's regulation periods"),
                time(play.timeInPeriod, "a play's time"), time(play.timeRemaining, "a play's time left"),
                Plausible.problem(details?.awayScore, Plausible.score, "a play's away score"),
                Plausible.problem(details?.homeScore, Plausible.score, "a play's home score"),
                Plausible.problem(details?.awaySOG, Plausible.score, "a play's away shots"),
                Plausible.problem(details?.homeSOG, Plausible.score, "a play's home shots"))
            if let problem { return problem }
        }
        return nil
    }
}

/// A clock as the NHL writes it ("MM:SS": a play's time in its period, the time left) as
/// seconds; nil for anything else, minutes past an hour included.
public enum NHLClock {
    public static func seconds(_ clock: String?) -> Int? {
        guard let parts = clock?.split(separator: ":"), parts.count == 2, let minutes = Int(parts[0]), let seconds = Int(parts[1]),
            (0...60).contains(minutes), (0..<60).contains(seconds)
        else { return nil }
        return minutes * 60 + seconds
    }
}
