import FaceoffBase
import Foundation

/// Lookup table of ``TeamFacts`` for the 32 clubs of the 2025-26 season.
public enum TeamFactsTable {
    /// All 32 clubs, sorted by abbreviation.
    ///
    /// Colours are the clubs' published brand colours. Where a club lists several, `primary` is
    /// the one it leads with and `secondary` the strongest companion colour.
    /// Time zones use canonical IANA names: Montréal and Ottawa are "America/Toronto" (the old
    /// "America/Montreal" is only an alias), Detroit has its own "America/Detroit" zone, Calgary
    /// and Edmonton are "America/Edmonton", and Salt Lake City is "America/Denver" (it observes
    /// daylight saving time, unlike "America/Phoenix").
    public static let all: [TeamFacts] = [
        team(
            "ANA", "Anaheim Ducks", "Anaheim", "Ducks", "#F47A38", "#B9975B",
            "Honda Center", "Anaheim, CA", 33.8078, -117.8765, "America/Los_Angeles"),
        team(
            "BOS", "Boston Bruins", "Boston", "Bruins", "#FFB81C", "#000000",
            "TD Garden", "Boston, MA", 42.3662, -71.0621, "America/New_York"),
        team(
            "BUF", "Buffalo Sabres", "Buffalo", "Sabres", "#003087", "#FFB81C",
            "KeyBank Center", "Buffalo, NY", 42.8750, -78.8764, "America/New_York"),
        team(
            "CAR", "Carolina Hurricanes", "Carolina", "Hurricanes", "#CC0000", "#000000",
            "Lenovo Center", "Raleigh, NC", 35.8033, -78.7219, "America/New_York"),
        team(
            "CBJ", "Columbus Blue Jackets", "Columbus", "Blue Jackets", "#002654", "#CE1126",
            "Nationwide Arena", "Columbus, OH", 39.9693, -83.0061, "America/New_York"),
        team(
            "CGY", "Calgary Flames", "Calgary", "Flames", "#D2001C", "#F1BE48",
            "Scotiabank Saddledome", "Calgary, AB", 51.0374, -114.0519, "America/Edmonton"),
        team(
            "CHI", "Chicago Blackhawks", "Chicago", "Blackhawks", "#CF0A2C", "#000000",
            "United Center", "Chicago, IL", 41.8807, -87.6742, "America/Chicago"),
        team(
            "COL", "Colorado Avalanche", "Colorado", "Avalanche", "#6F263D", "#236192",
            "Ball Arena", "Denver, CO", 39.7487, -105.0077, "America/Denver"),
        team(
            "DAL", "Dallas Stars", "Dallas", "Stars", "#006847", "#8F8F8C",
            "American Airlines Center", "Dallas, TX", 32.7905, -96.8103, "America/Chicago"),
        team(
            "DET", "Detroit Red Wings", "Detroit", "Red Wings", "#CE1126", "#FFFFFF",
            "Little Caesars Arena", "Detroit, MI", 42.3411, -83.0553, "America/Detroit"),
        team(
            "EDM", "Edmonton Oilers", "Edmonton", "Oilers", "#041E42", "#FF4C00",
            "Rogers Place", "Edmonton, AB", 53.5469, -113.4979, "America/Edmonton"),
        team(
            "FLA", "Florida Panthers", "Florida", "Panthers", "#C8102E", "#041E42",
            "Amerant Bank Arena", "Sunrise, FL", 26.1584, -80.3256, "America/New_York"),
        team(
            "LAK", "Los Angeles Kings", "Los Angeles", "Kings", "#111111", "#A2AAAD",
            "Crypto.com Arena", "Los Angeles, CA", 34.0430, -118.2673, "America/Los_Angeles"),
        team(
            "MIN", "Minnesota Wild", "Minnesota", "Wild", "#154734", "#A6192E",
            "Grand Casino Arena", "St. Paul, MN", 44.9448, -93.1011, "America/Chicago"),
        team(
            "MTL", "Montréal Canadiens", "Montréal", "Canadiens", "#AF1E2D", "#192168",
            "Centre Bell", "Montréal, QC", 45.4961, -73.5693, "America/Toronto"),
        team(
            "NJD", "New Jersey Devils", "New Jersey", "Devils", "#CE1126", "#000000",
            "Prudential Center", "Newark, NJ", 40.7336, -74.1711, "America/New_York"),
        team(
            "NSH", "Nashville Predators", "Nashville", "Predators", "#FFB81C", "#041E42",
            "Bridgestone Arena", "Nashville, TN", 36.1592, -86.7785, "America/Chicago"),
        team(
            "NYI", "New York Islanders", "NY Islanders", "Islanders", "#00539B", "#F47D30",
            "UBS Arena", "Elmont, NY", 40.7117, -73.7258, "America/New_York"),
        team(
            "NYR", "New York Rangers", "NY Rangers", "Rangers", "#0038A8", "#CE1126",
            "Madison Square Garden", "New York, NY", 40.7505, -73.9934, "America/New_York"),
        team(
            "OTT", "Ottawa Senators", "Ottawa", "Senators", "#C52032", "#000000",
            "Canadian Tire Centre", "Ottawa, ON", 45.2969, -75.9272, "America/Toronto"),
        team(
            "PHI", "Philadelphia Flyers", "Philadelphia", "Flyers", "#F74902", "#000000",
            "Xfinity Mobile Arena", "Philadelphia, PA", 39.9012, -75.1720, "America/New_York"),
        team(
            "PIT", "Pittsburgh Penguins", "Pittsburgh", "Penguins", "#000000", "#FCB514",
            "PPG Paints Arena", "Pittsburgh, PA", 40.4394, -79.9892, "America/New_York"),
        team(
            "SEA", "Seattle Kraken", "Seattle", "Kraken", "#001628", "#99D9D9",
            "Climate Pledge Arena", "Seattle, WA", 47.6221, -122.3540, "America/Los_Angeles"),
        team(
            "SJS", "San Jose Sharks", "San Jose", "Sharks", "#006D75", "#EA7200",
            "SAP Center at San Jose", "San Jose, CA", 37.3328, -121.9012, "America/Los_Angeles"),
        team(
            "STL", "St. Louis Blues", "St. Louis", "Blues", "#002F87", "#FCB514",
            "Enterprise Center", "St. Louis, MO", 38.6268, -90.2026, "America/Chicago"),
        team(
            "TBL", "Tampa Bay Lightning", "Tampa Bay", "Lightning", "#002868", "#FFFFFF",
            "Benchmark International Arena", "Tampa, FL", 27.9427, -82.4519, "America/New_York"),
        team(
            "TOR", "Toronto Maple Leafs", "Toronto", "Maple Leafs", "#00205B", "#FFFFFF",
            "Scotiabank Arena", "Toronto, ON", 43.6435, -79.3791, "America/Toronto"),
        team(
            "UTA", "Utah Mammoth", "Utah", "Mammoth", "#69B3E7", "#000000",
            "Delta Center", "Salt Lake City, UT", 40.7683, -111.9011, "America/Denver"),
        team(
            "VAN", "Vancouver Canucks", "Vancouver", "Canucks", "#00205B", "#00843D",
            "Rogers Arena", "Vancouver, BC", 49.2778, -123.1089, "America/Vancouver"),
        team(
            "VGK", "Vegas Golden Knights", "Vegas", "Golden Knights", "#B4975A", "#333F42",
            "T-Mobile Arena", "Las Vegas, NV", 36.1029, -115.1784, "America/Los_Angeles"),
        team(
            "WPG", "Winnipeg Jets", "Winnipeg", "Jets", "#041E42", "#004C97",
            "Canada Life Centre", "Winnipeg, MB", 49.8928, -97.1436, "America/Winnipeg"),
        team(
            "WSH", "Washington Capitals", "Washington", "Capitals", "#C8102E", "#041E42",
            "Capital One Arena", "Washington, DC", 38.8981, -77.0209, "America/New_York"),
    ]

