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
            points = object.displayValue.flatMap { Int($0) } ?? object.value.map { Int($0) }
        } else {
            points = nil
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
            score = try? container.decodeIfPresent(ESPNScore.self, forKey: .score)
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

/// `apis/site/v2/sports/basketball/nba/summary?event={id}`: one game, its box score and its
/// plays.
public struct ESPNSummary: Decodable, Sendable, Equatable {
    public struct Header: Decodable, Sendable, Equatable {
        public var id: String?
        /// False: no start time yet (`date` is a placeholder on its day).
        public var timeValid: Bool?
        public var competitions: [HeaderCompetition]?
    }

    public struct HeaderCompetition: Decodable, Sendable, Equatable {
        public struct Series: Decodable, Sendable, Equatable {
            /// "playoff", or "season" (the regular season's meetings)
            public var type: String?
            public var summary: String?
        }
        public struct Competitor: Decodable, Sendable, Equatable {
            public struct LineScore: Decodable, Sendable, Equatable { public var displayValue: String? }
            public var homeAway: String?
            public var team: ESPNTeam?
            public var score: ESPNScore?
            public var winner: Bool?
            public var linescores: [LineScore]?
        }

        public var date: String?
        public var timeValid: Bool?
        public var status: ESPNEvent.Status?
        public var competitors: [Competitor]?
        /// The playoff series only ("IND leads series 3-2"): summaries list the regular
        /// season's meetings beside it, and an answer may give one object instead of a list.
        public var series: Series?

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            date = try container.decodeIfPresent(String.self, forKey: .date)
            timeValid = try? container.decodeIfPresent(Bool.self, forKey: .timeValid)
            status = try container.decodeIfPresent(ESPNEvent.Status.self, forKey: .status)
            competitors = try container.decodeIfPresent([Competitor].self, forKey: .competitors)
            let listed = (try? container.decodeIfPresent([Series].self, forKey: .series)) ?? nil
            let single = (try? container.decodeIfPresent(Series.self, forKey: .series)) ?? nil
            series = (listed ?? single.map { [$0] } ?? []).first { $0.type == "playoff" }
        }

        private enum CodingKeys: String, CodingKey { case date, timeValid, status, competitors, series }
    }

    public struct Boxscore: Decodable, Sendable, Equatable {
        public var players: [TeamPlayers]?
    }

    public struct TeamPlayers: Decodable, Sendable, Equatable {
        public struct Statistics: Decodable, Sendable, Equatable {
            /// MIN PTS FG 3PT FT REB AST TO STL BLK OREB DREB PF +/-
            public var names: [String]?
            public var athletes: [Athlete]?
        }

        public struct Athlete: Decodable, Sendable, Equatable {
            public struct Person: Decodable, Sendable, Equatable {
                public var id: String?
                public var displayName: String?
            }

            public var athlete: Person?
            public var starter: Bool?
            public var didNotPlay: Bool?
            /// In the order of `names`; empty for a player who did not play.
            public var stats: [String]?
        }

        public var team: ESPNTeam?
        public var statistics: [Statistics]?
    }

    public struct TeamLeaders: Decodable, Sendable, Equatable {
        public struct Category: Decodable, Sendable, Equatable {
            public struct Leader: Decodable, Sendable, Equatable {
                public struct Person: Decodable, Sendable, Equatable { public var displayName: String? }
                public var athlete: Person?
                public var displayValue: String?
                /// "11/16 FG, 3/6 FT"
                public var summary: String?
            }

            /// "Points"
            public var displayName: String?
            public var leaders: [Leader]?
        }

        public var team: ESPNTeam?
        public var leaders: [Category]?
    }

    public struct GameInfo: Decodable, Sendable, Equatable {
        public var venue: ESPNEvent.Venue?
        public var attendance: Int?
    }

    /// One play: the score after it, its quarter and the time left in it, who was in it (the
    /// scorer, shooter or rebounder first; on a basket, the one who assisted second).
    public struct Play: Decodable, Sendable, Equatable {
        public struct Kind: Decodable, Sendable, Equatable { public var text: String? }
        public struct Period: Decodable, Sendable, Equatable { public var number: Int? }
        public struct Clock: Decodable, Sendable, Equatable { public var displayValue: String? }
        public struct Team: Decodable, Sendable, Equatable { public var id: String? }
        public struct Participant: Decodable, Sendable, Equatable {
            public struct Athlete: Decodable, Sendable, Equatable { public var id: String? }
            public var athlete: Athlete?
        }

        public var id: String?
        /// Grows through the game (a string in the answers).
        public var sequenceNumber: String?
        /// "Jump Shot", "Free Throw - 1 of 2", "Defensive Rebound", "End Period", "End Game"
        public var type: Kind?
        /// "Wendell Carter Jr. makes 26-foot three point jumper (Franz Wagner assists)"
        public var text: String?
        public var awayScore: Int?
        public var homeScore: Int?
        public var period: Period?
        /// Time left in the quarter: "10:05", under a minute "45.3".
        public var clock: Clock?
        public var scoringPlay: Bool?
        public var scoreValue: Int?
        public var team: Team?
        public var participants: [Participant]?
        public var wallclock: String?

        public init(
            id: String? = nil, sequenceNumber: String? = nil, type: String? = nil, text: String? = nil, awayScore: Int? = nil,
            homeScore: Int? = nil, period: Int? = nil, clock: String? = nil, scoringPlay: Bool? = nil, scoreValue: Int? = nil,
            team: String? = nil, participants: [String] = []
        ) {
            self.id = id
            self.sequenceNumber = sequenceNumber
            self.type = type.map { Kind(text: $0) }
            self.text = text
            self.awayScore = awayScore
            self.homeScore = homeScore
            self.period = period.map { Period(number: $0) }
            self.clock = clock.map { Clock(displayValue: $0) }
            self.scoringPlay = scoringPlay
            self.scoreValue = scoreValue
            self.team = team.map { Team(id: $0) }
            self.participants = participants.map { Participant(athlete: .init(id: $0)) }
        }

        /// The ids of the players in it, in the answer's order.
        public var athletes: [String] { (participants ?? []).compactMap { $0.athlete?.id } }
    }

    public var header: Header?
    public var boxscore: Boxscore?
    public var leaders: [TeamLeaders]?
    public var gameInfo: GameInfo?
    /// In order; none before the game.
    public var plays: [Play]?

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        header = try container.decodeIfPresent(Header.self, forKey: .header)
        boxscore = try? container.decodeIfPresent(Boxscore.self, forKey: .boxscore)
        leaders = try? container.decodeIfPresent([TeamLeaders].self, forKey: .leaders)
        gameInfo = try? container.decodeIfPresent(GameInfo.self, forKey: .gameInfo)
        plays = try container.decodeIfPresent([Play].self, forKey: .plays)
    }

    private enum CodingKeys: String, CodingKey { case header, boxscore, leaders, gameInfo, plays }
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
