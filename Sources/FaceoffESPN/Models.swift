import FaceoffAPI
import Foundation

// ESPN's answers as far as Faceoff reads them, every field optional: what an answer lacks is
// left out of a report, never guessed, and one odd field never costs the whole answer.

/// A team as ESPN's answers carry it.
public struct ESPNTeam: Decodable, Sendable, Equatable {
    public var id: String?
    public var abbreviation: String?
    public var displayName: String?
    public var shortDisplayName: String?
    /// Hex without `#`, any case.
    public var color: String?
    public var alternateColor: String?
}

/// `apis/site/v2/sports/basketball/nba/teams`
public struct ESPNTeamList: Decodable, Sendable, Equatable {
    public struct Sport: Decodable, Sendable, Equatable { public var leagues: [League]? }
    public struct League: Decodable, Sendable, Equatable { public var teams: [Entry]? }
    public struct Entry: Decodable, Sendable, Equatable { public var team: ESPNTeam? }

    public var sports: [Sport]?

    public var teams: [ESPNTeam] { (sports?.first?.leagues?.first?.teams ?? []).compactMap(\.team) }
}

/// `apis/v2/sports/basketball/nba/standings`: a group per conference, each team's numbers as
/// named stats.
public struct ESPNStandings: Decodable, Sendable, Equatable {
    public struct Season: Decodable, Sendable, Equatable {
        public var year: Int?
        public var displayName: String?
    }

    public struct Group: Decodable, Sendable, Equatable {
        public var name: String?
        public var standings: Table?
    }

    public struct Table: Decodable, Sendable, Equatable { public var entries: [Entry]? }

    public struct Entry: Decodable, Sendable, Equatable {
        public var team: ESPNTeam?
        public var stats: [Stat]?

        /// The stat called `name` (`wins`, `gamesBehind`, `Last Ten Games`…).
        public func stat(_ name: String) -> Stat? { stats?.first { $0.name == name } }
    }

    public struct Stat: Decodable, Sendable, Equatable {
        public var name: String?
        public var displayValue: String?
        public var value: Double?
    }

    public var season: Season?
    public var children: [Group]?
}

/// `apis/site/v2/sports/basketball/nba/teams/{id}/roster`
public struct ESPNRoster: Decodable, Sendable, Equatable {
    public struct Athlete: Decodable, Sendable, Equatable {
        public struct Position: Decodable, Sendable, Equatable { public var abbreviation: String? }
        public struct Experience: Decodable, Sendable, Equatable { public var years: Int? }
        public struct College: Decodable, Sendable, Equatable { public var name: String? }
        public struct Place: Decodable, Sendable, Equatable {
            public var city: String?
            public var state: String?
            public var country: String?
        }

        public var id: String?
        public var fullName: String?
        public var displayName: String?
        public var jersey: String?
        public var position: Position?
        /// Inches.
        public var height: Double?
        /// Pounds.
        public var weight: Double?
        public var age: Int?
        /// "1999-02-28T08:00Z"
        public var dateOfBirth: String?
        public var experience: Experience?
        public var college: College?
        public var birthPlace: Place?
    }

    public struct Coach: Decodable, Sendable, Equatable {
        public var firstName: String?
        public var lastName: String?
    }

    public var team: ESPNTeam?
    public var athletes: [Athlete]?
    public var coach: [Coach]?
}

/// A score: an object (`{"value": 112.0, "displayValue": "112"}`) in team schedules, a string
/// (`"112"`) in scoreboards and summaries.
public struct ESPNScore: Decodable, Sendable, Equatable {
    public var points: Int?

    public init(points: Int?) { self.points = points }

    private struct Object: Decodable {
        var value: Double?
        var displayValue: String?
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            points = Int(text)
        } else if let object = try? container.decode(Object.self) {
            points = object.displayValue.flatMap { Int($0) }
            if points == nil, let value = object.value {
                points = Plausible.int(value, in: Plausible.score)
                if points == nil {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "a score of \(value) is not a game's score")
                }
            }
        } else {
            points = nil
        }
        if let points, !Plausible.score.contains(points) {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a score of \(points) is not a game's score")
        }
    }
}

/// A game (an event) as schedules and scoreboards carry it.
public struct ESPNEvent: Decodable, Sendable, Equatable {
    public struct SeasonType: Decodable, Sendable, Equatable {
        /// 1 preseason, 2 regular season, 3 postseason.
        public var type: Int?
    }

    public struct Competition: Decodable, Sendable, Equatable {
        public var venue: Venue?
        public var neutralSite: Bool?
        /// Scoreboards say it here, schedules on the event.
        public var timeValid: Bool?
        /// Schedules' broadcasts (`media`, `market.type`); a scoreboard's are another shape
        /// (`names`, `market` as text) and read as none: its `geoBroadcasts` are these.
        public var broadcasts: [Broadcast]?
        public var geoBroadcasts: [Broadcast]?
        public var notes: [Note]?
        public var competitors: [Competitor]?
        public var status: Status?

        /// The competitor on that side: "home" or "away".
        public func competitor(_ homeAway: String) -> Competitor? { competitors?.first { $0.homeAway == homeAway } }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            venue = try? container.decodeIfPresent(Venue.self, forKey: .venue)
            neutralSite = try? container.decodeIfPresent(Bool.self, forKey: .neutralSite)
            timeValid = try? container.decodeIfPresent(Bool.self, forKey: .timeValid)
            broadcasts = try? container.decodeIfPresent([Broadcast].self, forKey: .broadcasts)
            geoBroadcasts = try? container.decodeIfPresent([Broadcast].self, forKey: .geoBroadcasts)
            notes = try? container.decodeIfPresent([Note].self, forKey: .notes)
            competitors = try container.decodeIfPresent([Competitor].self, forKey: .competitors)
            status = try container.decodeIfPresent(Status.self, forKey: .status)
        }

