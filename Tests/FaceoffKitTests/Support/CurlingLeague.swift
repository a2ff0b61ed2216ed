import FaceoffAPI
import FaceoffBase
import Foundation

@testable import FaceoffKit

/// A league that exists only here: curling's, three teams, ends for periods. What is above
/// the leagues (delivery, templates, MQTT and Home Assistant) knows it from its definition
/// alone, with no line of theirs naming it.
struct CurlingLeague: LeagueDefinition {
    static let league = League(code: "lcl")
    /// Registered once, by the first test that asks.
    static let registered: League = {
        Leagues.register(CurlingLeague())
        return league
    }()

    var league: League { Self.league }
    var sportEmoji: String { "🥌" }
    var startWord: String { "First stone" }
    var icon: String { "mdi:curling" }
    var regulationPeriods: Int { 8 }
    var clockCountsDown: Bool { true }
    var hasManpower: Bool { false }
    var eventKinds: [GameEvent.Kind] { [.gameStart, .periodStart, .periodEnd, .final, .scheduleChange, .score, .leadChange] }
    var service: APIService { .nhl }

    func periodLabel(_ period: Int, type: String?) -> String { period > regulationPeriods ? "Extra end" : "End \(period)" }
    func periodName(_ period: Int, type: String?) -> String? { period > regulationPeriods ? "the extra end" : "end \(period)" }
    func afterPeriod(_ label: String) -> String { "after \(label)" }
    func isGameID(_ id: Int) -> Bool { (1..<1000).contains(id) }
    func gameURL(_ id: Int) -> String { "https://curling.example/games/\(id)" }
    func logo(_ abbrev: String) -> String? { team(abbrev)?.logo }

    var abbreviations: [String] { ["ICE", "ROK", "BRM"] }

    func team(_ abbrev: String) -> LeagueTeam? {
        let teams = [
            LeagueTeam(
                abbrev: "ICE", name: "Lakeshore Icebreakers", shortName: "Icebreakers", primary: RGB(hex: "#1B3A6B"),
                secondary: RGB(hex: "#D9E4F2"), logo: "https://curling.example/logos/ICE.svg"),
            LeagueTeam(abbrev: "ROK", name: "Granite Rocks", shortName: "Rocks"),
            LeagueTeam(abbrev: "BRM", name: "Harbour Brooms", shortName: "Brooms"),
        ]
        return teams.first { $0.abbrev == abbrev.uppercased() }
    }

    func liveGame(_ id: Int, client: APIClient) -> any LiveGame { CurlingGame(gameID: id, client: client) }

    /// The games of the team's schedule still to come or on, within a fortnight.
    func schedule(of team: TeamKey, client: APIClient, at date: Date, time: LocalTime) async throws -> TeamSchedule {
        let fetched = try await client.fetch(.curlingSchedule(team.abbrev), revalidate: true)
        let planned = fetched.value.compactMap { game -> PlannedGame? in
            let start = try? Date(game.start, strategy: .iso8601)
            guard game.state != "final", let start, start > date.addingTimeInterval(-6 * 3600),
                start < date.addingTimeInterval(14 * 86400)
            else { return nil }
            return PlannedGame(id: game.id, start: start, away: game.away, home: game.home, live: game.state == "live", league: league)
        }
        return TeamSchedule(stale: fetched.stale, changes: [], planned: planned)
    }

