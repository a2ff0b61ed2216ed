import Foundation
import Synchronization
import Testing

@testable import FaceoffKit

/// The daemon on a test clock against a loopback API: what it asks for, and when.
@Suite struct DaemonTests {
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

        init(gameAt gameStart: Date, config text: String, clock: TestClock = TestClock(), onRequest: @escaping @Sendable (String) -> Void = { _ in }) throws {
            let body = Array(DaemonTests.schedule(gameAt: gameStart).utf8)
            server = try LoopbackHTTPServer { request in
                onRequest(request.path)
                if request.path.hasPrefix("/v1/club-schedule-season/TOR/now") {
                    return .response(status: 200, headers: [("Content-Type", "application/json"), ("ETag", "\"s1\"")], body: body)
                }
                if request.path.hasPrefix("/v1/standings/") { return .json("{\"standings\": []}") }
                if request.path.hasPrefix("/v1/player/8479318/landing") { return .json("{\"playerId\": 8479318, \"currentTeamAbbrev\": \"TOR\"}") }
                return .response(status: 404)
            }
            directory = try TestPaths.temporaryDirectory()
            let config = directory.appendingPathComponent("config.toml")
            try text.write(to: config, atomically: true, encoding: .utf8)
            let environment = ["HOME": directory.path, "PATH": "/usr/bin:/bin"]
            let store = try Store(path: directory.appendingPathComponent("state/faceoff.sqlite").path)
            self.clock = clock
            let now: @Sendable () -> Date = { DaemonTests.launch.addingTimeInterval(Double(clock.now.offset.components.seconds)) }
            let base = server.baseURL + "/v1/"
            daemon = Daemon(Daemon<TestClock>.Dependencies(
                store: store, http: CurlHTTPClient(), clock: clock, now: now, logger: .init(label: "test"),
                loadSession: { try Session(.init(configPath: config.path, apiBase: base, environment: environment)) }))
        }

        func close() {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test func betweenPregameWindowsOnlyTheScheduleIsAskedFor() async throws {
        let setup = try Setup(gameAt: Self.launch.addingTimeInterval(3 * 86400), config: "teams = [\"TOR\"]\n[[sink]]\ntype = \"stdout\"\nformat = \"jsonl\"\n")
        defer { setup.close() }
        let (server, clock, daemon, directory) = (setup.server, setup.clock, setup.daemon, setup.directory)
        let task = Task { try await daemon.run() }
        // Let it run until the clock (which jumps from one wake to the next) is a day on.
        while clock.now.offset < .seconds(26 * 3600) { try await Task.sleep(for: .milliseconds(5)) }
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
        #expect(server.requests.filter { $0.path.hasPrefix("/v1/club-schedule-season/") }.dropFirst().allSatisfy { $0.headers["if-none-match"] == "\"s1\"" })
        // The calendar was written.
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(".local/share/faceoff/calendars/TOR.ics").path))
        // favourites.ics too, with one team followed, as `faceoff calendar` writes it (FeedPlan).
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(".local/share/faceoff/calendars/favourites.ics").path))
        // And the sleeps were long: a handful of wakes, no polling loop.
        #expect(clock.sleeps.count < 20, "\(clock.sleeps.count) sleeps")
    }

    @Test func startingPrunesWhatIsOlderThanASeason() async throws {
        let setup = try Setup(gameAt: Self.launch.addingTimeInterval(3 * 86400), config: "teams = [\"TOR\"]\n[[sink]]\ntype = \"stdout\"\nformat = \"jsonl\"\n")
        defer { setup.close() }
        // Another handle on the daemon's store, seeded before it starts.
        let store = try Store(path: setup.directory.appendingPathComponent("state/faceoff.sqlite").path)
        let cache = ResponseCache(store: store)
        let ledger = Ledger(store: store)
        let old = Self.launch.addingTimeInterval(-500 * 86400)
        let recent = Self.launch.addingTimeInterval(-30 * 86400)
        try cache.save(CachedResponse(url: "https://example.invalid/old", body: [1], validators: Validators(), fetchedAt: old, freshness: .revalidate))
        try cache.save(CachedResponse(url: "https://example.invalid/recent", body: [2], validators: Validators(), fetchedAt: recent, freshness: .revalidate))
        let oldGoal = GameEvent(kind: .goal, key: "1", gameId: 2024020001, away: "BOS", home: "TOR", score: .init(away: 0, home: 1))
        let recentGoal = GameEvent(kind: .goal, key: "2", gameId: 2025020001, away: "BOS", home: "TOR", score: .init(away: 0, home: 1))
        #expect(try ledger.claim(oldGoal, sink: "stdout", at: old))
        #expect(try ledger.claim(recentGoal, sink: "stdout", at: recent))

        let task = Task { try await setup.daemon.run() }
        while !setup.server.requests.contains(where: { $0.path.hasPrefix("/v1/club-schedule-season/") }) {
            try await Task.sleep(for: .milliseconds(5))
        }
        task.cancel()
        _ = await task.result
        #expect(try cache.entry(for: "https://example.invalid/old") == nil)
        #expect(try cache.entry(for: "https://example.invalid/recent") != nil)
        #expect(try ledger.claimedIDs(gameID: 2024020001, sink: "stdout").isEmpty)
        #expect(try ledger.claimedIDs(gameID: 2025020001, sink: "stdout") == ["2025020001:goal:2"])
    }

    /// Followed by team, or only through a followed player whose team plays.
    @Test(arguments: ["teams = [\"TOR\"]", "players = [8479318]"])
    func thePregameWindowStartsTheWatcher(following: String) async throws {
        let clock = TestClock()
        let firstPoll = Mutex<Duration?>(nil)
        let setup = try Setup(gameAt: Self.launch.addingTimeInterval(2 * 3600), config: "\(following)\n[watch]\npregame = \"30m\"\n[[sink]]\ntype = \"stdout\"\nformat = \"jsonl\"\n", clock: clock) { path in
            if path.contains("/gamecenter/") { firstPoll.withLock { $0 = $0 ?? clock.now.offset } }
        }
        defer { setup.close() }
        let (server, daemon) = (setup.server, setup.daemon)
        let task = Task { try await daemon.run() }
        while firstPoll.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(5)) }
        let offset = try #require(firstPoll.withLock { $0 })
        task.cancel()
        _ = await task.result
        // The daemon slept straight to the window (90 min in) and nothing polled the game
        // before it. (The test clock jumps wherever any sleeper asks, so the request's own
        // time can be later than the window.)
        #expect(clock.sleeps.first == .seconds(90 * 60), "\(clock.sleeps.prefix(3))")
        #expect(offset >= .seconds(90 * 60), "\(offset)")
        #expect(server.requests.first { $0.path.contains("/gamecenter/") }?.path == "/v1/gamecenter/2025020600/play-by-play")
    }
}
