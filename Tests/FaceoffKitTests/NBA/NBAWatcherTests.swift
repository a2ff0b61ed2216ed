import FaceoffESPN
import Foundation
import Synchronization
import Testing

@testable import FaceoffAPI
@testable import FaceoffDelivery
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffStore

/// The NBA watcher against a loopback server that plays a recorded ESPN summary forward a few
/// plays per request, on a test clock, with a real store.
@Suite(.timeLimit(.minutes(2))) struct NBAWatcherTests {
    static let recording = "summary_nba_401585607_final_tor_at_orl_20240317.json"
    static let gameID = 401_585_607

    /// ESPN's answer as it stood after `count` plays: live (or before the tip with none), the
    /// score of the last play; the whole recording (final) once every play is in.
    final class Feed: @unchecked Sendable {
        let raw: Data
        /// The recording parsed once (read only), so each answer costs one serialisation.
        let root: [String: Any]
        let total: Int
        let step: Int
        private let position: Mutex<Int>

        /// - Parameter step: plays per answer; 15 is about a poll's worth in a live game, and
        ///   keeps a whole game to some 30 polls.
        /// - Parameter playoff: the game made a playoff game: ESPN's note ("East Finals - Game
        ///   6") and each team's series wins before it (by ESPN's team id), in the shape of
        ///   the recorded playoff summaries (a "playoff" series beside the season's).
        init(start: Int = 0, step: Int = 15, playoff: (note: String, wins: [(id: String, wins: Int)])? = nil) throws {
            var raw = try Data(contentsOf: ESPNRecordings.directory.appendingPathComponent(NBAWatcherTests.recording))
            var root = try JSONSerialization.jsonObject(with: raw) as? [String: Any] ?? [:]
            if let playoff {
                var header = root["header"] as? [String: Any] ?? [:]
                var competition = (header["competitions"] as? [[String: Any]])?.first ?? [:]
                let series: [String: Any] = [
                    "type": "playoff", "title": "Playoff Series", "totalCompetitions": 7,
                    "competitors": playoff.wins.map { ["id": $0.id, "wins": $0.wins, "ties": 0] },
                ]
                competition["series"] = (competition["series"] as? [[String: Any]] ?? []) + [series]
                header["competitions"] = [competition]
                header["gameNote"] = playoff.note
                root["header"] = header
                raw = try JSONSerialization.data(withJSONObject: root)
            }
            self.raw = raw
            self.root = root
            total = (root["plays"] as? [Any])?.count ?? 0
            self.step = step
            position = Mutex(start)
        }

        func next() -> [UInt8] {
            let count = position.withLock { value in
                defer { value = min(total, value + step) }
                return value
            }
            return Array(count < total ? Self.prefix(root, count) : raw)
        }

        func skip(_ plays: Int) { position.withLock { $0 = min(total, $0 + plays) } }

        static func prefix(_ root: [String: Any], _ count: Int) -> Data {
            var root = root
            let plays = Array((root["plays"] as? [[String: Any]] ?? []).prefix(count))
            root["plays"] = plays
            var header = root["header"] as? [String: Any] ?? [:]
            var competition = (header["competitions"] as? [[String: Any]])?.first ?? [:]
            let last = plays.last
            competition["status"] =
                [
                    "type": ["name": plays.isEmpty ? "STATUS_SCHEDULED" : "STATUS_IN_PROGRESS", "state": plays.isEmpty ? "pre" : "in"],
                    "period": (last?["period"] as? [String: Any])?["number"] ?? 0,
                ] as [String: Any]
            competition["competitors"] = (competition["competitors"] as? [[String: Any]] ?? []).map { competitor in
                var competitor = competitor
                let home = competitor["homeAway"] as? String == "home"
                competitor["score"] = String((home ? last?["homeScore"] : last?["awayScore"]) as? Int ?? 0)
                return competitor
            }
            header["competitions"] = [competition]
            root["header"] = header
            return (try? JSONSerialization.data(withJSONObject: root)) ?? Data()
        }
    }

    struct Setup {
        let server: LoopbackHTTPServer
        let store: Store
        let directory: URL
        let clock = TestClock()

        init(_ feed: Feed, onRequest: @escaping @Sendable (Int) -> Void = { _ in }) throws {
            let requests = Mutex(0)
            server = try LoopbackHTTPServer { _ in
                onRequest(
                    requests.withLock {
                        $0 += 1
                        return $0
                    })
                return .response(status: 200, headers: [("Content-Type", "application/json")], body: feed.next())
            }
            directory = try TestPaths.temporaryDirectory()
            store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
        }

        /// Watches the game to its end through a router to one recording sink; what it got.
        func watch(now: @escaping @Sendable () -> Date = { Date() }) async throws -> [GameEvent] {
            let client = APIClient(
                service: .espn, base: server.baseURL + "/", http: CurlHTTPClient(clock: clock), cache: ResponseCache(store: store))
            let delivered = Mutex<[GameEvent]>([])
            let sink = RecordingSink(name: "stdout") { event in delivered.withLock { $0.append(event) } }
            let router = AlertRouter(
                routes: [SinkRoute(sink: sink, filter: SinkFilter(teams: ["nba:ORL"]), delay: .zero)], ledger: Ledger(store: store),
                clock: clock)
            let watcher = GameWatcher(
                game: NBAGame(gameID: NBAWatcherTests.gameID, client: client), scheduledStart: nil, ledger: Ledger(store: store),
                settings: .init(poll: .seconds(5)), clock: clock, now: now, router: router)
            try await router.serving { try await watcher.run() }
            return delivered.withLock { $0 }
        }

        func close() {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    static func reference() throws -> [String] {
        let summary = try ESPNRecordings.decode(ESPNSummary.self, recording)
        return NBAEventDetector.derive(NBASnapshot(summary)).filter { $0.kind != .score }.map(\.id)
    }

    @Test(ESPNRecordings.needed) func watchesAGameToItsFinalAndEachEventOnceAcrossARestart() async throws {
        let setup = try Setup(try Feed())
        defer { setup.close() }
        let events = try await setup.watch()
        #expect(events.map(\.id) == (try Self.reference()))
        #expect(events.last?.kind == .final && events.last?.score == GameEvent.Score(away: 96, home: 111))
        #expect(events.allSatisfy { $0.league == .nba && $0.seenAt != nil })
        #expect(setup.clock.sleeps.filter { $0 == .seconds(5) }.count >= 5)
        // Watched again on the same store (a restart, a second process): nothing twice.
        let again = try Setup(try Feed(start: 400))
        defer { again.close() }
        let client = APIClient(
            service: .espn, base: again.server.baseURL + "/", http: CurlHTTPClient(clock: again.clock), cache: nil)
        let delivered = Mutex<[GameEvent]>([])
        let router = AlertRouter(
            routes: [
                SinkRoute(
                    sink: RecordingSink(name: "stdout") { event in delivered.withLock { $0.append(event) } },
                    filter: SinkFilter(teams: ["nba:ORL"]), delay: .zero)
            ], ledger: Ledger(store: setup.store), clock: again.clock)
        let watcher = GameWatcher(
            game: NBAGame(gameID: Self.gameID, client: client), scheduledStart: nil, ledger: Ledger(store: setup.store),
            settings: .init(poll: .seconds(5)), clock: again.clock, router: router)
        try await router.serving { try await watcher.run() }
        #expect(delivered.withLock { $0 }.isEmpty)
    }

    /// A playoff game's alerts carry its series, as ESPN's summary gives it (the NHL's come
    /// from its schedule): as it stood before the game on `game_start`, after it on the final.
    @Test(ESPNRecordings.needed) func aPlayoffGamesStartAndFinalSayTheSeries() async throws {
        let setup = try Setup(try Feed(playoff: ("East Finals - Game 6", [("19", 3), ("28", 2)])))
        defer { setup.close() }
        let events = try await setup.watch()
        let start = try #require(events.first { $0.kind == .gameStart })
        #expect(start.series?.game == 6 && start.series?.abbrev == "East Finals", "\(String(describing: start.series))")
        #expect(start.series?.text == "ORL leads 3–2")
        let final = try #require(events.last)
        #expect(final.kind == .final && final.series?.text == "ORL wins 4–2" && final.series?.winner == "ORL")
        #expect(events.filter { $0.series != nil }.map(\.kind) == [.gameStart, .final])
    }

    /// A delay changed by another process (`faceoff delay`) reaches an NBA game's scoreboard
    /// (and the status line's copy) by the next poll, as an NHL game's does: the watcher looks
    /// at the delays at each poll. No alert waits at the sink, so nothing else looks.
    @Test(ESPNRecordings.needed) func aDelayChangedElsewhereReachesTheScoreboardByThePoll() async throws {
        let setup = try Setup(try Feed())
        defer { setup.close() }
        let client = APIClient(service: .espn, base: setup.server.baseURL + "/", http: CurlHTTPClient(clock: setup.clock), cache: nil)
        let router = AlertRouter(
            routes: [SinkRoute(sink: RecordingSink(name: "stdout") { _ in }, filter: SinkFilter(teams: ["nba:LAL"]))],
            ledger: Ledger(store: setup.store), clock: setup.clock,
            delays: DelayBook(configured: [("stdout", .zero)], store: setup.store), scoreboard: "stdout", poll: TestClock())
        try await DelayBook(configured: [("stdout", .zero)], store: setup.store).set(["stdout": .seconds(30)], at: Date())
        #expect(router.scoreboard?.current == .zero)
        let seen = Mutex<[Duration]>([])
        let watcher = GameWatcher(
            game: NBAGame(gameID: Self.gameID, client: client), scheduledStart: nil, ledger: Ledger(store: setup.store),
            settings: .init(poll: .seconds(5)), clock: setup.clock, router: router,
            onSnapshot: { _, _ in seen.withLock { $0.append(router.scoreboard?.current ?? .zero) } })
        try await router.serving { try await watcher.run() }
        #expect(seen.withLock { $0.first } == .seconds(30), "the first snapshot shown waited out the new delay")
    }

    @Test(ESPNRecordings.needed) func aGameFirstSeenInProgressGivesOneSummaryThenGoesOn() async throws {
        let setup = try Setup(try Feed(start: 300))
        defer { setup.close() }
        let events = try await setup.watch()
        let joined = try #require(events.first)
        #expect(joined.kind == .gameJoined && joined.period == 3, "\(joined)")
        #expect(joined.details["scorers"]?.hasPrefix("TOR: ") == true)
        // Nothing from before the join point, everything after it, once.
        #expect(!events.contains { $0.kind == .gameStart || $0.id == "401585607:period_end:1" })
        let rest = Array(events.dropFirst().map(\.id))
        #expect(rest == (try Self.reference()).filter(rest.contains) && Set(rest).count == rest.count)
        #expect(events.last?.kind == .final)
    }

    /// A laptop suspended mid-game: an hour of wall time passes between two polls while the
    /// game moves a quarter on. The recent plays are alerted as usual, the older ones folded
    /// into one `caught_up` summary, passed over in the ledger.
    @Test(ESPNRecordings.needed) func aGapInWatchingFoldsWhatItMissedIntoOneSummary() async throws {
        let feed = try Feed()
        let wall = Mutex(Date(timeIntervalSince1970: 1_761_000_000))
        // The 8th answer, some 105 plays in, comes an hour later and 150 plays on.
        let setup = try Setup(feed) { request in
            wall.withLock { $0 = $0.addingTimeInterval(request == 8 ? 3600 : 5) }
            if request == 8 { feed.skip(150) }
        }
        defer { setup.close() }
        let events = try await setup.watch(now: { wall.withLock { $0 } })
        let summaries = events.filter { $0.details["caught_up"] == "true" }
        try #require(summaries.count == 1, "\(events.map(\.id))")
        #expect(summaries[0].details["missed"]?.isEmpty == false)
        let rest = events.map(\.id).filter { $0 != summaries[0].id }
        #expect(rest == (try Self.reference()).filter(rest.contains) && Set(rest).count == rest.count)
        #expect(rest.count < (try Self.reference()).count)
        #expect(events.last?.kind == .final)
        let claimed = try Ledger(store: setup.store).claimedIDs(gameID: Self.gameID, sink: "stdout")
        #expect(Set(try Self.reference()).isSubset(of: Set(claimed)))
    }
}

/// `watch TEAM`'s choice of the next game, across both leagues' schedules (file mirrors).
@Suite(.timeLimit(.minutes(1))) struct WatchPlannerTests {
    static func planner(espn mirror: URL) -> WatchPlanner {
        WatchPlanner(
            nhl: APIClient(service: .nhl, base: "file://\(TestPaths.mirror.path)/", http: CurlHTTPClient(clock: TestClock()), cache: nil),
            espn: APIClient(service: .espn, base: "file://\(mirror.path)/", http: CurlHTTPClient(clock: TestClock()), cache: nil),
            time: LocalTime(timeZone: .gmt))
    }

    @Test(ESPNRecordings.needed) func aGameOnComesFirstThenTheEarliestNotWatchedYet() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let teams = directory.appendingPathComponent("apis/site/v2/sports/basketball/nba/teams/13")
        try FileManager.default.createDirectory(at: teams, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: ESPNRecordings.directory.appendingPathComponent(ESPNRecordings.lakersPostseason),
            to: teams.appendingPathComponent("schedule"))
        let planner = Self.planner(espn: directory)
        // The Leafs' game on (LIVE in the mirror) comes before anything to come.
        let hockeyDay = try Date("2025-10-25T23:30:00Z", strategy: .iso8601)
        let live = try #require(try await planner.next(of: ["TOR", "nba:LAL"], skipping: [], now: hockeyDay))
        #expect(live.league == .nhl && live.game.id == 2_025_020_119)
        // Watched: the next one to come; a cancelled game never.
        let after = try #require(try await planner.next(of: ["TOR"], skipping: [2_025_020_119], now: hockeyDay))
        #expect(after.game.id == 2_025_020_133)
        // The Lakers' next in May 2026, then the one after; untimed "if necessary" games wait.
        let may = try Date("2026-05-05T12:00:00Z", strategy: .iso8601)
        // (The mirror's Leafs game stays LIVE forever: watched already.)
        let lakers = try #require(try await planner.next(of: ["TOR", "nba:LAL"], skipping: [2_025_020_119], now: may))
        #expect(lakers.league == .nba && lakers.game.id == 401_871_326)
        let second = try await planner.next(of: ["nba:LAL"], skipping: [401_871_326], now: may)
        #expect(second?.game.id == 401_871_327)
        let late = try await planner.next(of: ["nba:LAL"], skipping: [], now: try Date("2026-05-12T09:00:00Z", strategy: .iso8601))
        #expect(late?.game.id == nil)
    }
}
