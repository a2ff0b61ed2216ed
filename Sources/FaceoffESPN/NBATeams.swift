import Foundation

/// An NBA team as Faceoff knows it without asking: ESPN's id and abbreviation (what its API
/// takes and answers), the NBA's own tricode, names, conference and division. Thirty teams
/// whose divisions change rarely: a fact table (colours come from the API).
public struct NBATeam: Sendable, Hashable {
    /// ESPN's team id ("13" for the Lakers), the key of its team paths.
    public let id: String
    /// ESPN's abbreviation: `GS`, `NY`, `SA`, `NO`, `UTAH`, `WSH` where the NBA writes
    /// `GSW`, `NYK`, `SAS`, `NOP`, `UTA`, `WAS`.
    public let abbrev: String
    /// The NBA's own three letters.
    public let tricode: String
    public let name: String
    /// "Lakers"
    public let shortName: String
    public let conference: String
    public let division: String
}

public enum NBATeams {
    public static let all: [NBATeam] = [
        .init(
            id: "2", abbrev: "BOS", tricode: "BOS", name: "Boston Celtics", shortName: "Celtics", conference: "Eastern",
            division: "Atlantic"),
        .init(
            id: "17", abbrev: "BKN", tricode: "BKN", name: "Brooklyn Nets", shortName: "Nets", conference: "Eastern", division: "Atlantic"),
        .init(
            id: "18", abbrev: "NY", tricode: "NYK", name: "New York Knicks", shortName: "Knicks", conference: "Eastern",
            division: "Atlantic"),
        .init(
            id: "20", abbrev: "PHI", tricode: "PHI", name: "Philadelphia 76ers", shortName: "76ers", conference: "Eastern",
            division: "Atlantic"),
        .init(
            id: "28", abbrev: "TOR", tricode: "TOR", name: "Toronto Raptors", shortName: "Raptors", conference: "Eastern",
            division: "Atlantic"),
        .init(
            id: "4", abbrev: "CHI", tricode: "CHI", name: "Chicago Bulls", shortName: "Bulls", conference: "Eastern", division: "Central"),
        .init(
            id: "5", abbrev: "CLE", tricode: "CLE", name: "Cleveland Cavaliers", shortName: "Cavaliers", conference: "Eastern",
            division: "Central"),
        .init(
            id: "8", abbrev: "DET", tricode: "DET", name: "Detroit Pistons", shortName: "Pistons", conference: "Eastern",
            division: "Central"),
        .init(
            id: "11", abbrev: "IND", tricode: "IND", name: "Indiana Pacers", shortName: "Pacers", conference: "Eastern", division: "Central"
        ),
        .init(
            id: "15", abbrev: "MIL", tricode: "MIL", name: "Milwaukee Bucks", shortName: "Bucks", conference: "Eastern", division: "Central"
        ),
        .init(
            id: "1", abbrev: "ATL", tricode: "ATL", name: "Atlanta Hawks", shortName: "Hawks", conference: "Eastern", division: "Southeast"),
        .init(
            id: "30", abbrev: "CHA", tricode: "CHA", name: "Charlotte Hornets", shortName: "Hornets", conference: "Eastern",
            division: "Southeast"),
        .init(id: "14", abbrev: "MIA", tricode: "MIA", name: "Miami Heat", shortName: "Heat", conference: "Eastern", division: "Southeast"),
        .init(
            id: "19", abbrev: "ORL", tricode: "ORL", name: "Orlando Magic", shortName: "Magic", conference: "Eastern", division: "Southeast"
        ),
        .init(
            id: "27", abbrev: "WSH", tricode: "WAS", name: "Washington Wizards", shortName: "Wizards", conference: "Eastern",
            division: "Southeast"),
        .init(
            id: "7", abbrev: "DEN", tricode: "DEN", name: "Denver Nuggets", shortName: "Nuggets", conference: "Western",
            division: "Northwest"),
        .init(
            id: "16", abbrev: "MIN", tricode: "MIN", name: "Minnesota Timberwolves", shortName: "Timberwolves", conference: "Western",
            division: "Northwest"),
        .init(
            id: "25", abbrev: "OKC", tricode: "OKC", name: "Oklahoma City Thunder", shortName: "Thunder", conference: "Western",
            division: "Northwest"),
        .init(
            id: "22", abbrev: "POR", tricode: "POR", name: "Portland Trail Blazers", shortName: "Trail Blazers", conference: "Western",
            division: "Northwest"),
        .init(id: "26", abbrev: "UTAH", tricode: "UTA", name: "Utah Jazz", shortName: "Jazz", conference: "Western", division: "Northwest"),
        .init(
            id: "9", abbrev: "GS", tricode: "GSW", name: "Golden State Warriors", shortName: "Warriors", conference: "Western",
            division: "Pacific"),
        .init(
            id: "12", abbrev: "LAC", tricode: "LAC", name: "LA Clippers", shortName: "Clippers", conference: "Western", division: "Pacific"),
        .init(
            id: "13", abbrev: "LAL", tricode: "LAL", name: "Los Angeles Lakers", shortName: "Lakers", conference: "Western",
            division: "Pacific"),
        .init(id: "21", abbrev: "PHX", tricode: "PHX", name: "Phoenix Suns", shortName: "Suns", conference: "Western", division: "Pacific"),
        .init(
            id: "23", abbrev: "SAC", tricode: "SAC", name: "Sacramento Kings", shortName: "Kings", conference: "Western",
            division: "Pacific"),
        .init(
            id: "6", abbrev: "DAL", tricode: "DAL", name: "Dallas Mavericks", shortName: "Mavericks", conference: "Western",
            division: "Southwest"),
        .init(
            id: "10", abbrev: "HOU", tricode: "HOU", name: "Houston Rockets", shortName: "Rockets", conference: "Western",
            division: "Southwest"),
        .init(
            id: "29", abbrev: "MEM", tricode: "MEM", name: "Memphis Grizzlies", shortName: "Grizzlies", conference: "Western",
            division: "Southwest"),
        .init(
            id: "3", abbrev: "NO", tricode: "NOP", name: "New Orleans Pelicans", shortName: "Pelicans", conference: "Western",
            division: "Southwest"),
        .init(
            id: "24", abbrev: "SA", tricode: "SAS", name: "San Antonio Spurs", shortName: "Spurs", conference: "Western",
            division: "Southwest"),
    ]

