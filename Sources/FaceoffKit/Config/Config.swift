import FaceoffAPI
import FaceoffESPN
import FaceoffNHL
import Foundation

/// The user's settings: the configuration reference (docs/CONFIGURATION.md), parsed and validated.
/// Every key is optional; these defaults are what Faceoff does with no config file.
public struct Config: Sendable, Equatable {
    public static let defaultAPIBase = APIService.nhl.defaultBase
    public static let defaultESPNBase = APIService.espn.defaultBase

    /// The followed teams as written to mean them and no other (`TeamKey.written`):
    /// the NHL's by abbreviation (`TOR`), the NBA's with their league (`nba:LAL`).
    public var teams: [String] = []
    public var players: [Int] = []
    /// An IANA time zone name; nil means the system's.
    public var timezone: String?
    public var apiBase: String = Config.defaultAPIBase
    /// ESPN's site API, for the NBA.
    public var espnBase: String = Config.defaultESPNBase
    public var calendar = CalendarSettings()
    public var watch = WatchSettings()
    public var serve = ServeSettings()
    public var sinks: [SinkConfig] = []

    public init() {}

    /// The configured base of `service`'s API (`api_base`, `espn_base`).
    public func base(of service: APIService) -> String { service == .espn ? espnBase : apiBase }

    /// The followed teams, typed.
    public var teamKeys: [TeamKey] { teams.compactMap(TeamKey.init(written:)) }

    /// The followed NHL teams' abbreviations.
    public var nhlTeams: [String] { teams.filter { (TeamKey(written: $0)?.league ?? .nhl) == .nhl } }
    /// The followed NBA teams.
    public var nbaTeams: [NBATeam] {
        teamKeys.filter { $0.league == .nba }.compactMap { NBATeams.team(abbreviation: $0.abbrev) }
    }

    /// The configured zone, else the system's as the C library reads it (`SystemTimeZone`).
    public var timeZone: TimeZone {
        timezone.flatMap(TimeZone.init(identifier:)) ?? SystemTimeZone.read().zone
    }
}

public struct CalendarSettings: Sendable, Equatable {
    /// The shortest `duration` an event may have, from the config or `--duration`.
    public static let minimumDuration: Duration = .seconds(60)
    /// nil means `$XDG_DATA_HOME/faceoff/calendars`.
    public var dir: String?
    /// "current" or an eight-digit season such as "20252026".
    public var season: String = "current"
    public var gameTypes: [GameTypeName] = [.regular, .playoffs]
    public var reminders: [Duration] = []
    public var duration: Duration = .seconds(3 * 3600)
    public var refresh: Duration = .seconds(6 * 3600)
    public var scores = true
    public var homeOnly = false
    public var awayOnly = false
    public var futureOnly = false
    /// Write a feed even when it would go from some games to none.
    public var allowEmpty = false

    public init() {}
}

public enum GameTypeName: String, Sendable, CaseIterable {
    case preseason, regular, playoffs

    /// The API's `gameType` number.
    public var code: Int {
        switch self {
        case .preseason: 1
        case .regular: 2
        case .playoffs: 3
        }
    }
}

public struct WatchSettings: Sendable, Equatable {
    public static let minimumPoll: Duration = .seconds(2)
    /// The most reminders a game gets (`[watch] pregame`, `[calendar] reminders`): each is an
    /// alert, or an alarm on every game of a feed.
    public static let maximumReminders = 10

    public var poll: Duration = .seconds(5)
    /// The earliest pregame reminder: when watching a game begins.
    public var pregame: Duration = .seconds(30 * 60)
    /// Every pregame reminder's lead, longest first (`pregame = ["1h", "10m"]`; one value is
    /// a list of one). Each is a `pregame` alert, once per game.
    public var reminders: [Duration] = [.seconds(30 * 60)]
    /// `pregame` was written as a list: the calendars' alarms follow it unless
    /// `[calendar] reminders` says otherwise.
    public var remindersListed = false
    public var delay: Duration = .zero
    /// How long `faceoff status` shows a final before the next game.
    public var finalHold: Duration = .seconds(6 * 3600)

    public init() {}
}

public struct ServeSettings: Sendable, Equatable {
    public var enabled = false
    public var listen = "127.0.0.1:8765"
    public var token = ""
    public var publicURL = ""

    public init() {}
}

/// The event kinds (docs/ARCHITECTURE.md, Events), the values a sink's `events` may list.
public enum EventKindName {
    public static let all = GameEvent.Kind.allCases.map(\.rawValue)
    /// A sink without `events` gets these: every kind but the opt-in ones (`goal_highlight`).
    public static let byDefault = GameEvent.Kind.byDefault.map(\.rawValue)
}
