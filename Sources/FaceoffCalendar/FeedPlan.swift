import FaceoffKit
import Foundation

/// Which feeds a config implies, decided here once for `calendar`, `serve` and `run`.
///
/// favourites.ics is written whenever a team is followed, one team included: a subscription to
/// it keeps working as teams are followed and unfollowed, and `run` keeps fresh every feed
/// that `calendar` writes.
public struct FeedPlan: Sendable, Equatable {
    public let teams: [String]

    public init(teams: [String]) { self.teams = teams }

    /// What `faceoff calendar` writes with no team named, and what `run` keeps fresh: one feed
    /// per followed team, and favourites.ics with all of them.
    public var written: [FeedKind] {
        teams.isEmpty ? [] : teams.map { .team($0) } + [.favourites(teams)]
    }

    /// What the feed server offers: the written feeds and the whole league's.
    public var served: [FeedKind] { written + [.all] }

    /// What `run` rewrites after each refresh: the written feeds, and all.ics when it is in
    /// the directory (`faceoff calendar --all` put it there, so it is kept fresh too).
    public func refreshed(in directory: String) -> [FeedKind] {
        let league = FileManager.default.fileExists(atPath: directory + "/\(FeedKind.all.name).ics")
        return written + (league ? [.all] : [])
    }
}