    /// The club with this abbreviation, ignoring case and surrounding whitespace.
    public static func facts(for abbrev: String) -> TeamFacts? {
        byAbbrev[abbrev.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()]
    }

    /// The home arena an API venue name refers to, or nil for neutral sites (outdoor games,
    /// international series) and anything unknown.
    ///
    /// Matching ignores case, diacritics, punctuation and spacing, and treats "Centre" and
    /// "Center" alike, so "Centre Bell", "Bell Centre" and "bell center" all find Montréal's
    /// arena. Names a building has carried since 2010, and the French and Spanish forms the API
    /// sends, are recognised too; the result always carries the current name. Former names of a
    /// *different* building (Joe Louis Arena, Rexall Place, Nassau Coliseum) deliberately do not
    /// match, since their coordinates differ.
    public static func arena(named venue: String) -> Arena? {
        // Exact API spellings first: folding a name costs more than the lookup.
        if let abbrev = exactVenues[venue] { return byAbbrev[abbrev]?.arena }
        guard let abbrev = venueIndex[venueKey(venue)] else { return nil }
        return byAbbrev[abbrev]?.arena
    }

    /// Every known spelling as written, to its team.
    private static let exactVenues: [String: String] = {
        var result: [String: String] = [:]
        for facts in all { result[facts.arena.name] = facts.abbrev }
        return result
    }()

