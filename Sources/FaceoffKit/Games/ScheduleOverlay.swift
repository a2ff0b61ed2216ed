import Foundation
import Synchronization

/// Final scores known from a watched game's feed, laid over schedules that may still call the
/// game live for a while: a feed shows the final as soon as the watcher saw it. Each league
/// lays them over its own schedule (`LeagueDefinition.calendarSeason`).
public final class ScheduleOverlay: Sendable {
    public struct Final: Sendable, Equatable {
        public var away: Int
        public var home: Int
        /// How it ended, as the events say it (`ended_in`: REG, OT, SO).
        public var endedIn: String?

        public init(away: Int, home: Int, endedIn: String?) {
            self.away = away
            self.home = home
            self.endedIn = endedIn
        }
    }

    private let finals = Mutex<[Int: Final]>([:])

    public init() {}

    public func set(_ gameID: Int, _ final: Final) { finals.withLock { $0[gameID] = final } }

    /// The finals known so far, by game.
    public var known: [Int: Final] { finals.withLock { $0 } }
}
