import FaceoffAPI
import FaceoffESPN
import FaceoffHTTP
import FaceoffNHL
import FaceoffStore
import Foundation
import Testing

@testable import FaceoffCalendar
@testable import FaceoffKit

/// The Lakers' 2026 postseason feed from ESPN's recorded schedule: finals with scores (one in
/// overtime), games to come, and three "if necessary" games with no time yet.
@Suite(.timeLimit(.minutes(1))) struct NBACalendarTests {
    static let lakers = NBATeams.team(abbreviation: "LAL")!

    /// The Lakers' season from schedules in hand, as the NBA's definition reads them.
    static func lakers(_ parts: ESPNTeamSchedule...) -> [(team: String, season: CalendarSeason)] {
        [("nba:LAL", CalendarSeason(nba: parts))]
    }

    func service(_ store: Store?, scores: Bool = true, now: Date = Date()) throws -> CalendarService {
        var options = CalendarSettings()
        options.scores = scores
        options.reminders = [.seconds(1800)]
        let client = APIClient(service: .nhl, base: "file:///nonexistent/", http: CurlHTTPClient(clock: TestClock()), cache: nil)
        return CalendarService(
            clients: [client], state: store.map { CalendarState(store: $0) }, templates: try TemplateSet(overrides: nil), options: options,
            now: { now })
    }

    @Test(ESPNRecordings.needed) func aTeamsFeedHasItsPlayoffRoundsFinalsAndUntimedGames() async throws {
        let schedule = try ESPNRecordings.decode(ESPNTeamSchedule.self, ESPNRecordings.lakersPostseason)
        let feed = try await service(nil).build(.team("nba:LAL"), seasons: Self.lakers(schedule))
        #expect(feed.name == "nba-LAL")
        #expect(feed.title == "Los Angeles Lakers 2025-26")
        #expect(feed.events.count == 13)
        #expect(feed.events.allSatisfy { $0.uid.hasPrefix("nba-game-") && $0.uid.hasSuffix("@faceoff") })
        let overtime = try #require(feed.events.first { $0.uid == "nba-game-401869400@faceoff" })
        #expect(overtime.summary == "West 1st Round · Game 3 · Lakers 112–108 Rockets (OT) · W")
        #expect(overtime.description.contains("Final/OT: LAL 112–108 HOU"))
        let untimed = feed.events.filter { $0.allDay == true }
        #expect(untimed.map(\.uid) == (401_871_330...401_871_332).map { "nba-game-\($0)@faceoff" })
        let game5 = try #require(untimed.first)
        #expect(game5.summary == "TBD: West Semifinals · Game 5 · Lakers @ Thunder (if necessary)")
        #expect(game5.status == .tentative && game5.reminders.isEmpty)
        #expect(game5.start == (try Date("2026-05-13T00:00:00Z", strategy: .iso8601)))
        #expect(game5.end.timeIntervalSince(game5.start) == 86400)
        let text = try CalendarBuilder.serialize(feed)
        #expect(text.contains("DTSTART;VALUE=DATE:20260513\r\n"))
        #expect(text.contains("DTEND;VALUE=DATE:20260514\r\n"))
    }

    /// A feed of NBA and NHL teams is of the season the NHL's answer says, whichever team
    /// the feed lists first (ESPN's answer here says a later year).
    @Test(ESPNRecordings.needed) func aFeedOfBothLeaguesIsOfTheNHLsSeason() async throws {
        var schedule = try ESPNRecordings.decode(ESPNTeamSchedule.self, ESPNRecordings.lakersPostseason)
        schedule.season?.year = 2030
        let hockey = try JSONDecoder().decode(
            ClubSchedule.self, from: Data(contentsOf: TestPaths.mirror.appendingPathComponent("club-schedule-season/TOR/now")))
        let both = Self.lakers(schedule) + [("TOR", CalendarSeason(nhl: hockey, request: CalendarRequest(season: "current", scores: true)))]
        let feed = try await service(nil).build(.favourites(["nba:LAL", "TOR"]), seasons: both)
        #expect(feed.title == "Faceoff favourites 2025-26")
    }

    @Test(ESPNRecordings.needed) func spoilerFreeItHasNoScores() async throws {
        let schedule = try ESPNRecordings.decode(ESPNTeamSchedule.self, ESPNRecordings.lakersPostseason)
        let feed = try await service(nil, scores: false).build(
            .team("nba:LAL"), seasons: Self.lakers(schedule))
        let overtime = try #require(feed.events.first { $0.uid == "nba-game-401869400@faceoff" })
        #expect(overtime.summary == "West 1st Round · Game 3 · Lakers @ Rockets")
        #expect(!feed.events.contains { $0.summary.contains("–") || $0.description.contains("Final") })
    }

    /// A game that gets its time leaves the all-day slot for its hour, with a SEQUENCE one
    /// higher, so calendar apps take the change.
    @Test(ESPNRecordings.needed) func aTimeGivenMovesTheGameAndRaisesItsSequence() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: directory.appendingPathComponent("f.sqlite").path)
        let service = try service(store)
        var schedule = try ESPNRecordings.decode(ESPNTeamSchedule.self, ESPNRecordings.lakersPostseason)
        let before = try await service.build(.team("nba:LAL"), seasons: Self.lakers(schedule))
        let index = try #require(schedule.events?.firstIndex { $0.id == "401871330" })
        schedule.events?[index].timeValid = true
        schedule.events?[index].competitions?[0].timeValid = true
        schedule.events?[index].date = "2026-05-14T01:30Z"
        let after = try await service.build(.team("nba:LAL"), seasons: Self.lakers(schedule))
        let old = try #require(before.events.first { $0.uid == "nba-game-401871330@faceoff" })
        let new = try #require(after.events.first { $0.uid == "nba-game-401871330@faceoff" })
        #expect(old.allDay == true && new.allDay == nil)
        #expect(new.sequence == old.sequence + 1)
        #expect(new.start == (try Date("2026-05-14T01:30:00Z", strategy: .iso8601)))
        #expect(new.summary == "West Semifinals · Game 5 · Lakers @ Thunder (if necessary)")
        // Nothing else moved.
        let others = { (feed: CalendarFeed) in feed.events.filter { $0.uid != new.uid }.map(\.sequence) }
        #expect(others(after) == others(before))
    }

    /// `run` writes its feeds right after its schedule refresh, which asks for ESPN's plain
    /// schedule: the season parts the feed is made of are asked again too (a conditional
    /// GET), so a game the refresh saw moved is moved in the feed, not left at its old time
    /// by a cached part still fresh.
    @Test(ESPNRecordings.needed) func runsFeedShowsAMoveItsRefreshAnnounced() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("espn/apis/site/v2/sports/basketball/nba/teams/13")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let recording = try String(
            contentsOf: ESPNRecordings.directory.appendingPathComponent(ESPNRecordings.lakersPostseason), encoding: .utf8)
        func serve(_ text: String) throws {
            for part in [2, 3] {
                try text.write(to: folder.appendingPathComponent("schedule?seasontype=\(part)"), atomically: true, encoding: .utf8)
            }
        }
        try serve(recording)
        let store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
        let now = try Date("2026-05-05T12:00:00Z", strategy: .iso8601)
        let espn = APIClient(
            service: .espn, base: "file://\(directory.path)/espn/", http: CurlHTTPClient(clock: TestClock()),
            cache: ResponseCache(store: store), now: { now })
        var options = CalendarSettings()
        options.reminders = []
        let nhl = APIClient(service: .nhl, base: "file:///nonexistent/", http: CurlHTTPClient(clock: TestClock()), cache: nil)
        let plain = CalendarService(
            clients: [nhl, espn], state: nil, templates: try TemplateSet(overrides: nil), options: options, now: { now })
        var run = plain
        run.revalidateSeasonParts = true
        func start(_ service: CalendarService) async throws -> Date? {
            try await service.feed(.team("nba:LAL")).feed.events.first { $0.uid == "nba-game-401871326@faceoff" }?.start
        }
        let before = try await start(plain)
        #expect(before == (try Date("2026-05-06T00:30:00Z", strategy: .iso8601)))
        // Moved two hours later.
        try serve(recording.replacingOccurrences(of: "\"2026-05-06T00:30Z\"", with: "\"2026-05-06T02:30Z\""))
        #expect(try await start(plain) == before, "a fresh cached part stands for a plain feed")
        await run.refreshSeasons(of: [.team("nba:LAL")])
        #expect(try await start(run) == (try Date("2026-05-06T02:30:00Z", strategy: .iso8601)))
    }

    /// `run` publishes a team's feed and the favourites together: each season part of the
    /// team is asked for once in a publish, not once per feed that holds the team.
    @Test(ESPNRecordings.needed) func aPublishAsksForEachSeasonPartOnce() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = try Array(Data(contentsOf: ESPNRecordings.directory.appendingPathComponent(ESPNRecordings.lakersPostseason)))
        let server = try LoopbackHTTPServer { _ in .response(status: 200, headers: [("ETag", "\"v1\"")], body: recording) }
        defer { server.stop() }
        let store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
        let now = try Date("2026-05-05T12:00:00Z", strategy: .iso8601)
        let espn = APIClient(
            service: .espn, base: server.baseURL + "/", http: CurlHTTPClient(clock: TestClock()), cache: ResponseCache(store: store),
            now: { now })
        var options = CalendarSettings()
        options.reminders = []
        let nhl = APIClient(service: .nhl, base: "file:///nonexistent/", http: CurlHTTPClient(clock: TestClock()), cache: nil)
        var service = CalendarService(
            clients: [nhl, espn], state: nil, templates: try TemplateSet(overrides: nil), options: options, now: { now })
        service.revalidateSeasonParts = true
        let publisher = CalendarPublisher(service: service, directory: directory.path, allowEmpty: false)
        for round in 1...2 {
            let reports = await publisher.publish([.team("nba:LAL"), .favourites(["nba:LAL"])])
            #expect(reports.allSatisfy { $0.error == nil && $0.events == 13 }, "\(reports)")
            let asked = Dictionary(grouping: server.requests.map(\.path), by: { $0 }).mapValues(\.count)
            #expect(asked.count == 2 && asked.values.allSatisfy { $0 == round }, "\(asked)")
        }
    }

    /// A series over early: ESPN drops the games it no longer needs. Those were only ever
    /// possible, so their going is no sign of a broken answer: they stay, cancelled.
    @Test(ESPNRecordings.needed) func gamesNoLongerNeededGoAsCancelled() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: directory.appendingPathComponent("f.sqlite").path)
        // The day after game 4: games 5 to 7 are still to come, if needed.
        let service = try service(store, now: try Date("2026-05-12T12:00:00Z", strategy: .iso8601))
        var schedule = try ESPNRecordings.decode(ESPNTeamSchedule.self, ESPNRecordings.lakersPostseason)
        _ = try await service.build(.team("nba:LAL"), seasons: Self.lakers(schedule))
        let unneeded: Set<String> = ["401871330", "401871331", "401871332"]
        schedule.events?.removeAll { unneeded.contains($0.id ?? "") }
        let after = try await service.build(.team("nba:LAL"), seasons: Self.lakers(schedule))
        let gone = after.events.filter { unneeded.contains($0.uid.dropFirst(9).prefix(9).description) }
        #expect(gone.count == 3)
        #expect(gone.allSatisfy { $0.status == .cancelled && $0.summary.hasPrefix("CANCELLED: ") && $0.sequence == 1 })
        // Games to come (not "if necessary") going at once is still a broken answer, refused.
        let fresh = try Store(path: directory.appendingPathComponent("g.sqlite").path)
        let beforePlayoffs = CalendarService(
            clients: [APIClient(service: .nhl, base: "file:///nonexistent/", http: CurlHTTPClient(clock: TestClock()), cache: nil)],
            state: CalendarState(store: fresh), templates: try TemplateSet(overrides: nil), options: CalendarSettings(),
            now: { Date(timeIntervalSince1970: 1_776_000_000) })  // 2026-04-12
        let whole = try ESPNRecordings.decode(ESPNTeamSchedule.self, ESPNRecordings.lakersPostseason)
        _ = try await beforePlayoffs.build(.team("nba:LAL"), seasons: Self.lakers(whole))
        var broken = whole
        broken.events = Array((whole.events ?? []).prefix(2))
        await #expect(throws: CalendarError.self) {
            _ = try await beforePlayoffs.build(.team("nba:LAL"), seasons: Self.lakers(broken))
        }
    }

    @Test func theNBAsFeedsAreNamedApartFromTheNHLs() {
        let plan = FeedPlan(teams: ["BOS", "nba:BOS"])
        #expect(plan.written.map(\.name) == ["BOS", "nba-BOS", "favourites"])
    }
}

