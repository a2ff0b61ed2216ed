import FaceoffKit
import FaceoffNHL
import Foundation
import Synchronization

/// Final scores known from a watched game's play-by-play, laid over schedules that may still
/// call the game live for a while: a feed shows the final as soon as the watcher saw it.
public final class ScheduleOverlay: Sendable {
    public struct Final: Sendable, Equatable {
        public var away: Int
        public var home: Int
        public var lastPeriodType: PeriodType?
        public init(away: Int, home: Int, lastPeriodType: PeriodType?) {
            self.away = away
            self.home = home
            self.lastPeriodType = lastPeriodType
        }
    }

    private let finals = Mutex<[Int: Final]>([:])

    public init() {}

    public func set(_ gameID: Int, _ final: Final) { finals.withLock { $0[gameID] = final } }

    func apply(_ schedule: ClubSchedule) -> ClubSchedule {
        let known = finals.withLock { $0 }
        guard !known.isEmpty, var games = schedule.games else { return schedule }
        for index in games.indices {
            guard let id = games[index].id, let final = known[id], !(games[index].gameState?.isFinal ?? false) else { continue }
            games[index].gameState = .off
            games[index].awayTeam?.score = final.away
            games[index].homeTeam?.score = final.home
            if games[index].gameOutcome == nil {
                games[index].gameOutcome = GameOutcome(lastPeriodType: final.lastPeriodType, otPeriods: nil)
            }
        }
        var copy = schedule
        copy.games = games
        return copy
    }
}