        private enum CodingKeys: String, CodingKey {
            case venue, neutralSite, timeValid, broadcasts, geoBroadcasts, notes, competitors, status
        }

        /// Where to watch, from whichever list has them.
        public var networks: [Broadcast] { geoBroadcasts ?? broadcasts ?? [] }
    }

    public struct Venue: Decodable, Sendable, Equatable { public var fullName: String? }

    public struct Broadcast: Decodable, Sendable, Equatable {
        public struct Media: Decodable, Sendable, Equatable { public var shortName: String? }
        public struct Market: Decodable, Sendable, Equatable { public var type: String? }
        public var media: Media?
        public var market: Market?
    }

    public struct Note: Decodable, Sendable, Equatable { public var headline: String? }

    public struct Competitor: Decodable, Sendable, Equatable {
        public struct Record: Decodable, Sendable, Equatable {
            public var type: String?
            public var displayValue: String?
        }

        /// home | away
        public var homeAway: String?
        public var winner: Bool?
        public var team: ESPNTeam?
        public var score: ESPNScore?
        /// Schedules' records (`[{type, displayValue}]`); a scoreboard's `record` is other and
        /// read as none.
        public var record: [Record]?

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            homeAway = try container.decodeIfPresent(String.self, forKey: .homeAway)
            winner = try? container.decodeIfPresent(Bool.self, forKey: .winner)
            team = try container.decodeIfPresent(ESPNTeam.self, forKey: .team)
            // A score in no shape ESPN uses reads as none; one no game can have refuses the answer.
            score = try container.decodeIfPresent(ESPNScore.self, forKey: .score)
            record = try? container.decodeIfPresent([Record].self, forKey: .record)
        }

        private enum CodingKeys: String, CodingKey { case homeAway, winner, team, score, record }
    }

    public struct Status: Decodable, Sendable, Equatable {
        public struct Kind: Decodable, Sendable, Equatable {
            /// STATUS_SCHEDULED, STATUS_IN_PROGRESS, STATUS_HALFTIME, STATUS_END_PERIOD, STATUS_FINAL…
            public var name: String?
            /// pre | in | post
            public var state: String?
            public var completed: Bool?
            /// "Final/OT", "8:41 - 4th Quarter", "5/13 - TBD"
            public var detail: String?
        }

        public var type: Kind?
        /// 1-4 the quarters, 5 the first overtime.
        public var period: Int?
        public var displayClock: String?

        /// scheduled | live | final | postponed | cancelled: over only when ESPN says it is
        /// completed (a postponed game may be `post` too).
        public var game: String {
            switch (type?.state, type?.name) {
            case ("post", _) where type?.completed != false: "final"
            case (_, "STATUS_POSTPONED"): "postponed"
            case (_, "STATUS_CANCELED"), (_, "STATUS_CANCELLED"): "cancelled"
            case ("in", _): "live"
            default: "scheduled"
            }
        }
    }

    public var id: String?
    /// UTC without seconds: "2026-04-25T00:00Z".
    public var date: String?
    public var seasonType: SeasonType?
    /// False: the start time is not set yet, and `date` holds a placeholder on its day.
    public var timeValid: Bool?
    public var competitions: [Competition]?

    public var competition: Competition? { competitions?.first }

    /// False when the start time is not set yet, wherever the answer says so.
    public var hasTime: Bool { (timeValid ?? competition?.timeValid) != false }
}

/// `apis/site/v2/sports/basketball/nba/teams/{id}/schedule`
public struct ESPNTeamSchedule: Decodable, Sendable, Equatable {
    public struct Season: Decodable, Sendable, Equatable {
        public var year: Int?
        public var type: Int?
        /// "2025-26"
        public var displayName: String?
    }

    public var team: ESPNTeam?
    public var season: Season?
    public var events: [ESPNEvent]?
}

extension ESPNEvent {
    /// `date` as a moment.
    public var startDate: Date? { date.flatMap(ESPNDate.parse) }

    /// The day a game with no time yet is on (see `ESPNDate.easternDay`).
    public var easternDay: String? { date.flatMap(ESPNDate.easternDay) }
}

/// `apis/site/v2/sports/basketball/nba/scoreboard`: a day's games.
public struct ESPNScoreboard: Decodable, Sendable, Equatable {
    public struct Day: Decodable, Sendable, Equatable {
        /// "2026-05-02"
        public var date: String?
    }

    public var day: Day?
    public var events: [ESPNEvent]?
}

/// ESPN's event dates: UTC without seconds ("2026-04-25T00:00Z"), which ISO 8601 parsers that
/// insist on seconds refuse; a date with seconds is read too.
public enum ESPNDate {
    public static func parse(_ text: String) -> Date? {
        var text = text
        if text.count == 17, text.hasSuffix("Z") { text.insert(contentsOf: ":00", at: text.index(before: text.endIndex)) }
        return try? Date(text, strategy: .iso8601)
    }

    /// The day a game with no time yet is on: its placeholder is midnight, US Eastern (the
    /// recordings' "5/13 - TBD" games are dated 04:00Z in May), so that day is Eastern's.
    public static func easternDay(_ text: String) -> String? {
        guard let start = parse(text), let zone = TimeZone(identifier: "America/New_York") else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: start)
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        return String(format: "%04d-%02d-%02d", year, month, day)
    }
}
