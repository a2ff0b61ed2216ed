import FaceoffAPI
import Foundation

/// A league's live game, as the one game watcher (`GameWatcher`) needs it: how to ask for its
/// feed, what a snapshot of the feed says, and the league's event detector. The rest (the
/// poll loop, reminders, a join in progress, a catch-up after a gap, sightings, the delay,
/// the ledger) is the watcher's, the same for every league.
public protocol LiveGame: Sendable {
    associatedtype Snapshot: LiveSnapshot
    associatedtype Detector: LiveDetector where Detector.Snapshot == Snapshot

    var gameID: Int { get }
    /// The league of the events made outside the detector (the pregame reminder); nil: the NHL.
    var league: League? { get }
    /// The game in the log's metadata: `2025020100`, `nba:401585607`.
    var logName: String { get }
    /// The game in an error's words: `game 2025020100`, `NBA game 401585607`.
    var name: String { get }
    /// The feed as it is now (asked again, never a fresh cached copy); a stale copy, one
    /// that could not be fetched, is an error.
    func poll() async throws -> Snapshot
}

extension APIClient {
    /// A live feed as it is now, for a `LiveGame`'s poll: asked again (never a fresh cached
    /// copy), and an old copy standing in for it is an error (`what` could not be fetched).
    func live<Response>(_ endpoint: Endpoint<Response>, what: String) async throws -> Response {
        let fetched = try await fetch(endpoint, revalidate: true)
        if let (_, reason) = fetched.stale { throw WatchError("\(what) could not be fetched (\(reason))") }
        return fetched.value
    }
}

/// One poll's look at a live game, in the words the watcher needs.
public protocol LiveSnapshot: Sendable {
    var isUpcoming: Bool { get }
    var isLive: Bool { get }
    var isFinal: Bool { get }
    var startTime: Date? { get }
    var awayAbbrev: String { get }
    var homeAbbrev: String { get }
    var score: GameEvent.Score { get }
    /// A playoff game's series as the feed gives it, if it does (ESPN's summaries do; the
    /// NHL's comes from its schedule).
    var series: SeriesState? { get }
    /// Why the game won't be played (`postponed`, `cancelled`); nil when it will.
    var notPlayed: String? { get }
    /// Live and under way long enough that its plays so far are old news.
    var inProgress: Bool { get }
    /// Game seconds at the newest play (for a catch-up after a gap); nil with no plays.
    var newestPlaySeconds: Double? { get }
    /// The seconds left in a break whose clock counts down (an NHL intermission); nil
    /// otherwise.
    var breakClock: Int? { get }
    /// How long until the next poll of a game under way (its breaks are the league's).
    /// - Parameter breakClockBefore: `breakClock` at the poll before.
    func livePoll(_ settings: WatcherSettings, breakClockBefore: Int?) -> Duration
    /// The game as `faceoff status` shows it, from the store.
    func status(at date: Date) -> LiveStatus.Game
    /// The game as `watch`'s scoreboard draws it.
    func scoreboardLine(_ board: LiveScoreboard) -> LiveScoreboard.Line
}

/// A league's events from its snapshots: each once, in the order they happened.
public protocol LiveDetector: Sendable {
    associatedtype Snapshot

    init()
    /// The ids of the events handed out so far.
    var handedOut: Set<String> { get }
    /// The events of this poll not handed out before; `skipped` says why a poll was ignored
    /// (the feed glitching), if it was.
    mutating func detect(_ snapshot: Snapshot) -> (events: [GameEvent], skipped: String?)
    /// A game first seen in progress or over: one `game_joined` summary; what came before
    /// counts as handed out.
    mutating func join(_ snapshot: Snapshot) -> GameEvent
    /// After a gap in watching: one `game_joined` with `caught_up`, summing up `missed`.
    mutating func caughtUp(_ snapshot: Snapshot, missed: [GameEvent]) -> GameEvent
    /// Every event the snapshot holds, handed out or not.
    static func derive(_ snapshot: Snapshot) -> [GameEvent]
    /// When in the game an event happened, in game seconds (nil for one with no clock).
    static func gameSeconds(_ event: GameEvent) -> Double?
}

/// A finished game's recording, as the polls of a live game would have seen it, one play more
/// at each step: `replay`, `demo` and the tests play any league's through it.
public protocol RecordedGame: Sendable {
    associatedtype Snapshot: LiveSnapshot
    associatedtype Detector: LiveDetector where Detector.Snapshot == Snapshot

    /// How many plays it has.
    var playCount: Int { get }
    /// The game after its first `plays` plays: live until the last one, then as recorded.
    func snapshot(plays: Int) -> Snapshot
    /// Game seconds at play `index` (from 0), for pacing a replay like the real thing.
    func secondsAt(_ index: Int) -> Double
    /// The index of the first play of `period` or later; nil when there is none.
    func start(ofPeriod period: Int) -> Int?
}
