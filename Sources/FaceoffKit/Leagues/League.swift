import FaceoffAPI
import FaceoffBase
import Foundation
import Synchronization

/// A league, by the code configs, event JSON, MQTT topics and the store write (`nhl`, `nba`).
/// What a league is and says is its `LeagueDefinition`, which the registry (`Leagues`) holds:
/// code above the leagues asks the definition and never branches on which league it is.
public struct League: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// The league `code` names, if the registry has it (`nba`, `NBA`); nil for any other.
    public init?(rawValue code: String) {
        guard let definition = Leagues.definition(code: code.lowercased()) else { return nil }
        self = definition.league
    }

    /// A league's own name for itself; only its definition makes one. (A code the registry
    /// does not have reads as the NHL's definition: `definition`.)
    package init(code: String) { rawValue = code }

    public static let nhl = League(code: "nhl")
    public static let nba = League(code: "nba")

    /// "NHL"
    public var name: String { rawValue.uppercased() }
    public var description: String { rawValue }

    /// What the league is and says.
    public var definition: any LeagueDefinition {
        // A league value is only made by its definition or from a code the registry has.
        Leagues.definition(code: rawValue) ?? Leagues.hockey
    }

    /// The league's sport at a glance, for titles (`{{sport_emoji}}` in templates).
    public var sportEmoji: String { definition.sportEmoji }
    /// What its fans call a game's start (`{{start_word}}`).
    public var startWord: String { definition.startWord }
    /// The break after a period, by the period's label: "1st intermission", "end of Q3".
    public func afterPeriod(_ label: String) -> String { definition.afterPeriod(label) }
}

/// A team of a league as presentation needs it: its names, colours and logo.
public struct LeagueTeam: Sendable, Equatable {
    public var abbrev: String
    /// "Toronto Maple Leafs"
    public var name: String
    /// "Maple Leafs", "Lakers"
    public var shortName: String
    /// Its colours, where the league's facts have them (the NHL's table; the NBA's come from
    /// ESPN's answers, not a table, so none here).
    public var primary: RGB?
    public var secondary: RGB?
    /// Its logo's URL.
    public var logo: String?

    public init(abbrev: String, name: String, shortName: String, primary: RGB? = nil, secondary: RGB? = nil, logo: String? = nil) {
        self.abbrev = abbrev
        self.name = name
        self.shortName = shortName
        self.primary = primary
        self.secondary = secondary
        self.logo = logo
    }

    /// Colours and logo together, for lights and embeds; nil without colours.
    public var look: TeamLook? {
        guard let primary, let secondary else { return nil }
        return TeamLook(primary: primary.hex, secondary: secondary.hex, logo: logo ?? "")
    }
}

/// A team's colours and logo as event JSON and MQTT team states carry them (`teamColors`,
/// `colors`).
public struct TeamLook: Codable, Sendable, Equatable {
    /// "#00205B"
    public var primary: String
    public var secondary: String
    public var logo: String
}

/// What a league is and says, for everything above the leagues: delivery, MQTT, the calendar,
/// the daemon, the server. One value per league, in the registry (`Leagues`).
public protocol LeagueDefinition: Sendable {
    var league: League { get }
    /// "🏒"
    var sportEmoji: String { get }
    /// "Puck drop", "Tip-off".
    var startWord: String { get }
    /// The Material Design icon Home Assistant shows its teams' sensors with.
    var icon: String { get }
    /// Periods in regulation: a period past these is overtime.
    var regulationPeriods: Int { get }
    /// Basketball's clock counts down and its fans read the time left (`time_remaining` in an
    /// event's details); hockey's alerts say the time gone.
    var clockCountsDown: Bool { get }
    /// Skaters and nets: whether a team's state has a strength, manpower and an empty net.
    var hasManpower: Bool { get }
    /// The kinds of event its games fire, which its teams' Home Assistant triggers follow.
    var eventKinds: [GameEvent.Kind] { get }
    /// The API its data comes from.
    var service: APIService { get }

