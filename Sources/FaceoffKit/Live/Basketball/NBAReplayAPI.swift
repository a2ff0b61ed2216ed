import FaceoffAPI
import FaceoffESPN
import Foundation

/// Finished NBA games (ESPN summaries) as if they were being played now, as ESPN's site API
/// would give them: each game's `summary?event=ID` with the plays so far, and the schedule of
/// each team in them. Each game starts `startDelay` after launch; game time runs `speed`
/// times faster than real time, with `intermission` game seconds between quarters. What
/// `replay --serve` answers for NBA games, for trying a setup and for tests.
public struct NBAReplayAPI: ReplayAPI {
    public static let intermission = 120

    /// The recordings as they came (ESPN's whole answers), and what Faceoff reads of them.
    let games: [(raw: Data, summary: ESPNSummary)]
    let clock: ReplayClock

    /// - Parameter now: the time it is launched at (the wall clock, unless a test drives it).
    public init(
        summaries: [Data], speed: Double, startDelay: TimeInterval = 5, intermission: Int = NBAReplayAPI.intermission,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        games = try summaries.map { ($0, try APIText.decode(ESPNSummary.self, from: Array($0))) }
        clock = ReplayClock(speed: speed, startDelay: startDelay, intermission: intermission, launched: now())
    }

    public var start: Date { clock.start }

    /// Game-plus-break seconds at which each play happens.
    func timeline(_ summary: ESPNSummary) -> [Double] {
        NBASnapshot(summary).plays.map { clock.moment(gameSeconds: $0.gameSeconds, period: $0.period) }
    }

    /// The game's summary as it stands at `date`, in ESPN's own shape.
    func summary(_ game: (raw: Data, summary: ESPNSummary), at date: Date) -> [String: Any] {
        guard var root = try? JSONSerialization.jsonObject(with: game.raw) as? [String: Any] else { return [:] }
        let elapsed = clock.elapsed(at: date)
        let plays = root["plays"] as? [[String: Any]] ?? []
        let count = elapsed < 0 ? 0 : max(1, timeline(game.summary).filter { $0 <= elapsed }.count)
        var header = root["header"] as? [String: Any] ?? [:]
        var competitions = header["competitions"] as? [[String: Any]] ?? [[:]]
        var competition = competitions.first ?? [:]
        competition["date"] = ESPNReplayDate.text(start)
        if count < plays.count {
            let shown = Array(plays.prefix(count))
            root["plays"] = shown
            let last = shown.last
            let period = (last?["period"] as? [String: Any])?["number"] as? Int ?? 1
            let name: String
            if shown.isEmpty {
                name = "STATUS_SCHEDULED"
            } else if (last?["type"] as? [String: Any])?["text"] as? String == "End Period" {
                name = period == 2 ? "STATUS_HALFTIME" : "STATUS_END_PERIOD"
            } else {
                name = "STATUS_IN_PROGRESS"
            }
            competition["status"] =
                [
                    "type": ["name": name, "state": shown.isEmpty ? "pre" : "in", "completed": false],
                    "period": shown.isEmpty ? 0 : period,
                    "displayClock": (last?["clock"] as? [String: Any])?["displayValue"] as? String ?? "12:00",
                ] as [String: Any]
            let away = last?["awayScore"] as? Int ?? 0
            let home = last?["homeScore"] as? Int ?? 0
            competition["competitors"] = (competition["competitors"] as? [[String: Any]] ?? []).map { competitor in
                var competitor = competitor
                competitor["winner"] = nil
                competitor["score"] = shown.isEmpty ? nil : String(competitor["homeAway"] as? String == "home" ? home : away)
                return competitor
            }
        }
        competitions[0] = competition
        header["competitions"] = competitions
        root["header"] = header
        return root
    }

    /// A team's schedule: its games here, as they stand.
    func schedule(team id: String, at date: Date) -> [String: Any] {
        let mine = games.filter { game in
            (game.summary.header?.competitions?.first?.competitors ?? []).contains { $0.team?.id == id }
        }
        let events: [[String: Any]] = mine.compactMap { game in
            let now = summary(game, at: date)
            guard let header = now["header"] as? [String: Any],
                let competition = (header["competitions"] as? [[String: Any]])?.first
            else { return nil }
            return [
                "id": header["id"] ?? "", "date": ESPNReplayDate.text(start), "seasonType": ["type": 2],
                "competitions": [
                    [
                        "date": ESPNReplayDate.text(start), "competitors": competition["competitors"] ?? [],
                        "status": competition["status"] ?? [:], "venue": ["fullName": "Replay Arena"],
                    ] as [String: Any]
                ],
            ]
        }
        let team = NBATeams.team(id: id)
        return [
            "team": ["id": id, "abbreviation": team?.abbrev ?? "", "displayName": team?.name ?? ""],
            "season": ["year": 2026, "type": 2, "displayName": "2025-26"], "events": events,
        ]
    }

    public var prefix: [String] { ["apis", "site", "v2", "sports"] + ESPNLeague.nba.path.split(separator: "/").map(String.init) }
    public func base(root: String) -> String { root }

    public func answer(_ path: [String], query: [String: String], at date: Date) -> (body: Data, name: String)? {
        switch path.first {
        case "summary" where path.count == 1:
            guard let id = query["event"], let game = games.first(where: { $0.summary.header?.id == id }) else { return nil }
            return (Self.json(summary(game, at: date)), "summary/\(id)")
        case "teams" where path.count == 3 && path[2] == "schedule":
            guard NBATeams.team(id: path[1]) != nil else { return nil }
            return (Self.json(schedule(team: path[1], at: date)), "teams/\(path[1])/schedule")
        default:
            return nil
        }
    }
}

/// ESPN's dates: UTC to the minute, "2026-04-25T00:00Z".
enum ESPNReplayDate {
    static func text(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02dZ", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0)
    }
}
