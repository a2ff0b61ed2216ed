import Foundation
import Logging
import Synchronization
import Testing

@testable import FaceoffAPI
@testable import FaceoffCalendar
@testable import FaceoffDaemon
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL
@testable import FaceoffStore

/// The daemon on a test clock against a loopback API: what it asks for, and when.
@Suite(.timeLimit(.minutes(5))) struct DaemonTests {
    static let launch = Date(timeIntervalSince1970: 1_764_000_000)  // 2025-11-24T16:00:00Z

    static func schedule(gameAt start: Date) -> String {
        let iso = start.formatted(.iso8601)
        return """
            {"currentSeason": 20252026, "games": [
              {"id": 2025020500, "season": 20252026, "gameType": 2, "gameDate": "2025-11-20", "startTimeUTC": "2025-11-20T00:00:00Z",
               "gameState": "OFF", "awayTeam": {"abbrev": "BOS", "score": 1}, "homeTeam": {"abbrev": "TOR", "score": 2}},
              {"id": 2025020600, "season": 20252026, "gameType": 2, "gameDate": "\(iso.prefix(10))", "startTimeUTC": "\(iso)",
               "gameState": "FUT", "gameScheduleState": "OK", "awayTeam": {"abbrev": "TOR"}, "homeTeam": {"abbrev": "MTL"}}
            ]}
            """
    }

    /// A daemon on a test clock against a loopback API that serves TOR's schedule (one game
    /// at `gameStart`), empty standings and a player's landing; anything else is a 404.
    final class Setup: Sendable {
        let server: LoopbackHTTPServer
        let directory: URL
        let clock: TestClock
        let daemon: Daemon<TestClock>
        /// How far the wall clock has been set away from the test clock (a suspend the clock
        /// did not count, an NTP step).
        let wallJump = WallJump()

        final class WallJump: Sendable {
            let seconds = Mutex<TimeInterval>(0)
            func set(once value: TimeInterval) { seconds.withLock { if $0 == 0 { $0 = value } } }
        }

        init(
            gameAt gameStart: Date, config text: String, clock: TestClock = TestClock(), logger: Logger = Logger(label: "test"),
            onRequest: @escaping @Sendable (String) -> Void = { _ in }, schedule: (@Sendable (Int) -> String?)? = nil,
            feed: (game: Int, body: [UInt8])? = nil
        ) throws {
            let body = Array(DaemonTests.schedule(gameAt: gameStart).utf8)
            let asked = Mutex(0)
            server = try LoopbackHTTPServer { request in
                onRequest(request.path)
                if request.path.hasPrefix("/v1/club-schedule-season/TOR/now") {
                    // `schedule` may answer the Nth request otherwise (nil: the usual answer).
                    let count = asked.withLock {
                        $0 += 1
                        return $0
                    }
                    if let other = schedule?(count) {
                        return .response(
                            status: 200, headers: [("Content-Type", "application/json"), ("ETag", "\"s\(count)\"")], body: Array(other.utf8)
                        )
                    }
                    return .response(status: 200, headers: [("Content-Type", "application/json"), ("ETag", "\"s1\"")], body: body)
                }
                if request.path.hasPrefix("/v1/standings/") { return .json("{\"standings\": []}") }
                if let feed, request.path.hasPrefix("/v1/gamecenter/\(feed.game)/play-by-play") {
                    return .response(status: 200, headers: [("Content-Type", "application/json")], body: feed.body)
                }
                if request.path.hasPrefix("/v1/player/8479318/landing") {
                    return .json(
                        "{\"playerId\": 8479318, \"firstName\": {\"default\": \"Auston\"}, \"lastName\": {\"default\": \"Matthews\"}, \"currentTeamAbbrev\": \"TOR\"}"
                    )
                }
                return .response(status: 404)
            }
            directory = try TestPaths.temporaryDirectory()
            let config = directory.appendingPathComponent("config.toml")
            try text.write(to: config, atomically: true, encoding: .utf8)
            let environment = ["HOME": directory.path, "PATH": "/usr/bin:/bin"]
            let store = try Store(path: directory.appendingPathComponent("state/faceoff.sqlite").path)
            self.clock = clock
            let jump = wallJump
            let now: @Sendable () -> Date = {
                DaemonTests.launch.addingTimeInterval(Double(clock.now.offset.components.seconds) + jump.seconds.withLock { $0 })
            }
            let base = server.baseURL + "/v1/"
            daemon = Daemon(
                Daemon<TestClock>.Dependencies(
                    store: store, http: CurlHTTPClient(), clock: clock, now: now, logger: logger,
                    loadSession: { try Session(.init(configPath: config.path, apiBase: base, environment: environment)) }))
        }

        func close() {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test func betweenPregameWindowsOnlyTheScheduleIsAskedFor() async throws {
        let setup = try Setup(
            gameAt: Self.launch.addingTimeInterval(3 * 86400),
            config: "teams = [\"TOR\"]\n[[sink]]\ntype = \"stdout\"\nformat = \"jsonl\"\n")
        defer { setup.close() }
        let (server, clock, daemon, directory) = (setup.server, setup.clock, setup.daemon, setup.directory)
        let task = Task { try await daemon.run() }
        // Let it run until the clock (which jumps from one wake to the next) is a day on.
        try #require(await eventually(within: hangGuard) { clock.now.offset >= .seconds(26 * 3600) })
        task.cancel()
        _ = await task.result
        let paths = server.requests.map(\.path)
        #expect(!paths.isEmpty)
        // Nothing but the schedule (every 6 h) and the records for the calendar.
        #expect(paths.allSatisfy { $0.hasPrefix("/v1/club-schedule-season/TOR/now") || $0.hasPrefix("/v1/standings/") }, "\(paths)")
        // One at the start and one every 6 h of (test) time, however far the clock ran on.
        let hours = Int(clock.now.offset.components.seconds / 3600)
        let refreshes = paths.filter { $0.hasPrefix("/v1/club-schedule-season/") }.count
        #expect(refreshes >= 5 && refreshes <= hours / 6 + 1, "\(refreshes) schedule requests in \(hours) h")
        // Conditional GETs after the first.
        #expect(
            server.requests.filter { $0.path.hasPrefix("/v1/club-schedule-season/") }.dropFirst().allSatisfy {
                $0.headers["if-none-match"] == "\"s1\""
            })
        // The calendar was written.
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(".local/share/faceoff/calendars/TOR.ics").path))
        // favourites.ics too, with one team followed, as `faceoff calendar` writes it (FeedPlan).
        #expect(
            FileManager.default.fileExists(atPath: directory.appendingPathComponent(".local/share/faceoff/calendars/favourites.ics").path))
        // Between refreshes it only wakes once a minute to look at the clocks, asking for nothing.
        #expect(clock.sleeps.allSatisfy { $0 <= Daemon<TestClock>.idleCheck }, "\(clock.sleeps.max() ?? .zero)")
    }

    @Test func startingPrunesWhatIsOlderThanASeason() async throws {
        let setup = try Setup(
            gameAt: Self.launch.addingTimeInterval(3 * 86400),
            config: "teams = [\"TOR\"]\n[[sink]]\ntype = \"stdout\"\nformat = \"jsonl\"\n")
        defer { setup.close() }
        // Another handle on the daemon's store, seeded before it starts.
        let store = try Store(path: setup.directory.appendingPathComponent("state/faceoff.sqlite").path)
        let cache = ResponseCache(store: store)
        let ledger = Ledger(store: store)
        let old = Self.launch.addingTimeInterval(-500 * 86400)
        let recent = Self.launch.addingTimeInterval(-30 * 86400)
        try await cache.save(
            CachedResponse(url: "https://example.invalid/old", body: [1], validators: Validators(), fetchedAt: old, freshness: .revalidate))
        try await cache.save(
            CachedResponse(
                url: "https://example.invalid/recent", body: [2], validators: Validators(), fetchedAt: recent, freshness: .revalidate))
        let oldGoal = GameEvent(kind: .goal, key: "1", gameId: 2024020001, away: "BOS", home: "TOR", score: .init(away: 0, home: 1))
        let recentGoal = GameEvent(kind: .goal, key: "2", gameId: 2025020001, away: "BOS", home: "TOR", score: .init(away: 0, home: 1))
        #expect(try await ledger.claim(oldGoal, sink: "stdout", at: old))
        #expect(try await ledger.claim(recentGoal, sink: "stdout", at: recent))

        let task = Task { try await setup.daemon.run() }
        try #require(
            await eventually(within: hangGuard) { setup.server.requests.contains { $0.path.hasPrefix("/v1/club-schedule-season/") } })
        task.cancel()
        _ = await task.result
        #expect(try cache.entry(for: "https://example.invalid/old") == nil)
        #expect(try cache.entry(for: "https://example.invalid/recent") != nil)
        #expect(try ledger.claimedIDs(gameID: 2024020001, sink: "stdout").isEmpty)
        #expect(try ledger.claimedIDs(gameID: 2025020001, sink: "stdout") == ["2025020001:goal:2"])
    }

    /// Started with the wall clock ten years ahead: nothing recent is pruned (the store's
    /// newest row, not the clock, is what a season is counted back from), and a response
    /// fetched then is not fresh once the clock is right again.
    @Test func aClockYearsAheadPrunesNothingAndFreezesNothing() async throws {
        let setup = try Setup(gameAt: Self.launch.addingTimeInterval(3 * 86400), config: "teams = [\"TOR\"]\n[[sink]]\ntype = \"stdout\"\n")
        defer { setup.close() }
        setup.wallJump.set(once: 10 * 365 * 86400)
        let store = try Store(path: setup.directory.appendingPathComponent("state/faceoff.sqlite").path)
        let cache = ResponseCache(store: store)
        let ledger = Ledger(store: store)
        let recent = Self.launch.addingTimeInterval(-2 * 86400)
        try await cache.save(
            CachedResponse(
                url: "https://example.invalid/recent", body: [2], validators: Validators(), fetchedAt: recent, freshness: .revalidate))
        let goal = GameEvent(kind: .goal, key: "2", gameId: 2025020001, away: "BOS", home: "TOR", score: .init(away: 0, home: 1))
        #expect(try await ledger.claim(goal, sink: "stdout", at: recent))
        let task = Task { try await setup.daemon.run() }
        defer { task.cancel() }
        // Until the schedule it fetched is in the cache (the request is seen before its answer is stored).
        let url = setup.server.baseURL + "/v1/club-schedule-season/TOR/now"
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while (try? cache.entry(for: url)) == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        _ = await task.result
        #expect(try cache.entry(for: "https://example.invalid/recent") != nil)
        #expect(try ledger.claimedIDs(gameID: 2025020001, sink: "stdout") == ["2025020001:goal:2"])
        // The schedule fetched "ten years from now": not fresh at the right time.
        let future = try #require(try cache.entry(for: setup.server.baseURL + "/v1/club-schedule-season/TOR/now"))
        #expect(future.fetchedAt > Self.launch.addingTimeInterval(9 * 365 * 86400))
        #expect(!future.isFresh(at: Self.launch))
        #expect(future.isFresh(at: future.fetchedAt))
    }

    /// Followed by team, or only through a followed player whose team plays.
    @Test(arguments: ["teams = [\"TOR\"]", "players = [8479318]"])
    func thePregameWindowStartsTheWatcher(following: String) async throws {
        let clock = TestClock()
        let firstPoll = Mutex<Duration?>(nil)
        let setup = try Setup(
            gameAt: Self.launch.addingTimeInterval(2 * 3600),
            config: "\(following)\n[watch]\npregame = \"30m\"\n[[sink]]\ntype = \"stdout\"\nformat = \"jsonl\"\n", clock: clock
        ) { path in
            if path.contains("/gamecenter/") { firstPoll.withLock { $0 = $0 ?? clock.now.offset } }
        }
        defer { setup.close() }
        let (server, daemon) = (setup.server, setup.daemon)
        let task = Task { try await daemon.run() }
        defer { task.cancel() }
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while firstPoll.withLock({ $0 }) == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let offset = try #require(firstPoll.withLock { $0 }, "the game was never polled")
        task.cancel()
        _ = await task.result
        // The daemon slept (a minute at a time) to the window, 90 min in, and nothing polled the
        // game before it. (The test clock jumps wherever any sleeper asks, so the request's own
        // time can be later than the window.)
        #expect(clock.sleeps.prefix(90).allSatisfy { $0 == Daemon<TestClock>.idleCheck }, "\(clock.sleeps.prefix(3))")
        #expect(offset >= .seconds(90 * 60), "\(offset)")
        #expect(server.requests.first { $0.path.contains("/gamecenter/") }?.path == "/v1/gamecenter/2025020600/play-by-play")
    }

    /// The laptop sleeps through the pregame window and the daemon's clock does not count it
    /// (or the wall clock is set 7 hours forward): within a minute the daemon refreshes the
    /// overdue schedule and starts watching the game.
    ///
    /// Times are taken from the daemon's log on the test clock: the clock runs on with every
    /// sleeper, so a request's own time says little about when it was decided.
    @Test func aWallClockJumpPastTheStartIsNoticedWithinAMinute() async throws {
        let clock = TestClock()
        let log = LogLines(clock: clock)
        let setup = try Setup(
            gameAt: Self.launch.addingTimeInterval(2 * 3600), config: "teams = [\"TOR\"]\n[[sink]]\ntype = \"stdout\"\n", clock: clock,
            logger: log.logger())
        defer { setup.close() }
        // On the daemon's first sleep, the wall moves 7 hours on.
        clock.onSleep { [jump = setup.wallJump] _ in jump.set(once: 7 * 3600) }
        let task = Task { try await setup.daemon.run() }
        try #require(await eventually(within: hangGuard) { log.first("watching game") != nil || clock.now.offset >= .seconds(12 * 3600) })
        task.cancel()
        _ = await task.result
        let watched = try #require(log.first("watching game"), "the game was never watched")
        // Planned before the jump, the window was 90 min in.
        #expect(watched <= .seconds(60), "watched at \(watched)")
        #expect(log.first("the wall clock jumped; planning again") == .seconds(60))
        // The schedule (refreshed every 6 h) was 7 h older than the daemon's clock said: read again at once.
        let requests = setup.server.requests.filter { $0.path.contains("/club-schedule-season/") }
        #expect(requests.count >= 2)
        #expect(log.all.filter { $0.1 == "calendar written" }.count >= 2)
    }

    /// The wall clock is set 2 hours back while the daemon sleeps towards the pregame window:
    /// the game is watched when the wall clock reaches its window, not at the instant planned
    /// before the step, and the step alone refreshes nothing.
    @Test func aClockSetBackDelaysNothingButThePlan() async throws {
        let clock = TestClock()
        let log = LogLines(clock: clock)
        let setup = try Setup(
            gameAt: Self.launch.addingTimeInterval(2 * 3600),
            config: "teams = [\"TOR\"]\n[watch]\npregame = \"30m\"\n[[sink]]\ntype = \"stdout\"\n",
            clock: clock, logger: log.logger())
        defer { setup.close() }
        clock.onSleep { [jump = setup.wallJump] _ in jump.set(once: -2 * 3600) }
        let task = Task { try await setup.daemon.run() }
        try #require(await eventually(within: hangGuard) { log.first("watching game") != nil || clock.now.offset >= .seconds(12 * 3600) })
        task.cancel()
        _ = await task.result
        let watched = try #require(log.first("watching game"), "the game was never watched")
        // The window is at 1:30 by the wall clock, which now reads 2 h less than before.
        #expect(watched >= .seconds(3.5 * 3600) && watched <= .seconds(3.5 * 3600 + 60), "\(watched)")
        #expect(log.first("the wall clock jumped; planning again") == .seconds(60))
        // One schedule read before the game: the 6 h refresh was not due, and a step back is no reason.
        let beforeTheGame = log.all.prefix { $0.1 != "watching game" }.filter { $0.1 == "calendar written" }
        #expect(beforeTheGame.count == 2, "\(beforeTheGame.count) calendars written")
    }

    /// The schedule once fetched well, then answered with no games (or a third of them) at the
    /// next refresh, an hour before the game: the game is still watched, from the good copy, which stays in the
    /// cache; the answer is asked for again within minutes, not at the 6 h refresh, and the
    /// log says so once until it is good again.
    /// A watched game's final goes into the calendar at once, while the schedule still calls
    /// the game to come: the daemon lays it over the schedule (`ScheduleOverlay`) before the
    /// refresh that follows the game.
    @Test func aWatchedFinalIsInTheCalendarBeforeTheScheduleSaysSo() async throws {
        let clock = TestClock()
        let log = LogLines(clock: clock)
        var feed =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: TestPaths.mirror.appendingPathComponent("gamecenter/2025020100/play-by-play"))) as? [String: Any]
            ?? [:]
        feed["id"] = 2_025_020_600
        let body = try JSONSerialization.data(withJSONObject: feed)
        let setup = try Setup(
            gameAt: Self.launch.addingTimeInterval(2 * 3600),
            config: "teams = [\"TOR\"]\n[watch]\npregame = \"30m\"\n[[sink]]\ntype = \"stdout\"\nformat = \"jsonl\"\n", clock: clock,
            logger: log.logger(), feed: (2_025_020_600, Array(body)))
        defer { setup.close() }
        let task = Task { try await setup.daemon.run() }
        try #require(await eventually(within: hangGuard) { log.first("game over; refreshing the schedule and calendars") != nil })
        let calendar = setup.directory.appendingPathComponent(".local/share/faceoff/calendars/TOR.ics")
        let written = await eventually(within: hangGuard) {
            ((try? String(contentsOf: calendar, encoding: .utf8)) ?? "").contains("SUMMARY:TOR 1–3 MTL · L")
        }
        task.cancel()
        _ = await task.result
        #expect(written, "\((try? String(contentsOf: calendar, encoding: .utf8)) ?? "no TOR.ics")")
    }

    @Test(arguments: ["empty", "gutted"])
    func anEmptyOrGuttedScheduleCostsNoGame(answer: String) async throws {
        let clock = TestClock()
        let log = LogLines(clock: clock)
        let start = Self.launch.addingTimeInterval(2 * 3600)
        let good = Self.schedule(gameAt: start)
        // The season's other 10 games, which a gutted answer loses with the game tonight.
        let others = (1...10).map { n in
            "{\"id\": \(2025020700 + n), \"season\": 20252026, \"gameType\": 2, \"gameDate\": \"2026-01-\(10 + n)\", \"startTimeUTC\": \"2026-01-\(10 + n)T00:00:00Z\", \"gameState\": \"FUT\", \"awayTeam\": {\"abbrev\": \"TOR\"}, \"homeTeam\": {\"abbrev\": \"OTT\"}}"
        }
        let full = good.replacingOccurrences(of: "\n]}", with: ",\n" + others.joined(separator: ",\n") + "\n]}")
        #expect(full.contains("2025020710"))
        let bad =
            answer == "empty"
            ? "{\"currentSeason\": 20252026, \"games\": []}"
            : "{\"currentSeason\": 20252026, \"games\": [" + others.prefix(3).joined(separator: ",") + "]}"
        let setup = try Setup(
            gameAt: start,
            config: "teams = [\"TOR\"]\n[calendar]\nrefresh = \"1h\"\n[watch]\npregame = \"30m\"\n[[sink]]\ntype = \"stdout\"\n",
            clock: clock, logger: log.logger(),
            schedule: { $0 == 1 || $0 >= 6 ? full : bad })
        defer { setup.close() }
        let task = Task { try await setup.daemon.run() }
        try #require(await eventually(within: hangGuard) { log.first("watching game") != nil || clock.now.offset >= .seconds(4 * 3600) })
        task.cancel()
        _ = await task.result
        let watched = try #require(log.first("watching game"), "the game was never watched: \(log.all.map(\.1))")
        #expect(watched <= .seconds(90 * 60 + 60), "\(watched)")
        // Asked again within minutes, not an hour: the bad answers (2 to 5) and the good one after them.
        let requests = setup.server.requests.filter { $0.path.contains("/club-schedule-season/") }.count
        #expect(requests >= 6, "\(requests) schedule requests before the game")
        let warnings = log.all.filter { $0.1.hasPrefix("the schedule answer was not usable") }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(log.all.contains { $0.1.hasPrefix("the schedule answer is good again") })
        // The cache holds the good copy, so `schedule` and `status` still see the game.
        let store = try Store(path: setup.directory.appendingPathComponent("state/faceoff.sqlite").path)
        let cached = try #require(try ResponseCache(store: store).entry(for: setup.server.baseURL + "/v1/club-schedule-season/TOR/now"))
        #expect(String(decoding: cached.body, as: UTF8.self).contains("2025020600"))
    }

    /// A start time moved and another game postponed between two refreshes: one
    /// `schedule_change` each, through the config's sinks; the first schedule is no news, and
    /// a refused answer (no games) in between, and the same answer again after it, none.
    @Test func aChangedScheduleIsOneAlertPerChange() async throws {
        let clock = TestClock()
        let log = LogLines(clock: clock)
        let start = Self.launch.addingTimeInterval(30 * 3600)
        let moved = Self.launch.addingTimeInterval(31 * 3600)
        let other = { (state: String) in
            "{\"id\": 2025020701, \"season\": 20252026, \"gameType\": 2, \"gameDate\": \"2026-01-11\", \"startTimeUTC\": \"2026-01-11T00:00:00Z\", \"gameState\": \"FUT\", \"gameScheduleState\": \"\(state)\", \"awayTeam\": {\"abbrev\": \"TOR\"}, \"homeTeam\": {\"abbrev\": \"OTT\"}}"
        }
        let first = Self.schedule(gameAt: start).replacingOccurrences(of: "\n]}", with: ",\n" + other("OK") + "\n]}")
        let changed = Self.schedule(gameAt: moved).replacingOccurrences(of: "\n]}", with: ",\n" + other("PPD") + "\n]}")
        let refused = "{\"currentSeason\": 20252026, \"games\": []}"
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sent = directory.appendingPathComponent("sent.jsonl")
        let setup = try Setup(
            gameAt: start,
            config: """
                teams = ["TOR"]
                [calendar]
                refresh = "1h"
                [[sink]]
                type = "exec"
                name = "log"
                command = ["/bin/sh", "-c", "cat >> \(sent.path)"]
                events = ["schedule_change"]

                """,
            clock: clock, logger: log.logger(),
            schedule: { $0 == 1 ? first : $0 == 3 ? refused : changed })
        defer { setup.close() }
        func lines() -> [String] {
            ((try? String(contentsOf: sent, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        let task = Task { try await setup.daemon.run() }
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while ContinuousClock.now < deadline,
            setup.server.requests.filter({ $0.path.contains("/club-schedule-season/") }).count < 5 || lines().count < 2
        {
            try await Task.sleep(for: .milliseconds(5))
        }
        // Time for a third alert that should not come.
        try await Task.sleep(for: .milliseconds(500))
        task.cancel()
        _ = await task.result
        let events = try lines().map { try JSONDecoder().decode(EventLine.self, from: Data($0.utf8)) }
        let changes = events.map { "\($0.game) \($0.details["change"] ?? "?")" }
        #expect(changes.sorted() == ["2025020600 moved", "2025020701 postponed"], "\(lines()) \(log.all.map(\.1))")
        #expect(log.all.filter { $0.1 == "schedule changed" }.count == 2)
    }

    /// The parts of an event's JSON line this suite reads.
    struct EventLine: Decodable {
        let game: Int
        let details: [String: String]
    }
}