/// `run`'s schedule changes for a followed NBA team, from ESPN's team schedule.
@Suite(.timeLimit(.minutes(5))) struct NBAScheduleChangeTests {
    @Test(ESPNRecordings.needed) func aGameGivenItsTimeOrMovedIsNews() throws {
        let before = try ESPNRecordings.decode(ESPNTeamSchedule.self, ESPNRecordings.lakersPostseason)
        var after = before
        let events = try #require(after.events)
        for (index, event) in events.enumerated() {
            if event.id == "401871330" {  // game 5 gets its time
                after.events?[index].timeValid = true
                after.events?[index].competitions?[0].timeValid = true
                after.events?[index].date = "2026-05-14T01:30Z"
            }
            if event.id == "401871327" { after.events?[index].date = "2026-05-08T02:00Z" }  // game 2 half an hour later
        }
        func games(_ schedule: ESPNTeamSchedule) -> [ScheduleChanges.Game] {
            (schedule.events ?? []).compactMap { ScheduleChanges.Game(nba: $0, season: 20263) }
        }
        let now = try Date("2026-05-05T12:00:00Z", strategy: .iso8601)
        let changes = ScheduleChanges.events(
            team: "nba:LAL", before: games(before), after: games(after), now: now,
            time: LocalTime(timeZone: TimeZone(identifier: "America/New_York")!))
        #expect(changes.map { $0.details["change"] } == ["moved", "time set"])
        #expect(changes.map(\.gameId) == [401_871_327, 401_871_330])
        #expect(changes.allSatisfy { $0.league == .nba && $0.team == "LAL" && $0.kind == .scheduleChange })
        #expect(changes[1].details["to"] == "Wed May 13 21:30", "\(changes[1].details)")
        // The same answer again is no news; another part of the season is not compared.
        #expect(
            ScheduleChanges.events(team: "nba:LAL", before: games(after), after: games(after), now: now, time: LocalTime(timeZone: .gmt))
                .isEmpty)
        // A game with no time yet is on its day, Eastern, wherever the fan is.
        let withoutGame7 = games(before).filter { $0.id != 401_871_332 }
        let added = ScheduleChanges.events(
            team: "nba:LAL", before: withoutGame7, after: games(before), now: now,
            time: LocalTime(timeZone: TimeZone(identifier: "America/Los_Angeles")!))
        #expect(added.map { $0.details["to"] } == ["Mon May 18, time TBD"])
        let playoffs = (after.events ?? []).compactMap { ScheduleChanges.Game(nba: $0, season: 20263) }
        let regular = (before.events ?? []).compactMap { ScheduleChanges.Game(nba: $0, season: 20262) }.filter { $0.id == 401_869_190 }
        #expect(
            ScheduleChanges.events(team: "nba:LAL", before: regular, after: playoffs, now: now, time: LocalTime(timeZone: .gmt)).isEmpty)
    }
}
