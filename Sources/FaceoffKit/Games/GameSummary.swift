import FaceoffNHL
import Foundation

/// One game as the fan commands show it, from one team's side when there is one. Its JSON
/// form is part of the documented output of `schedule`, `next` and `recent` (docs/JSON.md).
public struct GameSummary: Codable, Sendable, Equatable {
    public struct Side: Codable, Sendable, Equatable {
        public var abbrev: String
        public var name: String
        public var score: Int?
        public var shots: Int?

        package init(abbrev: String, name: String, score: Int?, shots: Int?) {
            self.abbrev = abbrev
            self.name = name
            self.score = score
            self.shots = shots
        }
    }

    public struct Broadcast: Codable, Sendable, Equatable {
        /// national | home | away
        public var market: String
        public var country: String?
        public var network: String
    }

    public var id: Int
    public var season: String?
    /// preseason | regular | playoffs | other
    public var type: String
    /// The local date in the configured time zone.
    public var date: String?
    /// UTC, ISO 8601.
    public var start: String?
    /// The configured time zone, ISO 8601 with offset.
    public var startLocal: String?
    public var timeTBD: Bool
    /// scheduled | live | final | postponed | cancelled
    public var status: String
    /// The API's raw gameState and gameScheduleState.
    public var state: String?
    public var scheduleState: String?
    public var away: Side
    public var home: Side
    public var venue: String?
    public var neutralSite: Bool
    /// The team whose view this is, if any.
    public var team: String?
    public var opponent: String?
    /// home | away, from `team`'s side.
    public var homeOrAway: String?
    /// W | L | OTL | SOL from `team`'s side, for finished games.
    public var result: String?
    /// REG | OT | SO for finished games.
    public var endedIn: String?
    public var broadcasts: [Broadcast]
    /// For playoff games: "R1 game 3", "TOR leads 2-1".
    public var series: String?

    public var startDate: Date? { start.flatMap { try? Date($0, strategy: .iso8601) } }
    public var isFinal: Bool { status == "final" }
    public var isLive: Bool { status == "live" }
    public var isUpcoming: Bool { status == "scheduled" }

    /// A playoff game's round and number as the calendar and `schedule` show it: ESPN's
    /// "West Semifinals - Game 5 If Necessary" as "West Semifinals · Game 5", the NHL's
    /// "R1 game 3, TOR leads 2-1" as it is.
    public var round: String? {
        guard let series, !series.isEmpty else { return nil }
        return series.replacingOccurrences(of: " If Necessary", with: "", options: .caseInsensitive)
            .replacingOccurrences(of: " - ", with: " · ")
    }

    /// A playoff game the series may end before: "if necessary", and not played (yet).
    public var ifNecessary: Bool {
        (series ?? "").localizedCaseInsensitiveContains("if necessary") && !isFinal && !isLive
    }

    /// The round with "if necessary" after it while that holds, as one line (`next`, the
    /// calendar's description): "West Semifinals · Game 5 · if necessary".
    public var roundLine: String? { round.map { ifNecessary ? "\($0) · if necessary" : $0 } }

    /// A game from what every league's schedule says, seen from `team` (its abbreviation; nil:
    /// from nobody): a final's result is a win, a loss or a tie by the score.
    package init(id: Int, type: String, start: Date?, status: String, away: Side, home: Side, venue: String?, team: String?) {
        self.id = id
        self.type = type
        self.start = start.map { $0.formatted(.iso8601) }
        date = start.map { String($0.formatted(.iso8601).prefix(10)) }
        timeTBD = start == nil
        self.status = status
        self.away = away
        self.home = home
        self.venue = venue
        neutralSite = false
        broadcasts = []
        if let team, team == away.abbrev || team == home.abbrev {
            let isHome = team == home.abbrev
            self.team = team
            homeOrAway = isHome ? "home" : "away"
            opponent = isHome ? away.abbrev : home.abbrev
            if status == "final", let ours = (isHome ? home : away).score, let theirs = (isHome ? away : home).score {
                result = ours > theirs ? "W" : ours < theirs ? "L" : "T"
            }
        }
    }

