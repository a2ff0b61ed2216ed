import FaceoffBase
import Foundation

// Static facts about the 32 current NHL clubs (2025-26 season) that the NHL web API does not
// provide: club colours, the home arena's location and the club's time zone. Everything here
// is immutable `static let` data, so it is safe to read from any task or thread.

// MARK: - Arena and TeamFacts

/// A club's home building.
public struct Arena: Sendable, Hashable {
    /// The building's current name (2025-26).
    public let name: String
    /// City with state or province abbreviation, e.g. "Toronto, ON" or "Boston, MA".
    public let city: String
    /// Degrees north, to 4 decimals (about 10 m), at the centre of the building.
    public let latitude: Double
    /// Degrees east (negative in North America), to 4 decimals.
    public let longitude: Double

    public init(name: String, city: String, latitude: Double, longitude: Double) {
        self.name = name
        self.city = city
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Facts about one NHL club that the NHL web API does not carry.
public struct TeamFacts: Sendable, Hashable {
    /// The NHL's three-letter code, e.g. "TOR".
    public let abbrev: String
    /// As the API spells it, e.g. "Montréal Canadiens".
    public let fullName: String
    /// As the API's `placeName` spells it, e.g. "Tampa Bay", "NY Rangers".
    public let placeName: String
    /// As the API's `commonName` spells it, e.g. "Maple Leafs".
    public let commonName: String
    public let primary: RGB
    public let secondary: RGB
    public let arena: Arena
    /// IANA time zone identifier of the home arena, e.g. "America/Toronto".
    public let timeZone: String

    /// The colours and logo a payload carries for a team (lights that flash the scoring
    /// team's colours): nil for a team the table doesn't know.
    public struct Look: Codable, Sendable, Equatable {
        /// "#00205B"
        public var primary: String
        public var secondary: String
        public var logo: String
    }

    public static func look(_ team: String) -> Look? {
        TeamFactsTable.facts(for: team).map { Look(primary: $0.primary.hex, secondary: $0.secondary.hex, logo: logoURL($0.abbrev)) }
    }

    /// Where the NHL serves the clubs' logos.
    public static let logoBase = "https://assets.nhle.com/logos/nhl/svg/"

    /// A club's logo (the light-background SVG), e.g. ".../TOR_light.svg".
    public static func logoURL(_ team: String, base: String = logoBase) -> String { base + "\(team)_light.svg" }

    public init(
        abbrev: String, fullName: String, placeName: String, commonName: String,
        primary: RGB, secondary: RGB, arena: Arena, timeZone: String
    ) {
        self.abbrev = abbrev
        self.fullName = fullName
        self.placeName = placeName
        self.commonName = commonName
        self.primary = primary
        self.secondary = secondary
        self.arena = arena
        self.timeZone = timeZone
    }
}
