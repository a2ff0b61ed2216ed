import Foundation

// ESPN's answers as far as Faceoff reads them, every field optional: what an answer lacks is
// left out of a report, never guessed, and one odd field never costs the whole answer.

/// A team as ESPN's answers carry it.
public struct ESPNTeam: Codable, Sendable, Equatable {
    public var id: String?
    public var abbreviation: String?
    public var displayName: String?
    public var shortDisplayName: String?
    /// Hex without `#`, any case.
    public var color: String?
    public var alternateColor: String?
}

/// `apis/site/v2/sports/basketball/nba/teams`
public struct ESPNTeamList: Codable, Sendable, Equatable {
    public struct Sport: Codable, Sendable, Equatable { public var leagues: [League]? }
    public struct League: Codable, Sendable, Equatable { public var teams: [Entry]? }
    public struct Entry: Codable, Sendable, Equatable { public var team: ESPNTeam? }

    public var sports: [Sport]?

    public var teams: [ESPNTeam] { (sports?.first?.leagues?.first?.teams ?? []).compactMap(\.team) }
}

/// `apis/v2/sports/basketball/nba/standings`: a group per conference, each team's numbers as
/// named stats.
public struct ESPNStandings: Codable, Sendable, Equatable {
    public struct Season: Codable, Sendable, Equatable {
        public var year: Int?
        public var displayName: String?
    }

    public struct Group: Codable, Sendable, Equatable {
        public var name: String?
        public var standings: Table?
    }

    public struct Table: Codable, Sendable, Equatable { public var entries: [Entry]? }

    public struct Entry: Codable, Sendable, Equatable {
        public var team: ESPNTeam?
        public var stats: [Stat]?

        /// The stat called `name` (`wins`, `gamesBehind`, `Last Ten Games`…).
        public func stat(_ name: String) -> Stat? { stats?.first { $0.name == name } }
    }

    public struct Stat: Codable, Sendable, Equatable {
        public var name: String?
        public var displayValue: String?
        public var value: Double?
    }

    public var season: Season?
    public var children: [Group]?
}

/// `apis/site/v2/sports/basketball/nba/teams/{id}/roster`
public struct ESPNRoster: Codable, Sendable, Equatable {
    public struct Athlete: Codable, Sendable, Equatable {
        public struct Position: Codable, Sendable, Equatable { public var abbreviation: String? }
        public struct Experience: Codable, Sendable, Equatable { public var years: Int? }
        public struct College: Codable, Sendable, Equatable { public var name: String? }
        public struct Place: Codable, Sendable, Equatable {
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

    public struct Coach: Codable, Sendable, Equatable {
        public var firstName: String?
        public var lastName: String?
    }

    public var team: ESPNTeam?
    public var athletes: [Athlete]?
    public var coach: [Coach]?
}
