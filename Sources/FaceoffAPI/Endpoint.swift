import Foundation

/// One resource of an API: its path under the API's base, the type it decodes to, and how
/// long a copy stays good. Each API's target defines its own (FaceoffNHL, FaceoffESPN).
public struct Endpoint<Response: Decodable & Sendable>: Sendable {
    public let path: String
    /// How long a response stays good, judged from its content at the time it was fetched.
    let freshness: @Sendable (Response, Date) -> Freshness
    /// What a 404 means when the path holds something the user gave (a player or game id):
    /// "no NHL player has the id 8478402". Nil for a fixed resource, where a 404 means the
    /// server is not the API expected.
    let missing: String?
    /// Why a decoded answer can't be what was asked for (empty, or about another team or
    /// game), or nil when it can. An answer that fails is never cached nor shown.
    let problem: @Sendable (Response) -> String?
    /// Why a new answer can't replace the last good copy (it lost what the NHL never takes
    /// away), or nil when it can. Such an answer is treated like a failed request: the copy
    /// stays, and is used, marked stale.
    let regression: @Sendable (_ new: Response, _ old: Response) -> String?

    public init(
        _ path: String, missing: String? = nil, problem: @escaping @Sendable (Response) -> String? = { _ in nil },
        regression: @escaping @Sendable (Response, Response) -> String? = { _, _ in nil },
        freshness: @escaping @Sendable (Response, Date) -> Freshness
    ) {
        self.path = path
        self.missing = missing
        self.problem = problem
        self.regression = regression
        self.freshness = freshness
    }
}

/// Whether a season's schedule may replace the last good copy of it, one rule for every
/// league: a season (or, where the API splits it, a part of one: ESPN's regular season and
/// postseason) only gains games or moves them (a postponed game stays, marked). An answer for
/// the same season (part) with no games, or missing more of the copy's games than
/// `implausible` allows, is a broken answer, not news; the caller decides what counts as the
/// same season.
public enum ScheduleCheck {
    /// Why `new` (the game ids of the answer) can't replace `old` (the copy's), or nil.
    public static func regression<ID: Hashable>(_ new: Set<ID>, replacing old: Set<ID>) -> String? {
        guard !old.isEmpty else { return nil }
        if new.isEmpty { return "it has no games, where the last good copy has \(old.count)" }
        let gone = old.subtracting(new).count
        return implausible(gone, of: old.count) ? "\(gone) of the last good copy's \(old.count) games are missing from it" : nil
    }

    /// More games changed at once (cancelled, gone) than a league ever changes: more than two,
    /// and more than a fifth.
    public static func implausible(_ count: Int, of total: Int) -> Bool { count > max(2, total / 5) }
}