    /// The team's games for its calendar feed, in the shared words: nothing of curling's
    /// reaches FaceoffCalendar but through these.
    func calendarSeason(of team: TeamKey, request: CalendarRequest, client: APIClient) async throws -> CalendarSeason {
        let schedule = try await client.fetch(.curlingSchedule(team.abbrev)).value
        let entries = schedule.map { CalendarSeason.Entry(id: $0.id, typeCode: 2, away: $0.away, home: $0.home) }
        return CalendarSeason(league: league, entries: entries, season: nil) { index, team in
            let game = schedule[index]
            func side(_ abbrev: String, _ score: Int?) -> GameSummary.Side {
                GameSummary.Side(abbrev: abbrev, name: self.team(abbrev)?.name ?? abbrev, score: score, shots: nil)
            }
            let scored = game.state != "pre"
            let total = game.ends.reduce((away: 0, home: 0)) { ($0.away + $1.away, $0.home + $1.home) }
            let start = try? Date(game.start, strategy: .iso8601)
            let summary = GameSummary(
                id: game.id, type: "regular", start: start,
                status: ["pre": "scheduled", "live": "live", "final": "final"][game.state] ?? "scheduled",
                away: side(game.away, scored ? total.away : nil), home: side(game.home, scored ? total.home : nil),
                venue: "Lakeshore Curling Club", team: team)
            func names(_ abbrev: String) -> CalendarGame.Names {
                CalendarGame.Names(short: self.team(abbrev)?.shortName ?? abbrev, full: self.team(abbrev)?.name ?? abbrev)
            }
            var entry = CalendarGame(
                league: league, summary: summary, start: start, away: names(game.away), home: names(game.home),
                link: gameURL(game.id))
            if game.state == "final" { entry.finalLine = "Final: \(game.away) \(total.away)–\(total.home) \(game.home)" }
            return entry
        }
    }

    /// Not asked for by what the tests run (no fan commands, no MQTT next game).
    func games(of team: TeamKey, client: APIClient, time: LocalTime) async throws -> [GameSummary] { [] }
    func current(of team: TeamKey, client: APIClient, time: LocalTime, now: Date) async throws -> [(GameSummary, SeriesState?)] { [] }
    func cachedCurrent(of team: TeamKey, cache: ResponseCache, base: String, time: LocalTime, now: Date) -> [(GameSummary, SeriesState?)]? {
        nil
    }
}

/// Curling's feed, as the tests' league's API serves it: a game and its ends so far.
struct CurlingFeed: Codable, Sendable {
    struct End: Codable, Sendable {
        var away: Int
        var home: Int
    }

    var id: Int
    var away: String
    var home: String
    /// ISO 8601, UTC.
    var start: String
    /// pre, live or final
    var state: String
    var ends: [End]
}

extension Endpoint where Response == CurlingFeed {
    static func curlingGame(_ id: Int) -> Self { Self("curling/games/\(id)", freshness: { _, _ in .revalidate }) }
}

extension Endpoint where Response == [CurlingFeed] {
    static func curlingSchedule(_ team: String) -> Self { Self("curling/teams/\(team)/schedule", freshness: { _, _ in .seconds(60) }) }
}

/// A curling game for the one game watcher: its feed, polled.
struct CurlingGame: LiveGame {
    typealias Detector = CurlingDetector
    let gameID: Int
    let client: APIClient

    var league: League? { CurlingLeague.league }
    var logName: String { "lcl:\(gameID)" }
    var name: String { "curling game \(gameID)" }
    func poll() async throws -> CurlingSnapshot { CurlingSnapshot(feed: try await client.live(.curlingGame(gameID), what: "the game")) }
}

struct CurlingSnapshot: LiveSnapshot {
    let feed: CurlingFeed

    var isUpcoming: Bool { feed.state == "pre" }
    var isLive: Bool { feed.state == "live" }
    var isFinal: Bool { feed.state == "final" }
    var startTime: Date? { try? Date(feed.start, strategy: .iso8601) }
    var awayAbbrev: String { feed.away }
    var homeAbbrev: String { feed.home }
    var score: GameEvent.Score { score(after: feed.ends.count) }
    var series: SeriesState? { nil }
    var notPlayed: String? { nil }
    var inProgress: Bool { isLive && feed.ends.count > 1 }
    var newestPlaySeconds: Double? { feed.ends.isEmpty ? nil : Double(feed.ends.count * 600) }
    var breakClock: Int? { nil }

    func score(after ends: Int) -> GameEvent.Score {
        GameEvent.Score(away: feed.ends.prefix(ends).map(\.away).reduce(0, +), home: feed.ends.prefix(ends).map(\.home).reduce(0, +))
    }