    /// What fans call them, folded, beside their names.
    static let nicknames: [String: String] = [
        "cavs": "5", "mavs": "6", "wolves": "16", "t-wolves": "16", "blazers": "22", "sixers": "20", "dubs": "9", "nola": "3",
        "okc": "25", "pels": "3",
    ]

    public static func team(id: String) -> NBATeam? { all.first { $0.id == id } }

    /// ESPN's abbreviation or the NBA's tricode, any case.
    public static func team(abbreviation: String) -> NBATeam? {
        let upper = abbreviation.uppercased()
        return all.first { $0.abbrev == upper } ?? all.first { $0.tricode == upper }
    }

    /// The team of a followed-team entry as Faceoff writes it (`nba:LAL`); nil for any other.
    public static func team(written: String) -> NBATeam? {
        guard written.hasPrefix("nba:") else { return nil }
        return team(abbreviation: String(written.dropFirst(4)))
    }

    /// The teams what a user typed may mean: an abbreviation (ESPN's or the NBA's), a nickname,
    /// or a part of a name ("Lakers", "Golden State", "Los Angeles" is two).
    public static func matches(_ input: String) -> [NBATeam] {
        let trimmed = input.trimmingCharacters(in: .whitespaces)
        if let team = team(abbreviation: trimmed) { return [team] }
        let folded = fold(trimmed)
        if let id = nicknames[folded], let team = team(id: id) { return [team] }
        guard folded.count > 3 else { return [] }
        if let exact = all.first(where: { fold($0.shortName) == folded || fold($0.name) == folded }) { return [exact] }
        return all.filter { fold($0.name).contains(folded) }
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
