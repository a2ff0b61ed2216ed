import FaceoffKit
import Foundation

/// Which feed: one team's, the followed teams' combined, or the whole league's. Teams are
/// written as the config writes them (`TOR`, `nba:LAL`); an NBA team's file is `nba-LAL.ics`,
/// so the Celtics' `BOS` never takes the Bruins' file.
public enum FeedKind: Sendable, Equatable {
    case team(String)
    case favourites([String])
    case all

    public var name: String {
        switch self {
        case .team(let team): TeamKey(written: team)?.segment ?? team
        case .favourites: "favourites"
        case .all: "all"
        }
    }

    var teams: [String] {
        switch self {
        case .team(let abbrev): [abbrev]
        case .favourites(let teams): teams
        case .all: Self.allLeague.definition.abbreviations
        }
    }

    /// The league whose every game `all` holds.
    public static let allLeague = League.nhl
}
