import Foundation

/// A league's API as `replay --serve` answers it: finished games served as if they were being
/// played now, in the shape the league's API gives them. The server (FaceoffServer's
/// `ReplayServer`) routes each request to the API whose `prefix` it is under; what the
/// answers hold is the league's.
public protocol ReplayAPI: Sendable {
    /// Where its answers are under the server's root: `v1` for the NHL's, ESPN's league path.
    var prefix: [String] { get }
    /// The base to give Faceoff for this API (`--api-base`, `--espn-base`), from the server's
    /// root URL (`http://127.0.0.1:8080/`).
    func base(root: String) -> String
    /// The answer to `path` (below `prefix`) with `query`, as the games stand at `date`: its
    /// JSON and a name for the log; nil for a path it has no answer to.
    func answer(_ path: [String], query: [String: String], at date: Date) -> (body: Data, name: String)?
}

/// A replay's time, one for every league's: its games start together `startDelay` after
/// launch, and their game and break clocks run `speed` times faster than real time, with
/// `intermission` game seconds between periods.
public struct ReplayClock: Sendable {
    /// When the games' first plays happen.
    public let start: Date
    public let speed: Double
    /// Game seconds between periods.
    public let intermission: Int

    public init(speed: Double, startDelay: TimeInterval, intermission: Int, launched: Date) {
        self.speed = max(speed, 0.01)
        start = launched.addingTimeInterval(startDelay)
        self.intermission = intermission
    }

    /// Replay seconds (game time and breaks) gone at `date`; negative before the start.
    public func elapsed(at date: Date) -> Double { date.timeIntervalSince(start) * speed }

    /// The replay second at which a play `gameSeconds` into the game, in `period`, happens.
    public func moment(gameSeconds: Double, period: Int) -> Double { gameSeconds + Double((period - 1) * intermission) }
}

extension ReplayAPI {
    /// An object as JSON, keys sorted.
    static func json(_ object: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
