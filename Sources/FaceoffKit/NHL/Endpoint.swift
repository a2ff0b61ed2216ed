import Foundation

/// One resource of the NHL web API: its path under `/v1/`, the type it decodes to, and how
/// long a copy stays good.
public struct Endpoint<Response: Decodable & Sendable>: Sendable {
    public let path: String
    /// How long a response stays good, judged from its content at the time it was fetched.
    let freshness: @Sendable (Response, Date) -> Freshness

    init(_ path: String, freshness: @escaping @Sendable (Response, Date) -> Freshness) {
        self.path = path
        self.freshness = freshness
    }
}

enum FreshnessRules {
    static let scheduleMaxAge = Freshness.seconds(6 * 3600)
    static let daily = Freshness.seconds(24 * 3600)
    static let upcomingGame = Freshness.seconds(10 * 60)

    /// A schedule changes when a game starts or ends: revalidate while one is live, and don't
    /// keep a copy past the next start.
    static func schedule(_ games: [ScheduleGame], now: Date) -> Freshness {
        if games.contains(where: { $0.gameState?.isLive ?? false }) { return .revalidate }
        let nextStart = games.compactMap(\.startTime).filter { $0 > now }.min()
        guard let nextStart else { return scheduleMaxAge }
        return .seconds(max(60, min(6 * 3600, nextStart.timeIntervalSince(now))))
    }

    /// Finished games never change (OFF is official); live ones are always revalidated.
    static func game(_ state: GameState?) -> Freshness {
        guard let state else { return .revalidate }
        if state == .off { return .forever }
        if state.isUpcoming { return upcomingGame }
        return .revalidate
    }
}

/// `now`, `current` or a specific date/season, as the API spells path segments.
public enum DateSelector: Sendable, Equatable {
    case now
    case date(String)

    var segment: String {
        switch self {
        case .now: "now"
        case .date(let date): date
        }
    }
}

extension Endpoint where Response == ClubSchedule {
    /// `season` is "now" or an id such as "20252026".
    public static func clubSchedule(_ team: String, season: String = "now") -> Self {
        Self("club-schedule-season/\(team)/\(season)") { FreshnessRules.schedule($0.games ?? [], now: $1) }
    }
}

extension Endpoint where Response == LeagueSchedule {
    public static func schedule(_ date: DateSelector = .now) -> Self {
        Self("schedule/\(date.segment)") { FreshnessRules.schedule($0.allGames, now: $1) }
    }
}

extension Endpoint where Response == DailyScore {
    public static func score(_ date: DateSelector = .now) -> Self {
        Self("score/\(date.segment)") { score, _ in
            let states = (score.games ?? []).map(\.gameState)
            if states.contains(where: { $0?.isLive ?? false }) { return .revalidate }
            // A past day whose games are all official never changes; "now" moves on tomorrow.
            if date != .now, !states.isEmpty, states.allSatisfy({ $0 == .off }) { return .forever }
            return FreshnessRules.upcomingGame
        }
    }
}

extension Endpoint where Response == PlayByPlay {
    public static func playByPlay(_ gameID: Int) -> Self {
        Self("gamecenter/\(gameID)/play-by-play") { response, _ in FreshnessRules.game(response.gameState) }
    }
}

extension Endpoint where Response == GameLanding {
    public static func landing(_ gameID: Int) -> Self {
        Self("gamecenter/\(gameID)/landing") { response, _ in FreshnessRules.game(response.gameState) }
    }
}

extension Endpoint where Response == Boxscore {
    public static func boxscore(_ gameID: Int) -> Self {
        Self("gamecenter/\(gameID)/boxscore") { response, _ in FreshnessRules.game(response.gameState) }
    }
}

extension Endpoint where Response == Standings {
    public static func standings(_ date: DateSelector = .now) -> Self {
        Self("standings/\(date.segment)") { _, _ in FreshnessRules.daily }
    }
}

extension Endpoint where Response == Roster {
    /// `season` is "current" or an id such as "20252026".
    public static func roster(_ team: String, season: String = "current") -> Self {
        Self("roster/\(team)/\(season)") { _, _ in FreshnessRules.daily }
    }
}

extension Endpoint where Response == PlayerLanding {
    public static func player(_ id: Int) -> Self {
        Self("player/\(id)/landing") { _, _ in FreshnessRules.daily }
    }
}