    /// `time` nil skips the local date and time (the calendar works in UTC and needs neither).
    public init?(_ game: ScheduleGame, team: String?, time: LocalTime?) {
        guard let id = game.id else { return nil }
        self.id = id
        season = game.season.map(String.init)
        switch game.gameType {
        case .some(.preseason): type = "preseason"
        case .some(.regularSeason): type = "regular"
        case .some(.playoffs): type = "playoffs"
        default: type = "other"
        }
        let startTime = game.startTime
        // The configured zone's date, not the API's gameDate (the venue's): they differ for
        // late games seen from far away.
        date = time.flatMap { time in startTime.map(time.isoDay) } ?? game.gameDate
        start = game.startTimeUTC
        startLocal = time.flatMap { time in startTime.map(time.iso) }
        let schedule = game.gameScheduleState
        timeTBD = schedule?.isTimeTBD ?? false
        let state = game.gameState
        // A game played is final whatever the schedule state says: it is never cancelled or
        // postponed after the fact.
        if state?.isFinal == true {
            status = "final"
        } else if schedule?.isCancelled == true {
            status = "cancelled"
        } else if schedule?.isPostponed == true {
            status = "postponed"
        } else if state?.isLive == true {
            status = "live"
        } else {
            status = "scheduled"
        }
        self.state = state?.rawValue
        scheduleState = schedule?.rawValue
        func side(_ team: GameTeam?) -> Side {
            Side(abbrev: team?.abbrev ?? "?", name: team?.displayName ?? team?.abbrev ?? "?", score: team?.score, shots: team?.sog)
        }
        away = side(game.awayTeam)
        home = side(game.homeTeam)
        venue = game.venue?.value
        neutralSite = game.neutralSite ?? false
        endedIn = status == "final" ? (game.gameOutcome?.lastPeriodType ?? game.periodDescriptor?.periodType)?.rawValue : nil
        broadcasts = (game.tvBroadcasts ?? [])
            .sorted { ($0.sequenceNumber ?? 0) < ($1.sequenceNumber ?? 0) }
            .compactMap { broadcast in
                guard let network = broadcast.network else { return nil }
                let market =
                    switch broadcast.market {
                    case "N": "national"
                    case "H": "home"
                    case "A": "away"
                    default: broadcast.market ?? "other"
                    }
                return Broadcast(market: market, country: broadcast.countryCode, network: network)
            }
        if let status = game.seriesStatus {
            var parts: [String] = []
            if let abbrev = status.seriesAbbrev, let number = status.gameNumberOfSeries { parts.append("\(abbrev) game \(number)") }
            if let top = status.topSeedTeamAbbrev?.value, let bottom = status.bottomSeedTeamAbbrev?.value,
                let topWins = status.topSeedWins, let bottomWins = status.bottomSeedWins
            {
                if topWins == bottomWins {
                    parts.append("series tied \(topWins)-\(bottomWins)")
                } else if topWins > bottomWins {
                    parts.append("\(top) leads \(topWins)-\(bottomWins)")
                } else {
                    parts.append("\(bottom) leads \(bottomWins)-\(topWins)")
                }
            }
            series = parts.isEmpty ? nil : parts.joined(separator: ", ")
        }
        self.team = nil
        if let team = team?.uppercased(), team == away.abbrev || team == home.abbrev {
            self.team = team
            let isHome = team == home.abbrev
            homeOrAway = isHome ? "home" : "away"
            opponent = isHome ? away.abbrev : home.abbrev
            if status == "final", let ours = (isHome ? home : away).score, let theirs = (isHome ? away : home).score {
                if ours > theirs {
                    result = "W"
                } else if type == "playoffs" {
                    // Playoff games have no loser point: an overtime loss is a loss.
                    result = "L"
                } else {
                    switch endedIn {
                    case "OT": result = "OTL"
                    case "SO": result = "SOL"
                    default: result = "L"
                    }
                }
            }
        }
    }

    /// "vs MTL" or "@ BOS" from the team's side; "MTL @ TOR" otherwise.
    public var matchup: String {
        if let opponent, let homeOrAway { return homeOrAway == "home" ? "vs \(opponent)" : "@ \(opponent)" }
        return "\(away.abbrev) @ \(home.abbrev)"
    }

    /// "4–3 OT" for finished games, "2–1" live: the team's score first when there is a team.
    public var scoreText: String? {
        guard let awayScore = away.score, let homeScore = home.score else { return nil }
        var text: String
        if homeOrAway == "home" {
            text = "\(homeScore)–\(awayScore)"
        } else if homeOrAway == "away" {
            text = "\(awayScore)–\(homeScore)"
        } else {
            text = "\(away.abbrev) \(awayScore)–\(homeScore) \(home.abbrev)"
        }
        if isFinal, let endedIn, endedIn != "REG" { text += " \(endedIn)" }
        return text
    }

    /// National networks first, then the team's own market (both markets with no team).
    public var networks: [String] {
        var seen: [String] = []
        let ours = homeOrAway
        for broadcast in broadcasts where broadcast.market == "national" || ours == nil || broadcast.market == ours {
            if !seen.contains(broadcast.network) { seen.append(broadcast.network) }
        }
        return seen
    }

    public var networksText: String { networks.joined(separator: ", ") }
}
