import FaceoffBase
import Foundation

/// The current NHL clubs, by abbreviation. The API has no team list endpoint, so the 32
/// abbreviations live here for validating input offline; display names shown to users come
/// from API responses where there are any (Utah's name changed between seasons).
public struct TeamInfo: Sendable, Equatable {
    public let abbrev: String
    public let fullName: String
    public let conference: String
    public let division: String
}

public enum Teams {
    public static let all: [TeamInfo] = [
        .init(abbrev: "BOS", fullName: "Boston Bruins", conference: "Eastern", division: "Atlantic"),
        .init(abbrev: "BUF", fullName: "Buffalo Sabres", conference: "Eastern", division: "Atlantic"),
        .init(abbrev: "DET", fullName: "Detroit Red Wings", conference: "Eastern", division: "Atlantic"),
        .init(abbrev: "FLA", fullName: "Florida Panthers", conference: "Eastern", division: "Atlantic"),
        .init(abbrev: "MTL", fullName: "Montréal Canadiens", conference: "Eastern", division: "Atlantic"),
        .init(abbrev: "OTT", fullName: "Ottawa Senators", conference: "Eastern", division: "Atlantic"),
        .init(abbrev: "TBL", fullName: "Tampa Bay Lightning", conference: "Eastern", division: "Atlantic"),
        .init(abbrev: "TOR", fullName: "Toronto Maple Leafs", conference: "Eastern", division: "Atlantic"),
        .init(abbrev: "CAR", fullName: "Carolina Hurricanes", conference: "Eastern", division: "Metropolitan"),
        .init(abbrev: "CBJ", fullName: "Columbus Blue Jackets", conference: "Eastern", division: "Metropolitan"),
        .init(abbrev: "NJD", fullName: "New Jersey Devils", conference: "Eastern", division: "Metropolitan"),
        .init(abbrev: "NYI", fullName: "New York Islanders", conference: "Eastern", division: "Metropolitan"),
        .init(abbrev: "NYR", fullName: "New York Rangers", conference: "Eastern", division: "Metropolitan"),
        .init(abbrev: "PHI", fullName: "Philadelphia Flyers", conference: "Eastern", division: "Metropolitan"),
        .init(abbrev: "PIT", fullName: "Pittsburgh Penguins", conference: "Eastern", division: "Metropolitan"),
        .init(abbrev: "WSH", fullName: "Washington Capitals", conference: "Eastern", division: "Metropolitan"),
        .init(abbrev: "CHI", fullName: "Chicago Blackhawks", conference: "Western", division: "Central"),
        .init(abbrev: "COL", fullName: "Colorado Avalanche", conference: "Western", division: "Central"),
        .init(abbrev: "DAL", fullName: "Dallas Stars", conference: "Western", division: "Central"),
        .init(abbrev: "MIN", fullName: "Minnesota Wild", conference: "Western", division: "Central"),
        .init(abbrev: "NSH", fullName: "Nashville Predators", conference: "Western", division: "Central"),
        .init(abbrev: "STL", fullName: "St. Louis Blues", conference: "Western", division: "Central"),
        .init(abbrev: "UTA", fullName: "Utah Mammoth", conference: "Western", division: "Central"),
        .init(abbrev: "WPG", fullName: "Winnipeg Jets", conference: "Western", division: "Central"),
        .init(abbrev: "ANA", fullName: "Anaheim Ducks", conference: "Western", division: "Pacific"),
        .init(abbrev: "CGY", fullName: "Calgary Flames", conference: "Western", division: "Pacific"),
        .init(abbrev: "EDM", fullName: "Edmonton Oilers", conference: "Western", division: "Pacific"),
        .init(abbrev: "LAK", fullName: "Los Angeles Kings", conference: "Western", division: "Pacific"),
        .init(abbrev: "SEA", fullName: "Seattle Kraken", conference: "Western", division: "Pacific"),
        .init(abbrev: "SJS", fullName: "San Jose Sharks", conference: "Western", division: "Pacific"),
        .init(abbrev: "VAN", fullName: "Vancouver Canucks", conference: "Western", division: "Pacific"),
        .init(abbrev: "VGK", fullName: "Vegas Golden Knights", conference: "Western", division: "Pacific"),
    ]

    public static let abbreviations = all.map(\.abbrev)

    /// What fans call the clubs, folded (lowercase, no accents), beside their full names.
    public static let nicknames: [String: String] = [
        "habs": "MTL", "canadiens": "MTL", "pens": "PIT", "sens": "OTT", "caps": "WSH", "canes": "CAR", "bolts": "TBL",
        "leafs": "TOR", "hawks": "CHI", "wings": "DET", "jackets": "CBJ", "cbj": "CBJ", "avs": "COL", "preds": "NSH",
        "nucks": "VAN", "oil": "EDM", "knights": "VGK", "isles": "NYI", "isle": "NYI", "nyr": "NYR", "rags": "NYR",
        "blueshirts": "NYR", "devs": "NJD", "flyers": "PHI", "cats": "FLA", "panthers": "FLA", "sabres": "BUF",
        "bruins": "BOS", "b's": "BOS", "kings": "LAK", "sharks": "SJS", "ducks": "ANA", "flames": "CGY", "jets": "WPG",
        "blues": "STL", "stars": "DAL", "kraken": "SEA", "mammoth": "UTA", "utah": "UTA", "wild": "MIN",
    ]

    public static func info(_ abbrev: String) -> TeamInfo? {
        all.first { $0.abbrev == abbrev.uppercased() }
    }

    /// Turns what a user typed (`tor`, `Leafs`, `Habs`, `Montreal`) into an abbreviation.
    public static func resolve(_ input: String) throws(UnknownTeamError) -> String {
        let trimmed = input.trimmingCharacters(in: .whitespaces)
        let upper = trimmed.uppercased()
        if abbreviations.contains(upper) { return upper }
        if upper == "ARI" || upper == "PHX" {
            throw UnknownTeamError(input: trimmed, hint: "the Coyotes left the NHL after 2023-24; Utah is UTA")
        }
        if let nickname = nicknames[fold(trimmed)] { return nickname }
        if trimmed.count > 3 {
            let folded = fold(trimmed)
            let matches = all.filter { fold($0.fullName).contains(folded) }
            if matches.count == 1 { return matches[0].abbrev }
            if matches.count > 1 {
                let names = matches.map(\.abbrev).joined(separator: ", ")
                throw UnknownTeamError(input: trimmed, hint: "it matches \(names); use the abbreviation", matches: matches.map(\.abbrev))
            }
        }
        let near = Suggest.closest(to: upper, in: abbreviations, limit: 1)
        let hint =
            near.isEmpty
            ? "teams are written as abbreviations like TOR or MTL; `faceoff teams` lists them"
            : "did you mean \(near.joined(separator: " or "))?"
        throw UnknownTeamError(input: trimmed, hint: hint)
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}

public struct UnknownTeamError: ReportedError, Sendable, Equatable, CustomStringConvertible {
    public let input: String
    public let hint: String
    /// The teams the input fits when it fits more than one.
    public let matches: [String]
    public var description: String { "unknown team '\(input)' (\(hint))" }

    package init(input: String, hint: String, matches: [String] = []) {
        self.input = input
        self.hint = hint
        self.matches = matches
    }
}

extension UnknownTeamError {
    public var exitStatus: Int32 { 2 }
}
