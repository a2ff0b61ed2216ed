import FaceoffAPI
import FaceoffESPN
import FaceoffNHL
import Foundation

/// The user's settings: the README's configuration reference, parsed and validated.
/// Every key is optional; these defaults are what Faceoff does with no config file.
public struct Config: Sendable, Equatable {
    public static let defaultAPIBase = APIService.nhl.defaultBase
    public static let defaultESPNBase = APIService.espn.defaultBase

    /// The followed teams as written to mean them and no other (`TeamReference.written`):
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

    /// The followed NHL teams' abbreviations.
    public var nhlTeams: [String] { teams.filter { !$0.hasPrefix("nba:") } }
    /// The followed NBA teams.
    public var nbaTeams: [NBATeam] { teams.compactMap(NBATeams.team(written:)) }

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

public struct SinkConfig: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case stdout, notify, webhook, exec, mqtt
    }

    public enum Preset: String, Sendable, CaseIterable {
        case generic, discord, slack, ntfy, gotify, homeassistant
    }

    public enum Format: String, Sendable, CaseIterable {
        case text, jsonl
    }

    public enum Urgency: String, Sendable, CaseIterable {
        case critical, normal, low
    }

    /// What a correction (a goal overturned, reinstated, its scorer changed) does to the goal's
    /// message where the receiver can edit it (notify, Discord, ntfy).
    public enum Edit: String, Sendable, CaseIterable {
        /// The goal's message becomes the correction.
        case on
        /// A new message, as at receivers that can't edit.
        case off
        /// Both: the goal's message edited, and a new one.
        case both
    }

    /// What becomes of the alerts a sink holds while muted or quiet.
    public enum Held: String, Sendable, CaseIterable {
        /// Gone: claimed in the ledger, never sent.
        case drop
        /// One message when the hold ends, summing them up.
        case digest
    }

    public var type: Kind
    public var name: String?
    /// The kinds it gets, as the config lists them (checked at load: an unknown name is a
    /// config error with its line); nil means every kind but the opt-in ones.
    public var events: [GameEvent.Kind]?
    /// nil means the followed teams.
    public var teams: [String]?
    public var players: [Int] = []
    /// nil means `[watch] delay`.
    public var delay: Duration?
    /// The nightly quiet, in the configured time zone.
    public var quietHours: QuietHours?
    /// nil means `heldAlerts`' default.
    public var held: Held?
    /// notify, and webhooks with the discord or ntfy preset.
    public var edit: Edit = .on
    public var url: String?
    public var preset: Preset = .generic
    public var secret: String?
    public var headers: [String: String] = [:]
    public var expiry: Duration = .seconds(3600)
    public var format: Format = .text
    /// nil means the default rule: critical for a followed team's goal and the final.
    public var urgency: Urgency?
    /// exec: the program and its arguments, each a template over the event's keys.
    public var command: [String] = []
    /// exec: how long the program may run before its process group is killed.
    public var timeout: Duration = .seconds(10)
    /// exec: at-least-once (retried on the webhook schedule until `expiry`, also after a
    /// crash) rather than at-most-once.
    public var retry = false
    /// mqtt: the login (`url` holds the broker, mqtt:// or mqtts://).
    public var username: String?
    public var password: String?
    /// mqtt: the PEM file of the CA that signed the broker's certificate; nil means the
    /// system's CA store.
    public var caFile: String?
    /// mqtt: nil means `faceoff-<host>-<pid>`, unique per process.
    public var clientID: String?
    public var topicPrefix = "faceoff"
    public var discovery = true
    public var discoveryPrefix = "homeassistant"

    public init(type: Kind) { self.type = type }

    /// What becomes of held alerts: as configured, else dropped at a desktop or exec sink (a
    /// horn at 7 am for a goal at midnight is wrong) and summed up in a digest elsewhere.
    public var heldAlerts: Held { held ?? ([.notify, .exec].contains(type) ? .drop : .digest) }

    /// Whether corrections edit the goal's message here: a receiver that can, and `edit` not off.
    public var editsCorrections: Bool {
        edit != .off && (type == .notify || (type == .webhook && [.discord, .ntfy].contains(preset)))
    }

    /// How logs and errors name this sink.
    public var displayName: String { name ?? type.rawValue }
}

/// The event kinds (docs/ARCHITECTURE.md, Events), the values a sink's `events` may list.
public enum EventKindName {
    public static let all = GameEvent.Kind.allCases.map(\.rawValue)
    /// A sink without `events` gets these: every kind but the opt-in ones (`goal_highlight`).
    public static let byDefault = GameEvent.Kind.byDefault.map(\.rawValue)
}
