import FaceoffNHL
import Foundation

/// Finished NHL games as if they were being played now, as the NHL API would give them:
/// under `/v1/`, the play-by-play (and landing) of each game, `score/now`, `schedule/now`,
/// and the club schedules of the teams involved. Each game starts `startDelay` after launch
/// and its game and intermission clocks run `speed` times faster than real time. Tests,
/// benchmarks and curious users point `--api-base` at `replay --serve`.
public struct NHLReplayAPI: ReplayAPI {
    public static let intermission = 1080

    let games: [ReplayFeed]
    let clock: ReplayClock

    /// - Parameter now: the time it is launched at (the wall clock, unless a test drives it).
    public init(
        games: [PlayByPlay], speed: Double, startDelay: TimeInterval = 5, intermission: Int = NHLReplayAPI.intermission,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.games = games.map(ReplayFeed.init)
        clock = ReplayClock(speed: speed, startDelay: startDelay, intermission: intermission, launched: now())
    }

    /// When a game's first play happens in the replay (all games start together).
    public var start: Date { clock.start }

    /// Seconds of game-plus-intermission time at which each play happens.
    func timeline(_ replay: ReplayFeed) -> [Double] {
        replay.plays.indices.map { index in
            clock.moment(gameSeconds: Double(replay.gameSeconds(index)), period: replay.plays[index].periodDescriptor?.number ?? 1)
        }
    }

    /// When the feed of game `game` first shows its first `count` plays (benchmarks measure
    /// alert latency from here).
    public func visibleAt(game: Int, plays count: Int) -> Date {
        let times = timeline(games[game])
        guard count > 1 else { return start }
        return start.addingTimeInterval(times[min(count, times.count) - 1] / clock.speed)
    }

    /// The feed of `replay` as it stands at `date`.
    public func feed(_ replay: ReplayFeed, at date: Date) -> PlayByPlay {
        let elapsed = clock.elapsed(at: date)
        let times = timeline(replay)
        var copy: PlayByPlay
        if elapsed < 0 {
            copy = replay.prefix(0)
            copy.gameState = elapsed > -30 * clock.speed ? .pre : .fut
        } else {
            let count = times.filter { $0 <= elapsed }.count
            copy = replay.prefix(max(1, count))
            if count < replay.count, copy.clock?.inIntermission == true, let end = times.prefix(count).last {
                // Real seconds left, so a watcher sleeping through it wakes in time.
                let left = max(0, Int((Double(clock.intermission) - (elapsed - end)) / clock.speed))
                copy.clock = GameClock(
                    timeRemaining: String(format: "%02d:%02d", left / 60, left % 60), secondsRemaining: left, running: false,
                    inIntermission: true)
            }
        }
        copy.startTimeUTC = start.formatted(.iso8601)
        return copy
    }

    func scheduleGame(_ replay: ReplayFeed, at date: Date) -> [String: Any] {
        let feed = feed(replay, at: date)
        func team(_ team: GameTeam?) -> [String: Any] {
            var object: [String: Any] = ["abbrev": team?.abbrev ?? "", "id": team?.id ?? 0]
            if let name = team?.commonName?.value { object["commonName"] = ["default": name] }
            if let place = team?.placeName?.value { object["placeName"] = ["default": place] }
            if feed.gameState?.isUpcoming == false {
                object["score"] = team?.score ?? 0
                object["sog"] = team?.sog ?? 0
            }
            return object
        }
        var game: [String: Any] = [
            "id": feed.id ?? 0, "season": feed.season ?? 20252026, "gameType": feed.gameType?.rawValue ?? 2,
            "gameDate": String(feed.startTimeUTC?.prefix(10) ?? ""), "startTimeUTC": feed.startTimeUTC ?? "",
            "gameState": feed.gameState?.rawValue ?? "FUT", "gameScheduleState": "OK",
            "venue": ["default": feed.venue?.value ?? ""], "awayTeam": team(feed.awayTeam), "homeTeam": team(feed.homeTeam),
        ]
        if let period = feed.periodDescriptor {
            game["periodDescriptor"] = ["number": period.number ?? 1, "periodType": period.periodType?.rawValue ?? "REG"]
        }
        if let outcome = feed.gameOutcome?.lastPeriodType { game["gameOutcome"] = ["lastPeriodType": outcome.rawValue] }
        return game
    }

    public var prefix: [String] { ["v1"] }
    public func base(root: String) -> String { root + "v1/" }

    /// The API's paths under /v1/ that a watcher asks for.
    public func answer(_ path: [String], query: [String: String], at date: Date) -> (body: Data, name: String)? {
        let today = String(start.formatted(.iso8601).prefix(10))
        switch path.first {
        case "gamecenter" where path.count == 3:
            guard let id = Int(path[1]), let replay = games.first(where: { $0.feed.id == id }),
                ["play-by-play", "landing"].contains(path[2])
            else { return nil }
            return ((try? JSONEncoder().encode(feed(replay, at: date))) ?? Data("{}".utf8), "gamecenter/\(id)")
        case "score" where path.count == 2:
            return (Self.json(["currentDate": today, "games": games.map { scheduleGame($0, at: date) }]), "score")
        case "schedule" where path.count == 2:
            return (Self.json(["gameWeek": [["date": today, "games": games.map { scheduleGame($0, at: date) }]]]), "schedule")
        case "club-schedule-season" where path.count == 3:
            let team = path[1].uppercased()
            // A team with no game here has an empty schedule, as the NHL's would be.
            let mine = games.filter { $0.feed.awayTeam?.abbrev == team || $0.feed.homeTeam?.abbrev == team }
            let object: [String: Any] = [
                "currentSeason": mine.first?.feed.season ?? games.first?.feed.season ?? 20252026,
                "games": mine.map { scheduleGame($0, at: date) },
            ]
            return (Self.json(object), "club-schedule-season/\(team)")
        default:
            return nil
        }
    }
}
