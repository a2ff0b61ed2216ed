import FaceoffBase
import FaceoffESPN
import FaceoffNHL
import Foundation

/// A team as a user wrote it, resolved: a league and a team.
public enum TeamReference: Sendable, Equatable {
    /// An NHL abbreviation (TOR).
    case nhl(String)
    case nba(NBATeam)

    public var league: League {
        switch self {
        case .nhl: .nhl
        case .nba: .nba
        }
    }

    /// As a user writes it to mean this team and no other: `TOR`, `nba:LAL`.
    public var written: String {
        switch self {
        case .nhl(let abbrev): abbrev
        case .nba(let team): "nba:\(team.abbrev)"
        }
    }
}

/// The one place a team typed by a user (command line, config, `follow`) becomes a team:
/// `nba:LAL` and `nhl:TOR` name the league; a bare `TOR` stays the NHL's, so nothing written
/// before the NBA changes meaning, unless it is a name both leagues have (`Kings`, `Boston`),
/// which asks for the league.
public enum TeamInput {
    public static func resolve(_ input: String) throws(UnknownTeamError) -> TeamReference {
        let trimmed = input.trimmingCharacters(in: .whitespaces)
        if let colon = trimmed.firstIndex(of: ":") {
            let prefix = trimmed[..<colon].lowercased()
            let rest = String(trimmed[trimmed.index(after: colon)...])
            switch League(rawValue: prefix) {
            case .nhl?: return .nhl(try Teams.resolve(rest))
            case .nba?: return .nba(try nba(rest))
            default:
                throw UnknownTeamError(
                    input: trimmed,
                    hint: "'\(prefix)' is not a league Faceoff knows; write nhl:TEAM or nba:TEAM, or the team alone for the NHL")
            }
        }
        let upper = trimmed.uppercased()
        // An NHL abbreviation is the NHL's, as it always was (BOS is the Bruins).
        if Teams.abbreviations.contains(upper) { return .nhl(upper) }
        let hockey: Result<String, UnknownTeamError>
        do throws(UnknownTeamError) { hockey = .success(try Teams.resolve(trimmed)) } catch { hockey = .failure(error) }
        let basketball = NBATeams.matches(trimmed)
        switch hockey {
        case .success(let abbrev) where basketball.isEmpty: return .nhl(abbrev)
        case .success(let abbrev):
            let nhlName = Teams.info(abbrev)?.fullName ?? abbrev
            throw UnknownTeamError(
                input: trimmed,
                hint:
                    "both leagues have one: write nhl:\(trimmed) for the \(nhlName) or nba:\(trimmed) for the \(basketball.map(\.name).joined(separator: " or "))"
            )
        case .failure(let error) where !error.matches.isEmpty && !basketball.isEmpty:
            // "New York": two NHL teams and an NBA one.
            let all = error.matches + basketball.map { "nba:\($0.abbrev)" }
            throw UnknownTeamError(input: trimmed, hint: "it matches \(all.joined(separator: ", ")); use one of those", matches: all)
        case .failure(let error) where !error.matches.isEmpty || basketball.isEmpty: throw error
        case .failure:
            if basketball.count == 1 { return .nba(basketball[0]) }
            throw UnknownTeamError(
                input: trimmed, hint: "it matches \(basketball.map { "nba:\($0.abbrev)" }.joined(separator: ", ")); use one of those")
        }
    }

    /// A team where only the NHL goes so far (config `teams`, `follow`, `watch`, `calendar`):
    /// a name means the NHL's team as it always did (`Kings`, `New York`, `Utah`), and only
    /// what can be nothing but an NBA team (`nba:LAL`, `Lakers`) is refused, saying what the
    /// NBA has.
    public static func nhl(_ input: String) throws(UnknownTeamError) -> String {
        let trimmed = input.trimmingCharacters(in: .whitespaces)
        let team: NBATeam
        if trimmed.lowercased().hasPrefix("nba:") {
            team = try nba(String(trimmed.dropFirst(4)))
        } else {
            do throws(UnknownTeamError) {
                return try Teams.resolve(trimmed.lowercased().hasPrefix("nhl:") ? String(trimmed.dropFirst(4)) : trimmed)
            } catch {
                // Not the NHL's: an NBA team's name is said to be one; anything else, codes
                // included (PHX was the Coyotes'), keeps the NHL's words.
                let matches = NBATeams.matches(trimmed)
                guard error.matches.isEmpty, trimmed.count > 3, matches.count == 1 else { throw error }
                team = matches[0]
            }
        }
        throw UnknownTeamError(
            input: trimmed,
            hint:
                "the \(team.name) are an NBA team; for the NBA Faceoff has `teams`, `standings` and `scores` with --league nba, and `schedule`, `next`, `recent`, `roster` and `game` with nba:\(team.abbrev) so far"
        )
    }

    /// A team to follow (config `teams`, `follow`, `watch`): `nba:LAL` is the NBA's, and
    /// another league's code names that league's team by its abbreviation; anything else means
    /// what it always did, the NHL's team (`Kings`, `New York`), and a name only the NBA has is
    /// refused with how to write it.
    public static func followed(_ input: String) throws(UnknownTeamError) -> TeamKey {
        let trimmed = input.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("nba:") { return TeamKey(league: .nba, abbrev: try nba(String(trimmed.dropFirst(4))).abbrev) }
        if let colon = trimmed.firstIndex(of: ":"), let league = League(rawValue: String(trimmed[..<colon])), league != .nhl {
            let rest = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard let team = league.definition.team(rest) else {
                throw UnknownTeamError(input: trimmed, hint: "no \(league.name) team is written \(rest)")
            }
            return TeamKey(league: league, abbrev: team.abbrev)
        }
        do throws(UnknownTeamError) {
            return TeamKey(
                league: .nhl, abbrev: try Teams.resolve(trimmed.lowercased().hasPrefix("nhl:") ? String(trimmed.dropFirst(4)) : trimmed))
        } catch {
            let matches = NBATeams.matches(trimmed)
            guard error.matches.isEmpty, matches.count == 1, !trimmed.lowercased().hasPrefix("nhl:") else { throw error }
            throw UnknownTeamError(
                input: trimmed, hint: "the \(matches[0].name) are an NBA team: write nba:\(matches[0].abbrev)")
        }
    }

    /// An NBA team: ESPN's abbreviation or the NBA's, or a name.
    static func nba(_ input: String) throws(UnknownTeamError) -> NBATeam {
        let matches = NBATeams.matches(input)
        if matches.count == 1 { return matches[0] }
        let trimmed = input.trimmingCharacters(in: .whitespaces)
        if matches.count > 1 {
            throw UnknownTeamError(
                input: "nba:\(trimmed)", hint: "it matches \(matches.map(\.abbrev).joined(separator: ", ")); use the abbreviation")
        }
        let near = Suggest.closest(to: trimmed.uppercased(), in: NBATeams.all.map(\.abbrev), limit: 1)
        let hint =
            near.isEmpty
            ? "NBA teams are written like nba:LAL or nba:Lakers; `faceoff teams --league nba` lists them"
            : "did you mean nba:\(near.joined(separator: " or nba:"))?"
        throw UnknownTeamError(input: "nba:\(trimmed)", hint: hint)
    }
}

extension TeamInput {
    /// How the config's team lists compare values: "Leafs", "tor" and "TOR" are one team.
    public static func canonical(_ value: String) -> String {
        (try? followed(value).written) ?? value.uppercased()
    }
}
