import FaceoffNHL
import Foundation

/// Which feed: one team's, the followed teams' combined, or the whole league's.
public enum FeedKind: Sendable, Equatable {
    case team(String)
    case favourites([String])
    case all

    public var name: String {
        switch self {
        case .team(let abbrev): abbrev
        case .favourites: "favourites"
        case .all: "all"
        }
    }

    var teams: [String] {
        switch self {
        case .team(let abbrev): [abbrev]
        case .favourites(let teams): teams
        case .all: Teams.abbreviations
        }
    }
}
