import FaceoffNHL
import Foundation

/// Which games of a schedule are still to come or on now, decided here once for `watch`,
/// `run` and `status`.
///
/// A game counts while it is live, or while it is not over and started less than `lookBack`
/// ago: games start late, run long and sit in the schedule as "pre-game" past their start, and
/// six hours covers the longest overtime on record with room to spare. Cancelled and
/// postponed games never count (a postponed game comes back with a new start).
public enum GameWindow {
    /// How long after its scheduled start a game that is not over still counts.
    public static let lookBack: TimeInterval = 6 * 3600
    /// How far ahead `run` plans (pregame windows); later games wait for a later refresh.
    public static let lookAhead: TimeInterval = 14 * 86400

    /// Whether a game with this start and these states is to come or on at `now`.
    public static func isCurrent(start: Date?, state: GameState?, schedule: GameScheduleState?, now: Date) -> Bool {
        if let schedule, schedule.isCancelled || schedule.isPostponed { return false }
        if state?.isFinal == true { return false }
        if state?.isLive == true { return true }
        guard let start else { return false }
        return start > now.addingTimeInterval(-lookBack)
    }

    public static func isCurrent(_ game: ScheduleGame, now: Date) -> Bool {
        isCurrent(start: game.startTime, state: game.gameState, schedule: game.gameScheduleState, now: now)
    }

    /// Current, and close enough for `run` to plan now (live games always are).
    public static func isPlanned(_ game: ScheduleGame, now: Date) -> Bool {
        guard isCurrent(game, now: now) else { return false }
        if game.gameState?.isLive == true { return true }
        return game.startTime.map { $0 <= now.addingTimeInterval(lookAhead) } ?? true
    }

    /// An NBA game of ESPN's schedule, by the same rule; a game with no time yet ("if
    /// necessary", TBD) waits for a schedule that gives it one.
    public static func isCurrent(nba game: GameSummary, now: Date) -> Bool {
        switch game.status {
        case "final", "postponed", "cancelled": return false
        case "live": return true
        default:
            guard !game.timeTBD, let start = game.startDate else { return false }
            return start > now.addingTimeInterval(-lookBack)
        }
    }

    /// Current, and close enough for `run` to plan now.
    public static func isPlanned(nba game: GameSummary, now: Date) -> Bool {
        guard isCurrent(nba: game, now: now) else { return false }
        return game.isLive || (game.startDate.map { $0 <= now.addingTimeInterval(lookAhead) } ?? false)
    }
}