    func livePoll(_ settings: WatcherSettings, breakClockBefore: Int?) -> Duration { settings.poll }

    func status(at date: Date) -> LiveStatus.Game {
        LiveStatus.Game(
            gameID: feed.id, away: feed.away, home: feed.home, awayScore: score.away, homeScore: score.home,
            periodLabel: feed.ends.isEmpty ? nil : "End \(feed.ends.count)", clock: nil, intermission: false, situation: nil,
            state: isFinal ? "final" : isLive ? "live" : "upcoming", updatedAt: date, league: CurlingLeague.league.rawValue)
    }

    func scoreboardLine(_ board: LiveScoreboard) -> LiveScoreboard.Line {
        LiveScoreboard.Line(
            away: .init(abbrev: feed.away, score: score.away, color: nil), home: .init(abbrev: feed.home, score: score.home, color: nil),
            state: feed.ends.isEmpty ? [] : ["End \(feed.ends.count)"])
    }
}

/// Curling's events from its feed: the first stone, each end's points (`score`), the lead
/// passing from one team to the other (a tie ends none), each end's end, the final.
struct CurlingDetector: LiveDetector {
    var handedOut: Set<String> = []

    mutating func detect(_ snapshot: CurlingSnapshot) -> (events: [GameEvent], skipped: String?) {
        let new = Self.derive(snapshot).filter { !handedOut.contains($0.id) }
        handedOut.formUnion(new.map(\.id))
        return (new, nil)
    }

    mutating func join(_ snapshot: CurlingSnapshot) -> GameEvent {
        handedOut.formUnion(Self.derive(snapshot).map(\.id))
        return Self.event(.gameJoined, key: nil, snapshot, period: snapshot.feed.ends.count, score: snapshot.score)
    }

    mutating func caughtUp(_ snapshot: CurlingSnapshot, missed: [GameEvent]) -> GameEvent {
        handedOut.formUnion(missed.map(\.id))
        var event = Self.event(.gameJoined, key: "caught-up-\(snapshot.feed.ends.count)", snapshot, score: snapshot.score)
        event.details["caught_up"] = "true"
        return event
    }

    static func derive(_ snapshot: CurlingSnapshot) -> [GameEvent] {
        guard !snapshot.isUpcoming else { return [] }
        let feed = snapshot.feed
        var events = [event(.gameStart, key: nil, snapshot, score: .init(away: 0, home: 0))]
        var leader: String?
        for (index, end) in feed.ends.enumerated() {
            let number = index + 1
            let score = snapshot.score(after: number)
            for (team, points) in [(feed.away, end.away), (feed.home, end.home)] where points > 0 {
                var basket = event(.score, key: "end\(number)-\(team)", snapshot, team: team, period: number, score: score)
                basket.details["points"] = String(points)
                events.append(basket)
            }
            let ahead = score.away > score.home ? feed.away : score.home > score.away ? feed.home : nil
            if let ahead, ahead != leader {
                if leader != nil {
                    events.append(event(.leadChange, key: "end\(number)", snapshot, team: ahead, period: number, score: score))
                }
                leader = ahead
            }
            events.append(event(.periodEnd, key: String(number), snapshot, period: number, score: score))
        }
        if snapshot.isFinal {
            var final = event(.final, key: nil, snapshot, period: feed.ends.count, score: snapshot.score)
            final.details["ended_in"] = "REG"
            final.details["winner"] = snapshot.score.away > snapshot.score.home ? feed.away : feed.home
            events.append(final)
        }
        return events
    }

    static func gameSeconds(_ event: GameEvent) -> Double? { event.period.map { Double($0 * 600) } }

    static func event(
        _ kind: GameEvent.Kind, key: String?, _ snapshot: CurlingSnapshot, team: String? = nil, period: Int? = nil,
        score: GameEvent.Score
    ) -> GameEvent {
        var event = GameEvent(
            kind: kind, key: key, gameId: snapshot.feed.id, away: snapshot.feed.away, home: snapshot.feed.home, team: team,
            period: period, score: score)
        event.league = CurlingLeague.league
        return event
    }
}