    /// "1st", "OT", "SO"; "Q1", "2OT".
    func periodLabel(_ period: Int, type: String?) -> String
    /// A period as an alert says it ("2nd period", "Overtime"), where the league's events do
    /// not say it themselves (`period_name` in their details).
    func periodName(_ period: Int, type: String?) -> String?
    /// The break after a period, by the period's label: "1st intermission", "end of Q3".
    func afterPeriod(_ label: String) -> String
    /// Whether `id` can be one of its games.
    func isGameID(_ id: Int) -> Bool
    /// A game's page on the league's site or its broadcaster's.
    func gameURL(_ id: Int) -> String
    /// A team by the abbreviation its feeds write; nil for none of its teams.
    func team(_ abbrev: String) -> LeagueTeam?
    /// Its teams' abbreviations, as its feeds write them.
    var abbreviations: [String] { get }
    /// Where a team's logo is served, by the abbreviation its feeds write, known or not (the
    /// NHL's asset server has clubs no longer in its table); nil where the league has none.
    func logo(_ abbrev: String) -> String?
    /// Its game `id` as a live feed, polled through `client` (one of its `service`).
    func liveGame(_ id: Int, client: APIClient) -> any LiveGame
    /// `team`'s schedule asked again (a conditional GET) through `client`, as `run` reads it.
    func schedule(of team: TeamKey, client: APIClient, at date: Date, time: LocalTime) async throws -> TeamSchedule
    /// `team`'s season as the shared game summary, through `client` as its mode says (a
    /// cached copy, for the next game's lookups).
    func games(of team: TeamKey, client: APIClient, time: LocalTime) async throws -> [GameSummary]
    /// `team`'s games to come or on at `now` (`GameWindow`), asked again, each with its
    /// series before it where the schedule tells it (the NHL's), for `watch TEAM`.
    func current(of team: TeamKey, client: APIClient, time: LocalTime, now: Date) async throws -> [(GameSummary, SeriesState?)]
    /// The same from the copy in `cache` alone (no network: `faceoff status`), its API at
    /// `base`; nil when none is cached.
    func cachedCurrent(of team: TeamKey, cache: ResponseCache, base: String, time: LocalTime, now: Date) -> [(GameSummary, SeriesState?)]?
    /// `team`'s season for its calendar feeds, through `client` (`CalendarSeason`: each game
    /// made when a feed uses it, seen from the followed team the feed asks). A league without
    /// calendars yet says so (the default).
    func calendarSeason(of team: TeamKey, request: CalendarRequest, client: APIClient) async throws -> CalendarSeason
    /// Records ("W-L-OT") by abbreviation, for the descriptions of games to come; none by
    /// default.
    func calendarRecords(client: APIClient) async -> [String: String]
    /// Asks the API again (conditional GETs) for what `calendarSeason` reads, so feeds built
    /// next find the server's answer in the cache: `run` does it once per team before it
    /// publishes. Nothing by default: a league whose `calendarSeason` reads what `run`'s
    /// schedule refresh asked has it already.
    func refreshCalendar(of team: TeamKey, client: APIClient) async
    /// The season as a feed's description says it: "the 2025-26 season".
    func seasonWords(_ label: String) -> String
}

extension LeagueDefinition {
    /// Of these clients, the one that speaks the league's API (the first if none does).
    public func client(among clients: [APIClient]) -> APIClient { client(in: clients) ?? clients[0] }
    /// Of these clients, the one that speaks the league's API; nil when none does.
    public func client(in clients: [APIClient]) -> APIClient? { clients.first { $0.service == service } }

    public func calendarSeason(of team: TeamKey, request: CalendarRequest, client: APIClient) async throws -> CalendarSeason {
        throw UsageError(message: "Faceoff has no calendar for the \(league.name) yet")
    }

    public func calendarRecords(client: APIClient) async -> [String: String] { [:] }
    public func refreshCalendar(of team: TeamKey, client: APIClient) async {}
    public func seasonWords(_ label: String) -> String { "the \(league.name)'s \(label) season" }
}

/// A followed team's schedule as `run` reads it: whether it is a stale copy standing in for a
/// refused or failed answer (how old, and why), its games to compare with the last answer,
/// and the games to plan for. Each league reads its own answer; what the daemon does with it
/// is the same for every league.
public struct TeamSchedule: Sendable {
    package var stale: (age: TimeInterval, reason: String)?
    package var changes: [ScheduleChanges.Game]
    package var planned: [PlannedGame]

    package init(stale: (age: TimeInterval, reason: String)?, changes: [ScheduleChanges.Game], planned: [PlannedGame]) {
        self.stale = stale
        self.changes = changes
        self.planned = planned
    }
}

/// The registry: every league the program knows, each by its definition. The built-in
/// leagues are here; a test adds one of its own with `register`.
public enum Leagues {
    static let hockey: any LeagueDefinition = HockeyLeague()
    private static let registered = Mutex<[any LeagueDefinition]>([HockeyLeague(), BasketballLeague()])

    /// Every league, the NHL first.
    public static var all: [any LeagueDefinition] { registered.withLock { $0 } }

    public static func definition(code: String) -> (any LeagueDefinition)? {
        registered.withLock { $0.first { $0.league.rawValue == code } }
    }

    /// Adds a league (one of the tests' own); a league already known is replaced.
    public static func register(_ definition: any LeagueDefinition) {
        registered.withLock { leagues in
            leagues.removeAll { $0.league == definition.league }
            leagues.append(definition)
        }
    }
}

/// A followed team, typed: its league and the abbreviation the league's feeds write. Written
/// as the config keeps it: the NHL's bare (`TOR`), any other league's with its code
/// (`nba:LAL`), so the Celtics' `BOS` is never the Bruins'.
public struct TeamKey: Hashable, Sendable, CustomStringConvertible {
    public var league: League
    public var abbrev: String

    public init(league: League, abbrev: String) {
        self.league = league
        self.abbrev = abbrev
    }

    /// A team as the config and followed lists keep it (`TOR`, `nba:LAL`); nil for a league
    /// the registry does not have or a team the league does not.
    public init?(written: String) {
        let parts = written.split(separator: ":", maxSplits: 1)
        let league = parts.count == 2 ? League(rawValue: String(parts[0])) : .nhl
        guard let league, let team = league.definition.team(String(parts[parts.count - 1])) else { return nil }
        self.init(league: league, abbrev: team.abbrev)
    }

    public var written: String { league == .nhl ? abbrev : "\(league.rawValue):\(abbrev)" }
    public var description: String { written }

    /// A team as followed (`TOR`, `nba:LAL`) in a file name, topic or object id: `TOR`, `nba-LAL`.
    public static func segment(_ written: String) -> String { written.replacingOccurrences(of: ":", with: "-") }
    public var segment: String { Self.segment(written) }

    /// The team's names, colours and logo.
    public var team: LeagueTeam? { league.definition.team(abbrev) }
}
