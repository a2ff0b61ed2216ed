import Foundation

/// What `faceoff run` knows of what comes next: the games of the followed teams that are
/// still to come or on, which of them are being watched or are done, and when the schedule
/// is refreshed next. A value the daemon's loop updates and asks; it does no I/O and reads
/// no clock.
package struct Timeline<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// A game on the timeline.
    package typealias Game = PlannedGame

    package var games: [Int: Game] = [:]
    package var nextRefresh: Instant
    package private(set) var watching: Set<Int> = []
    private var done: Set<Int> = []
    /// Games that ended without a final (postponed, cancelled, not in the API), with the start
    /// they had: watched again only if the schedule gives them a new one.
    private var abandoned: [Int: Date?] = [:]

    package init(refreshAt instant: Instant) { nextRefresh = instant }

    package mutating func watch(_ id: Int) { watching.insert(id) }

    package mutating func finished(_ id: Int) {
        watching.remove(id)
        done.insert(id)
    }

    package mutating func abandoned(_ id: Int, start: Date?) {
        watching.remove(id)
        abandoned[id] = start
    }

    /// Games whose pregame window has come (or that are live) and that nobody watches yet,
    /// earliest first. A game with no start time waits for a refresh that gives it one.
    package func due(at date: Date, pregame: Duration) -> [Game] {
        waiting().filter { game in game.live || game.start.map { window($0, pregame) <= date } ?? false }
    }

    /// The next pregame window still ahead of `date`.
    package func nextWindow(after date: Date, pregame: Duration) -> (date: Date, game: Game)? {
        waiting().lazy.compactMap { game in game.start.map { (self.window($0, pregame), game) } }.first { $0.0 > date }
    }

    private func waiting() -> [Game] {
        games.values.filter { game in
            if done.contains(game.id) || watching.contains(game.id) { return false }
            if let start = abandoned[game.id], start == game.start, !game.live { return false }
            return true
        }.sorted { ($0.start ?? .distantPast, $0.id) < ($1.start ?? .distantPast, $1.id) }
    }

    private func window(_ start: Date, _ pregame: Duration) -> Date {
        start.addingTimeInterval(-Double(pregame.components.seconds))
    }
}

/// A followed team's game that is still to come or on, as a league's schedule gives it
/// (`LeagueDefinition.schedule`) and the daemon plans for it.
public struct PlannedGame: Sendable {
    public let id: Int
    public let start: Date?
    public let away: String
    public let home: String
    public let live: Bool
    /// A playoff game's series before it.
    public var series: SeriesState? = nil
    /// Whose game it is. Ids are keyed alone: the NHL's have ten digits, ESPN's nine.
    public var league: League = .nhl
    public init(
        id: Int, start: Date?, away: String, home: String, live: Bool, series: SeriesState? = nil, league: League = .nhl
    ) {
        self.id = id
        self.start = start
        self.away = away
        self.home = home
        self.live = live
        self.series = series
        self.league = league
    }
}
