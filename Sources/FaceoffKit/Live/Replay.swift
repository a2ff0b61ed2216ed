import FaceoffNHL
import Foundation

/// A finished game's play-by-play, replayed as the polls of a live game would have seen it.
public struct ReplayFeed: Sendable {
    public let feed: PlayByPlay
    public let plays: [Play]

    public init(_ feed: PlayByPlay) {
        self.feed = feed
        plays = feed.playsInOrder
    }

    public var count: Int { plays.count }

    /// The feed after its first `count` plays: the score so far, the period of the last play,
    /// LIVE (or in intermission right after a period's end) until the last play.
    public func prefix(_ count: Int) -> PlayByPlay {
        var copy = feed
        let shown = Array(plays.prefix(max(0, count)))
        copy.plays = shown
        guard count < plays.count else { return copy }
        copy.gameState = shown.isEmpty ? .pre : .live
        copy.gameOutcome = nil
        let last = shown.last
        let intermission = last?.typeDescKey == .periodEnd
        copy.clock = GameClock(
            timeRemaining: intermission ? "18:00" : last?.timeRemaining ?? "20:00",
            secondsRemaining: intermission ? 1080 : last.flatMap { GameClockTime.seconds($0.timeRemaining) } ?? 1200,
            running: !intermission && !shown.isEmpty, inIntermission: intermission)
        var away = 0
        var home = 0
        for play in shown where play.typeDescKey == .goal && play.periodDescriptor?.periodType != .so {
            away = play.details?.awayScore ?? away
            home = play.details?.homeScore ?? home
        }
        copy.awayTeam?.score = away
        copy.homeTeam?.score = home
        // Shot plays count shots without the goals; the team totals count both.
        var awayShots = 0
        var homeShots = 0
        var awayGoals = 0
        var homeGoals = 0
        for play in shown {
            awayShots = play.details?.awaySOG ?? awayShots
            homeShots = play.details?.homeSOG ?? homeShots
            if play.typeDescKey == .goal, play.periodDescriptor?.periodType != .so {
                if play.details?.eventOwnerTeamId == feed.homeTeam?.id { homeGoals += 1 } else { awayGoals += 1 }
            }
        }
        copy.awayTeam?.sog = awayShots + awayGoals
        copy.homeTeam?.sog = homeShots + homeGoals
        copy.periodDescriptor = last?.periodDescriptor ?? copy.periodDescriptor
        copy.situation = nil
        return copy
    }

    /// Game seconds elapsed at each play (periods of 20 minutes, overtime after them), for
    /// pacing a replay like the real thing.
    public func gameSeconds(_ index: Int) -> Int {
        let period = plays[index].periodDescriptor?.number ?? 1
        return GameClockTime.seconds(period: period, clock: plays[index].timeInPeriod) ?? (period - 1) * 1200
    }
}