    // MARK: Internals

    static let byAbbrev: [String: TeamFacts] = {
        var table: [String: TeamFacts] = [:]
        for facts in all { table[facts.abbrev] = facts }
        return table
    }()

    /// Other names the NHL API has used for each club's current building: renamings since 2010
    /// and localised forms. The current name (`Arena.name`) is always matched and is not
    /// repeated here.
    static let venueAliases: [String: [String]] = [
        "BUF": ["First Niagara Center", "HSBC Arena"],
        "CAR": ["PNC Arena", "RBC Center"],
        "CGY": ["Pengrowth Saddledome", "Saddledome"],
        "COL": ["Pepsi Center"],
        "FLA": ["FLA Live Arena", "BB&T Center", "BankAtlantic Center"],
        "LAK": ["Staples Center"],
        "MIN": ["Xcel Energy Center"],
        "MTL": ["Bell Centre"],
        "OTT": ["Centre Canadian Tire", "Scotiabank Place"],
        "PHI": ["Wells Fargo Center"],
        "PIT": ["Consol Energy Center"],
        "SJS": [
            "SAP Center", "SAP Center en San Jose", "SAP Center de San Jose",
            "HP Pavilion at San Jose", "HP Pavilion",
        ],
        "STL": ["Scottrade Center"],
        "TBL": ["Amalie Arena", "Tampa Bay Times Forum", "St. Pete Times Forum"],
        "TOR": ["Air Canada Centre"],
        "UTA": ["Vivint Arena", "Vivint Smart Home Arena"],
        "VAN": ["General Motors Place", "GM Place"],
        "WPG": ["Bell MTS Place", "MTS Centre"],
        "WSH": ["Verizon Center"],
    ]

    /// Normalised venue name → club abbreviation, covering current names and aliases.
    static let venueIndex: [String: String] = {
        var index: [String: String] = [:]
        for facts in all {
            let names = [facts.arena.name] + (venueAliases[facts.abbrev] ?? [])
            for name in names { index[venueKey(name)] = facts.abbrev }
        }
        return index
    }()

    /// Case-, diacritic-, punctuation- and spacing-insensitive form of a venue name, with the
    /// British "centre" spelled "center" so both spellings meet.
    static func venueKey(_ name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var key = ""
        for scalar in folded.unicodeScalars where CharacterSet.alphanumerics.contains(scalar) {
            key.unicodeScalars.append(scalar)
        }
        return key.lowercased().replacingOccurrences(of: "centre", with: "center")
    }

    private static func team(
        _ abbrev: String, _ fullName: String, _ placeName: String, _ commonName: String,
        _ primary: String, _ secondary: String,
        _ arena: String, _ city: String, _ latitude: Double, _ longitude: Double,
        _ timeZone: String
    ) -> TeamFacts {
        TeamFacts(
            abbrev: abbrev, fullName: fullName, placeName: placeName, commonName: commonName,
            primary: RGB(hex: primary), secondary: RGB(hex: secondary),
            arena: Arena(name: arena, city: city, latitude: latitude, longitude: longitude),
            timeZone: timeZone
        )
    }
}
