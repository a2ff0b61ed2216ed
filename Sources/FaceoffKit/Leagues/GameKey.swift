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
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var league = League.nhl
        var digits = Substring(trimmed)
        if let colon = trimmed.firstIndex(of: ":") {
            guard let named = League(rawValue: trimmed[..<colon].lowercased()) else { return nil }
            league = named
            digits = trimmed[trimmed.index(after: colon)...]
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let id = Int(digits),
            league.isGameID(id)
        else { return nil }
        return GameKey(league: league, id: id)
    }

    /// What is wrong with `text` when it is written as a game (digits, or a league and digits)
    /// and is none, in words for the user; nil when it is a game or not written as one (a team,
    /// a file).
    public static func mistake(in text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard parse(trimmed) == nil else { return nil }
        var prefix: Substring?
        var digits = Substring(trimmed)
        if let colon = trimmed.firstIndex(of: ":") {
            prefix = trimmed[..<colon]
            digits = Substring(trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let how = "an NHL game is its ten-digit id (2025020100), an NBA game nba: and ESPN's id (nba:401585607)"
        if let prefix, League(rawValue: prefix.lowercased()) == nil { return "'\(prefix)' is not a league Faceoff knows: \(how)" }
        return "'\(trimmed)' is no game: \(how)"
    }
}

extension League {
    /// Whether `id` can be one of this league's games: the NHL's are ten digits, its season's
    /// first year then the game type and number (2025020100); ESPN's are positive integers of
    /// up to ten digits (401585607).
    func isGameID(_ id: Int) -> Bool {
        switch self {
        case .nhl: (1_917_000_000..<2_100_000_000).contains(id)
        case .nba: (1..<10_000_000_000).contains(id)
        }
    }
}
