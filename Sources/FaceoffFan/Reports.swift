import FaceoffKit
import FaceoffNHL
import Foundation

/// `faceoff schedule`: a team's season, in order.
public struct ScheduleReport: Codable, Sendable, Equatable {
    /// "NBA" for an NBA team; absent for the NHL.
    public var league: String?
    public var team: String
    public var season: String?
    public var timezone: String
    public var games: [GameSummary]

    public init(schedule: ClubSchedule, team: String, time: LocalTime, from: String? = nil, to: String? = nil) {
        self.init(
            league: nil, team: team, season: schedule.currentSeason.map(String.init), time: time,
            games: (schedule.games ?? []).compactMap { GameSummary($0, team: team, time: time) }, from: from, to: to)
    }

    /// The games between `from` and `to` (local days, inclusive), each league's.
    public init(league: String?, team: String, season: String?, time: LocalTime, games: [GameSummary], from: String?, to: String?) {
        self.league = league
        self.team = team
        self.season = season
        timezone = time.timeZone.identifier
        self.games = games.filter { game in
            guard let date = game.date else { return from == nil && to == nil }
            return (from.map { date >= $0 } ?? true) && (to.map { date <= $0 } ?? true)
        }
    }
}

/// `faceoff next`: the game in progress, else the next one, else the last one played.
public struct NextReport: Codable, Sendable, Equatable {
    public struct Live: Codable, Sendable, Equatable {
        /// "1st", "OT", "SO"
        public var period: String?
        public var clock: String?
        public var inIntermission: Bool
        public var awayShots: Int?
        public var homeShots: Int?
        /// The abbreviation of the team with a man advantage, if any.
        public var powerPlay: String?
        /// "5v4"
        public var strength: String?
        /// Teams whose goalie is pulled.
        public var emptyNet: [String]
    }

    /// "NBA" for an NBA team; absent for the NHL.
    public var league: String?
    public var team: String
    public var timezone: String
    /// live | next | last | none
    public var kind: String
    public var game: GameSummary?
    public var countdown: String?
    public var secondsUntilStart: Int?
    /// "W-L-OT" by abbreviation, from the standings.
    public var records: [String: String]
    public var live: Live?

    public init(team: String, timezone: String, kind: String, game: GameSummary?, now: Date, records: [String: String], live: Live?) {
        self.team = team
        self.timezone = timezone
        self.kind = kind
        self.game = game
        self.records = records
        self.live = live
        if kind == "next", let start = game?.startDate, game?.timeTBD == false {
            countdown = Countdown.describe(from: now, to: start)
            secondsUntilStart = max(0, Int(start.timeIntervalSince(now)))
        }
    }

    /// Picks the game: in progress first, then the first upcoming one that isn't cancelled,
    /// then the most recent finished one.
    public static func pick(from games: [GameSummary], now: Date) -> (kind: String, game: GameSummary)? {
        if let live = games.first(where: \.isLive) { return ("live", live) }
        // A game with no time yet ("if necessary") stands on its day: noon UTC of it, which is
        // that day wherever the leagues play.
        func when(_ game: GameSummary) -> Date? {
            game.startDate ?? (game.timeTBD ? game.date.flatMap { try? Date("\($0)T12:00:00Z", strategy: .iso8601) } : nil)
        }
        let upcoming = games.filter { game in
            guard game.status == "scheduled" || game.status == "postponed" else { return false }
            guard let start = when(game) else { return game.timeTBD }
            // A game whose start has passed but isn't live yet is still the next game for a
            // while; one with no time, until its day is over everywhere (a day after its noon).
            return start.timeIntervalSince(now) > (game.startDate == nil ? -86_400 : -4 * 3600)
        }
        if let next = upcoming.min(by: { (when($0) ?? .distantFuture) < (when($1) ?? .distantFuture) }) {
            return ("next", next)
        }
        if let last = games.filter(\.isFinal).max(by: { ($0.startDate ?? .distantPast) < ($1.startDate ?? .distantPast) }) {
            return ("last", last)
        }
        return nil
    }

    public static func live(from playByPlay: PlayByPlay) -> Live {
        let code =
            playByPlay.situation?.situationCode
            ?? playByPlay.playsInOrder.last(where: { $0.typeDescKey != .periodEnd && $0.typeDescKey != .gameEnd })?.situationCode
        let shootout = playByPlay.periodDescriptor?.periodType == .so
        let flags = SituationCode.flags(
            code, shootout: shootout, away: playByPlay.awayTeam?.abbrev ?? "away", home: playByPlay.homeTeam?.abbrev ?? "home")
        let strength = shootout ? nil : SituationCode(code).flatMap { $0.isPenaltyShot ? nil : $0.strength }
        let clock = playByPlay.clock
        return Live(
            period: playByPlay.periodDescriptor?.label, clock: clock?.timeRemaining,
            inIntermission: clock?.inIntermission ?? false, awayShots: playByPlay.awayTeam?.sog,
            homeShots: playByPlay.homeTeam?.sog, powerPlay: flags.powerPlay, strength: strength, emptyNet: flags.emptyNet)
    }
}

/// `faceoff recent`: finished games, newest first.
public struct RecentReport: Codable, Sendable, Equatable {
    /// "NBA" for an NBA team; absent for the NHL.
    public var league: String?
    public var team: String
    public var timezone: String
    public var games: [GameSummary]

    public init(team: String, time: LocalTime, games: [GameSummary], count: Int) {
        self.team = team
        timezone = time.timeZone.identifier
        var seen: Set<Int> = []
        self.games = Array(
            games.filter { $0.isFinal && seen.insert($0.id).inserted }
                .sorted { ($0.startDate ?? .distantPast) > ($1.startDate ?? .distantPast) }
                .prefix(max(0, count)))
    }
}
