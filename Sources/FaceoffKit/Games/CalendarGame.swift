import Foundation

/// One game of a season as a calendar feed shows it, in any league: the shared summary, seen
/// from a followed team (or from nobody), and what only its league
/// knows: its teams' names, its link and arena, its series, how it says a final. The league
/// makes it (`LeagueDefinition.calendarSeason`); FaceoffCalendar turns it into an event.
public struct CalendarGame: Sendable {
    public struct Names: Sendable {
        /// "Maple Leafs", "Lakers": titles.
        public var short: String
        /// "Toronto Maple Leafs": descriptions.
        public var full: String

        public init(short: String, full: String) {
            self.short = short
            self.full = full
        }
    }

    public struct Arena: Sendable {
        public var city: String
        public var latitude: Double
        public var longitude: Double

        public init(city: String, latitude: Double, longitude: Double) {
            self.city = city
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    public var league: League
    public var summary: GameSummary
    /// When it starts; nil when the calendar cannot place it (no time it can use yet).
    public var start: Date?
    /// No time yet, said as an all-day event on its day (`start` is that day's 00:00 UTC).
    public var allDay = false
    public var away: Names
    public var home: Names
    /// Networks by market ("national", "home", "away"): "TSN4 (CA), RDS (CA)".
    public var tv: [String: String] = [:]
    public var link: String
    public var arena: Arena?
    /// A playoff game's place in its series: a short tag for titles, a line for descriptions
    /// (its score left out of a spoiler-free feed).
    public var seriesTag: String?
    public var seriesLine: String?
    /// A playoff game the series may not need (tentative), or one it ended without (cancelled).
    public var ifNecessary = false
    public var notNeeded = false
    /// A game its league drops from the schedule once the series no longer needs it (ESPN's
    /// "if necessary" games): its going is no sign of a broken answer.
    public var leavesWhenNotNeeded = false
    /// How the league says a final, for a feed that shows scores: "Final: TOR 3–2 BUF (OT)";
    /// nil for a game not over.
    public var finalLine: String?

    public init(league: League, summary: GameSummary, start: Date?, away: Names, home: Names, link: String) {
        self.league = league
        self.summary = summary
        self.start = start
        self.away = away
        self.home = home
        self.link = link
    }

    /// The teams as the config writes them (`TOR`, `nba:LAL`), away first.
    public var teams: [String] { [summary.away.abbrev, summary.home.abbrev].map { TeamKey(league: league, abbrev: $0).written } }
}

/// A followed team's season as its calendar feed reads it: its games listed by what a feed
/// needs to choose them, each made into a `CalendarGame` only when the feed uses it (a game
/// of two followed teams is in both seasons, and a feed of every game reads each twice).
public struct CalendarSeason: Sendable {
    public struct Entry: Sendable {
        public var id: Int
        /// The `game_types` code: 1 preseason, 2 regular season, 3 playoffs.
        public var typeCode: Int
        /// The teams' abbreviations, as the league's feeds write them.
        public var away: String
        public var home: String

        public init(id: Int, typeCode: Int, away: String, home: String) {
            self.id = id
            self.typeCode = typeCode
            self.away = away
            self.home = home
        }
    }

    public var league: League
    public var entries: [Entry]
    /// The game of `entries[index]`, seen from `team` (one of its sides' abbreviations; nil:
    /// from nobody); nil for one the calendar cannot read, which stays as the feed last
    /// showed it, marked TBD.
    public var game: @Sendable (_ index: Int, _ team: String?) -> CalendarGame?
    /// The season as the NHL writes it ("20252026"), when the answer says.
    public var season: String?
    /// Where the data came from when it is not fresh (a stale copy), one line each.
    public var notes: [String] = []

    public init(
        league: League, entries: [Entry], season: String?, notes: [String] = [],
        game: @escaping @Sendable (_ index: Int, _ team: String?) -> CalendarGame?
    ) {
        self.league = league
        self.entries = entries
        self.game = game
        self.season = season
        self.notes = notes
    }
}

/// What a calendar feed asks of a league's season, whatever the league.
public struct CalendarRequest: Sendable {
    /// "current", or a season as the NHL writes it ("20242025").
    public var season: String
    /// Scores and series results shown (false: spoiler-free).
    public var scores: Bool
    /// Finals a watcher saw before the schedule shows them.
    public var overlay: ScheduleOverlay?

    public init(season: String, scores: Bool, overlay: ScheduleOverlay? = nil) {
        self.season = season
        self.scores = scores
        self.overlay = overlay
    }
}
