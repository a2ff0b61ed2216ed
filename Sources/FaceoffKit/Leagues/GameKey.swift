import Foundation

/// A game as a user names it (`watch`, `game`, `replay`): its league and the league's id.
/// Written `nba:401585607`, `nhl:2025020100`, or an NHL id alone, as before the NBA came.
public struct GameKey: Sendable, Hashable {
    public var league: League
    public var id: Int

    public init(league: League, id: Int) {
        self.league = league
        self.id = id
    }

    /// `nba:401585607`, `2025020100`: as a user writes it to mean this game and no other.
    public var written: String { league == .nhl ? String(id) : "\(league.rawValue):\(id)" }

    /// The game `text` names, or nil for anything else (a team, a file, a number that is no
    /// league's game id). The one place a written game becomes a league and an id: each
    /// league says which of its ids are plausible, and only the NHL's are taken unprefixed.
    public static func parse(_ text: String) -> GameKey? {
        let (prefix, digits) = split(text)
        let league = prefix.map { League(rawValue: $0.lowercased()) } ?? .nhl
        guard let league, isDigits(digits), let id = Int(digits), league.isGameID(id) else { return nil }
        return GameKey(league: league, id: id)
    }

    /// What is wrong with `text` when it is written as a game (digits, or a league and digits)
    /// and is none, in words for the user; nil when it is a game or not written as one (a team,
    /// a file).
    public static func mistake(in text: String) -> String? {
        guard parse(text) == nil else { return nil }
        let (prefix, digits) = split(text)
        // A space after the colon is still a game meant.
        guard isDigits(digits.trimmingCharacters(in: .whitespaces)[...]) else { return nil }
        let how = "an NHL game is its ten-digit id (2025020100), an NBA game nba: and ESPN's id (nba:401585607)"
        if let prefix, League(rawValue: prefix.lowercased()) == nil { return "'\(prefix)' is not a league Faceoff knows: \(how)" }
        return "'\(text.trimmingCharacters(in: .whitespaces))' is no game: \(how)"
    }

    /// `nba:401585607` as its league's name and its digits; a game with no league has none.
    private static func split(_ text: String) -> (prefix: Substring?, digits: Substring) {
        let trimmed = Substring(text.trimmingCharacters(in: .whitespaces))
        guard let colon = trimmed.firstIndex(of: ":") else { return (nil, trimmed) }
        return (trimmed[..<colon], trimmed[trimmed.index(after: colon)...])
    }

    /// ASCII digits only, and at least one.
    private static func isDigits(_ text: Substring) -> Bool { !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
}

extension League {
    /// Whether `id` can be one of this league's games.
    func isGameID(_ id: Int) -> Bool { definition.isGameID(id) }
}
