import Foundation
import Synchronization
import Testing

@testable import FaceoffAPI
@testable import FaceoffDaemon
@testable import FaceoffDelivery
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL
@testable import FaceoffStore

/// The watcher against a loopback server that plays a finished game forward a few plays per
/// request, on a test clock (sleeps return at once and are recorded), with a real store.
@Suite(.timeLimit(.minutes(5))) struct GameWatcherTests {
    final class Feed: Sendable {
        let replay: ReplayFeed
        let step: Int
        private let position: Mutex<Int>

        init(_ feed: PlayByPlay, start: Int = 0, step: Int = 3) {
            replay = ReplayFeed(feed)
            self.step = step
            position = Mutex(start)
        }

        /// The next snapshot's JSON; the game advances with every request (the first one
        /// shows the game as it is at `start`: before puck drop when that is 0).
        func next() -> [UInt8] {
            let count = position.withLock { value in
                defer { value = min(replay.count, value + step) }
                return value
            }
            return Array((try? JSONEncoder().encode(replay.prefix(count))) ?? Data())
        }

        /// The game moves `plays` plays on at once, as it does while nobody watches.
        func skip(_ plays: Int) { position.withLock { $0 = min(replay.count, $0 + plays) } }
    }

    final class Delivered: Sendable {
        private let events = Mutex<[(GameEvent, Duration)]>([])
        func add(_ event: GameEvent, at time: Duration) { events.withLock { $0.append((event, time)) } }
        var all: [GameEvent] { events.withLock { $0.map(\.0) } }
        var times: [Duration] { events.withLock { $0.map(\.1) } }
    }

    static func game() throws -> PlayByPlay {
        try Replays.load(TestPaths.mirror.appendingPathComponent("gamecenter/2025020100/play-by-play"))
    }

    struct Setup {
        let server: LoopbackHTTPServer
        let store: Store
        let directory: URL
        let clock = TestClock()

        init(_ feed: Feed, onRequest: @escaping @Sendable (Int) -> Void = { _ in }) throws {
            let requests = Mutex(0)
            try self.init { _ in
                onRequest(
                    requests.withLock {
                        $0 += 1
                        return $0
                    })
                return .response(status: 200, headers: [("Content-Type", "application/json")], body: feed.next())
            }
        }

        init(handler: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply) throws {
            server = try LoopbackHTTPServer(handler: handler)
            directory = try TestPaths.temporaryDirectory()
            store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
        }

        /// A watcher delivering through a router to one recording sink named `sink`.
        func watcher(
            _ delivered: Delivered, delay: Duration = .zero, sink: String = "stdout", series: SeriesState? = nil, start: Date? = nil,
            now: @escaping @Sendable () -> Date = { Date() },
            onDeliver: @escaping @Sendable (GameEvent, AlertRouter<TestClock>) -> Void = { _, _ in }
        ) -> Watch {
            let client = APIClient(
                service: .nhl, base: server.baseURL + "/v1/", http: CurlHTTPClient(clock: clock), cache: ResponseCache(store: store))
            let clock = clock
            let routerBox = Mutex<AlertRouter<TestClock>?>(nil)
            let recording = RecordingSink(name: sink) { event in
                delivered.add(event, at: clock.now.offset)
                if let router = routerBox.withLock({ $0 }) { onDeliver(event, router) }
            }
            let router = AlertRouter(
                routes: [SinkRoute(sink: recording, filter: SinkFilter(teams: ["BOS", "TOR"]), delay: delay)],
                ledger: Ledger(store: store), clock: clock)
            routerBox.withLock { $0 = router }
            let watcher = GameWatcher(
                gameID: 2025020100, scheduledStart: start, client: client, ledger: Ledger(store: store),
                settings: .init(poll: .seconds(5), delay: delay), clock: clock, now: now, router: router, series: series)
            return Watch(watcher: watcher, router: router)
        }

        func close() {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// A watcher and its router: `run` returns once the game's alerts are all delivered.
    struct Watch: Sendable {
        let watcher: GameWatcher<TestClock, NHLGame>
        let router: AlertRouter<TestClock>
        func run() async throws {
            try await router.serving { try await watcher.run() }
        }
    }

    static func reference() throws -> [String] {
        var detector = EventDetector()
        let feed = try game()
        return Replays.run(feed, polls: Replays.every(feed), detector: &detector).map(\.id)
    }

    @Test func watchesAGameToItsFinalAndEachEventOnce() async throws {
        let setup = try Setup(Feed(try Self.game()))
        defer { setup.close() }
        let delivered = Delivered()
        try await setup.watcher(delivered).run()
        #expect(delivered.all.map(\.id) == (try Self.reference()))
        #expect(delivered.all.last?.kind == .final)
        // Polled every 5 s while live.
        #expect(setup.clock.sleeps.filter { $0 == .seconds(5) }.count >= 5)
        #expect(setup.clock.sleeps.allSatisfy { $0 >= .seconds(5) })
    }

    @Test(arguments: [Duration.zero, .seconds(30)])
    func aRestartMidGameNeitherRepeatsNorLoses(delay: Duration) async throws {
        let feed = Feed(try Self.game(), step: 2)
        let setup = try Setup(feed)
        defer { setup.close() }
        let delivered = Delivered()
        // The process dies after the sixth alert, with more detected and (with a delay) waiting.
        let watching = Mutex<Task<Void, any Error>?>(nil)
        let first = Task { [setup] in
            try await setup.watcher(
                delivered, delay: delay,
                onDeliver: { _, router in
                    // Dies at once: nothing more is claimed or sent.
                    if delivered.all.count == 6 { watching.withLock { $0?.cancel() } }
                }
            ).run()
        }
        watching.withLock { $0 = first }
        if delivered.all.count >= 6 { first.cancel() }
        _ = try? await first.value
        #expect(delivered.all.count == 6)
        #expect(delivered.all.count < (try Self.reference()).count)
        try await setup.watcher(delivered, delay: delay).run()
        #expect(delivered.all.map(\.id) == (try Self.reference()))
        // The ledger saw each once.
        #expect(try Ledger(store: setup.store).claimedIDs(gameID: 2025020100, sink: "stdout") == (try Self.reference()))
    }

    @Test func twoWatchersOnOneStoreSendEachAlertOnce() async throws {
        let setup = try Setup(Feed(try Self.game(), step: 1))
        defer { setup.close() }
        let delivered = Delivered()
        async let one: Void = setup.watcher(delivered).run()
        async let two: Void = setup.watcher(delivered).run()
        _ = try await (one, two)
        #expect(delivered.all.map(\.id).sorted() == (try Self.reference()).sorted())
    }

    /// A real goal gone from the live feed for four 2-second polls (the score down by one),
    /// then back. The feed is served with ETags, so the polls that see the same feed again
    /// are answered 304: they count as polls that saw the goal missing all the same.
    @Test func aGoalThatVanishesAndComesBackIsOverturnedThenReinstated() async throws {
        let feed = try Self.game()
        let replay = ReplayFeed(feed)
        let goalIndex = try #require(replay.plays.firstIndex { $0.typeDescKey == .goal })
        let withGoal = replay.prefix(goalIndex + 1)
        var without = withGoal
        let goalID = try #require(replay.plays[goalIndex].eventId)
        without.plays?.removeAll { $0.eventId == goalID }
        if replay.plays[goalIndex].details?.eventOwnerTeamId == feed.homeTeam?.id {
            without.homeTeam?.score = (withGoal.homeTeam?.score ?? 1) - 1
        } else {
            without.awayTeam?.score = (withGoal.awayTeam?.score ?? 1) - 1
        }
        // The feed each poll finds: the goal is the newest play when it disappears.
        let script = [replay.prefix(1), replay.prefix(goalIndex), withGoal, without, without, without, without, withGoal, feed]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let bodies = try script.map { Array(try encoder.encode($0)) }
        let position = Mutex(0)
        let notModified = Mutex(0)
        let setup = try Setup { request in
            let index = position.withLock { value in
                defer { value = min(bodies.count - 1, value + 1) }
                return value
            }
            // The same body as the poll before has the same ETag.
            let tag = "\"\(bodies[...index].lastIndex { $0 != bodies[index] }.map { $0 + 1 } ?? 0)\""
            if request.headers["if-none-match"] == tag {
                notModified.withLock { $0 += 1 }
                return .response(status: 304, headers: [("ETag", tag)])
            }
            return .response(status: 200, headers: [("Content-Type", "application/json"), ("ETag", tag)], body: bodies[index])
        }
        defer { setup.close() }
        let delivered = Delivered()
        try await setup.watcher(delivered).run()
        let about = delivered.all.filter { $0.id.hasSuffix(":\(goalID)") }.map(\.kind)
        #expect(about == [.goal, .goalOverturned, .goalReinstated])
        #expect(notModified.withLock { $0 } >= 3)
        let reinstated = try #require(delivered.all.first { $0.kind == .goalReinstated })
        #expect(reinstated.id == "2025020100:goal_reinstated:\(goalID)")
        #expect(reinstated.score == GameEvent.Score(away: withGoal.awayTeam?.score ?? -1, home: withGoal.homeTeam?.score ?? -1))
        #expect(delivered.all.last?.kind == .final)
    }

    /// A playoff game 5 with TOR up 3–1: the start says so, the final says the series is won,
    /// in the text and in the event JSON, which its schema allows.
    @Test func aPlayoffGamesStartAndFinalSayTheSeries() async throws {
        let setup = try Setup(Feed(try Self.game()))
        defer { setup.close() }
        let delivered = Delivered()
        let before = SeriesState(
            round: 1, abbrev: "R1", letter: "A", gameNumber: 5, top: "TOR", bottom: "BOS", topWins: 3, bottomWins: 1, neededToWin: 4,
            ifNecessary: false, notNeeded: false)
        // Watched from 10 minutes before the start (the pregame lead is 30).
        let now = Date()
        try await setup.watcher(delivered, series: before, start: now.addingTimeInterval(600), now: { now }).run()
        let pregame = try #require(delivered.all.first)
        #expect(pregame.kind == .pregame && pregame.id == "2025020100:pregame:30" && pregame.details["minutes_before"] == "10")
        #expect(Renderer.builtIn.text(pregame).body == "Game 5 · TOR leads 3–1 · starts in 10 min")
        #expect(delivered.all.filter { $0.kind == .pregame }.count == 1)
        let start = try #require(delivered.all.first { $0.kind == .gameStart })
        #expect(start.series?.game == 5 && start.series?.text == "TOR leads 3–1")
        #expect(Renderer.builtIn.text(start).body == "Game 5 · TOR leads 3–1 · BOS 0–0 TOR")
        let final = try #require(delivered.all.first { $0.kind == .final })
        #expect(final.series?.topWins == 4 && final.series?.winner == "TOR")
        #expect(
            Renderer.builtIn.text(final).body.hasPrefix("BOS 1–3 TOR · Maple Leafs win the series 4–1"),
            "\(Renderer.builtIn.text(final).body)")
        // Other kinds carry no series.
        #expect(delivered.all.filter { $0.series != nil }.map(\.kind) == [.pregame, .gameStart, .final])
        let json = EventJSON(final, text: Renderer.builtIn.text(final)).encoded()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let series = try #require(object["series"] as? [String: Any])
        #expect(
            series["game"] as? Int == 5 && series["topWins"] as? Int == 4 && series["bottomWins"] as? Int == 1
                && series["neededToWin"] as? Int == 4)
    }

    /// Seeds unknown (game 1 of a series): the winner of a tied series leads it.
    /// A game moved later while no process watched (reminded, then a restart): the new
    /// process reminds again for the new start; a move of a minute is no news.
    @Test func aGameMovedBeforeARestartIsRemindedAgain() async throws {
        let feed = Mutex(Feed(try Self.game()))
        let setup = try Setup { _ in
            .response(status: 200, headers: [("Content-Type", "application/json")], body: feed.withLock { $0 }.next())
        }
        defer { setup.close() }
        let first = Date(timeIntervalSince1970: 1_800_000_000)
        let before = Delivered()
        try await setup.watcher(before, start: first.addingTimeInterval(1740), now: { first }).run()
        #expect(before.all.first?.id == "2025020100:pregame:30")
        // Ten minutes later, a new process: the game moved a minute later, then eight.
        let restarted = first.addingTimeInterval(600)
        for (move, expected) in [(60.0, [String]()), (480, ["2025020100:pregame:30-\(1_800_000_000 + 1740 + 480)"])] {
            feed.withLock { $0 = Feed(try! Self.game()) }
            let after = Delivered()
            try await setup.watcher(after, start: first.addingTimeInterval(1740 + move), now: { restarted }).run()
            #expect(after.all.filter { $0.kind == .pregame }.map(\.id) == expected, "moved \(move) s")
            #expect(!after.all.contains { $0.kind == .goal }, "the game's alerts went out before")
        }
    }

    @Test func aTiedSeriesWithUnknownSeedsIsLedByTheWinner() {
        let first = SeriesState(
            round: 1, abbrev: "R1", letter: "C", gameNumber: 1, top: nil, bottom: nil, topWins: 0, bottomWins: 0, neededToWin: 4,
            ifNecessary: false, notNeeded: false)
        #expect(first.text == "series tied 0–0")
        #expect(first.after(winner: "WSH")?.text == "WSH leads 1–0")
        #expect(first.after(winner: "WSH")?.after(winner: "MTL")?.text == "series tied 1–1")
        // Not tied and no seeds: who leads can't be told, so nothing is counted.
        var untied = first
        untied.topWins = 2
        untied.bottomWins = 1
        #expect(untied.after(winner: "MTL") == nil)
    }

    @Test func aGameFirstSeenInProgressGivesOneSummary() async throws {
        let game = try Self.game()
        let setup = try Setup(Feed(game, start: (game.plays?.count ?? 0) / 2))
        defer { setup.close() }
        let delivered = Delivered()
        try await setup.watcher(delivered).run()
        #expect(delivered.all.first?.kind == .gameJoined)
        #expect(!delivered.all.contains { $0.kind == .gameStart })
        #expect(delivered.all.last?.kind == .final)
        let reference = try Self.reference()
        // Everything after the join, nothing from before it.
        #expect(delivered.all.dropFirst().allSatisfy { reference.contains($0.id) })
        #expect(delivered.all.count < reference.count)
    }

    /// A laptop suspended mid-game (or a long outage, or the clock set forward): the wall
    /// clock moves an hour between two polls while the game moves a period on. What happened
    /// in the last 5 minutes of play is alerted as usual; everything older is one summary, a
    /// new one for each gap; nothing is repeated and the final goes out.
    @Test func aGapInWatchingFoldsWhatItMissedIntoOneSummary() async throws {
        let feed = Feed(try Self.game(), step: 1)
        let wall = Mutex(Date(timeIntervalSince1970: 1_761_000_000))
        let setup = try Setup(feed) { request in
            // Each poll is 5 s of wall time; two come after an hour away: the first jumps from
            // the 1st period's 5th minute to the 2nd's 7th, the second from the 2nd
            // intermission to the 3rd's 19th minute.
            wall.withLock { $0 = $0.addingTimeInterval(request == 4 || request == 7 ? 3600 : 5) }
            if request == 4 { feed.skip(8) }
            if request == 7 { feed.skip(4) }
        }
        defer { setup.close() }
        let delivered = Delivered()
        try await setup.watcher(delivered, now: { wall.withLock { $0 } }).run()
        let reference = try Self.reference()
        let ids = delivered.all.map(\.id)
        let summaries = delivered.all.filter { $0.details["caught_up"] == "true" }
        #expect(summaries.count == 2, "\(ids)")
        #expect(Set(summaries.map(\.id)).count == 2)
        #expect(summaries.allSatisfy { $0.kind == .gameJoined && $0.details["missed"]?.isEmpty == false })
        // Everything else is the reference's, once, in its order, and ends with the final.
        let rest = ids.filter { id in !summaries.contains { $0.id == id } && !id.hasSuffix(":pregame:30") }
        #expect(rest == reference.filter(rest.contains))
        #expect(Set(rest).count == rest.count)
        #expect(delivered.all.last?.kind == .final)
        // Exactly: the 1st period's penalty, power play (its start and its end, when the penalty
        // ran out in the 1st), goal and end and the 2nd's start fall more than 5 minutes of play
        // before the 2nd's 6:30 goal; the 3rd's start, before 18:47.
        #expect(
            ids
                == [
                    "2025020100:pregame:30", "2025020100:game_start", "2025020100:period_start:1", summaries.first?.id,
                    "2025020100:goal:150", "2025020100:goal:171", "2025020100:period_end:2", summaries.last?.id,
                    "2025020100:goalie_pulled:236", "2025020100:goal:244", "2025020100:period_end:3", "2025020100:final",
                ].compactMap { $0 })
        #expect(summaries.first?.details["missed"] == "1 goal, 1 penalty, 4 other alerts")
        let line = Renderer.builtIn.line(try #require(summaries.first))
        #expect(line.hasPrefix("Caught up on BOS @ TOR") && line.contains("missed 1 goal, 1 penalty, 4 other alerts"), "\(line)")
        // The folded ones are passed over in the ledger, so no later run sends them.
        let claimed = try Ledger(store: setup.store).claimedIDs(gameID: 2025020100, sink: "stdout")
        #expect(Set(reference).isSubset(of: Set(claimed)))
    }

    /// Gaps under 5 minutes (a 30 s stall, a minute offline) fold nothing.
    @Test func aShortGapFoldsNothing() async throws {
        let feed = Feed(try Self.game(), step: 1)
        let wall = Mutex(Date(timeIntervalSince1970: 1_761_000_000))
        let setup = try Setup(feed) { request in
            wall.withLock { $0 = $0.addingTimeInterval(request == 4 ? 240 : 5) }
            if request == 4 { feed.skip(8) }
        }
        defer { setup.close() }
        let delivered = Delivered()
        try await setup.watcher(delivered, now: { wall.withLock { $0 } }).run()
        // The game starts 20 minutes after this wall clock's first poll: the pregame alert first.
        #expect(delivered.all.map(\.id) == ["2025020100:pregame:30"] + (try Self.reference()))
    }

    @Test func theBroadcastDelayHoldsEveryAlert() async throws {
        let setup = try Setup(Feed(try Self.game(), step: 4))
        defer { setup.close() }
        let delivered = Delivered()
        try await setup.watcher(delivered, delay: .seconds(30)).run()
        #expect(delivered.all.map(\.id) == (try Self.reference()))
        // The first poll happens at 0 s: nothing goes out before 30 s.
        #expect(delivered.times.allSatisfy { $0 >= .seconds(30) })
        #expect(delivered.times == delivered.times.sorted())
    }

    /// The same gap, with the 1st period's goal already delivered by another process on this
    /// store (a `run` beside the `watch`): the summary doesn't count it as missed.
    @Test func aSummaryCountsOnlyWhatWasNotDeliveredElsewhere() async throws {
        let feed = Feed(try Self.game(), step: 1)
        let wall = Mutex(Date(timeIntervalSince1970: 1_761_000_000))
        let setup = try Setup(feed) { request in
            wall.withLock { $0 = $0.addingTimeInterval(request == 4 ? 3600 : 5) }
            if request == 4 { feed.skip(8) }
        }
        defer { setup.close() }
        let ledger = Ledger(store: setup.store)
        for id in try Self.reference() where id.contains(":goal:") {
            let key = String(id.split(separator: ":").last ?? "")
            _ = try await ledger.claim(
                GameEvent(kind: .goal, key: key, gameId: 2025020100, away: "BOS", home: "TOR", score: .init(away: 0, home: 0)),
                sink: "elsewhere")
        }
        let delivered = Delivered()
        try await setup.watcher(delivered, now: { wall.withLock { $0 } }).run()
        let summary = try #require(delivered.all.first { $0.details["caught_up"] == "true" })
        #expect(summary.details["missed"] == "1 penalty, 4 other alerts", "\(summary.details)")
    }

    /// Two reminders (`pregame = ["1h", "10m"]`): each once, at its moment (up to a minute
    /// early: polls before a game are a minute apart), keyed by its lead; a watch begun after
    /// both moments says the nearer one only.
    @Test func eachReminderOnceAtItsMoment() throws {
        let start = Date(timeIntervalSince1970: 1_764_000_000)
        let watcher = GameWatcher(
            gameID: 2025020100, scheduledStart: start, client: APIClient(service: .nhl, http: CurlHTTPClient(), cache: nil), ledger: nil,
            settings: .init(poll: .seconds(5), reminders: [.seconds(3600), .seconds(600)]), clock: TestClock(),
            router: AlertRouter(routes: [], ledger: nil, clock: TestClock()))
        var feed = PlayByPlay()
        feed.id = 2025020100
        feed.gameState = .fut
        let snapshot = GameSnapshot(feed)
        var sent: Set<Int> = []
        func at(minutes: Double) -> String? {
            guard let (event, covered) = watcher.reminder(snapshot, at: start.addingTimeInterval(-minutes * 60), sent: sent) else {
                return nil
            }
            sent.formUnion(covered)
            return "\(event.id) \(event.details["minutes_before"] ?? "?")"
        }
        #expect(at(minutes: 65) == nil)
        #expect(at(minutes: 60.5) == "2025020100:pregame:60 61")
        #expect(at(minutes: 59) == nil)
        #expect(at(minutes: 30) == nil)
        #expect(at(minutes: 10) == "2025020100:pregame:10 10")
        #expect(at(minutes: 5) == nil)
        // Begun 5 minutes before: the 10-minute reminder alone, the hour's passed over.
        sent = []
        #expect(at(minutes: 5) == "2025020100:pregame:10 5")
        #expect(sent == [3600, 600])
        // A lead of 90 s and one of a minute are two reminders, with two ids.
        let close = GameWatcher(
            gameID: 2025020100, scheduledStart: start, client: APIClient(service: .nhl, http: CurlHTTPClient(), cache: nil), ledger: nil,
            settings: .init(poll: .seconds(5), reminders: [.seconds(90), .seconds(60)]), clock: TestClock(),
            router: AlertRouter(routes: [], ledger: nil, clock: TestClock()))
        let early = close.reminder(snapshot, at: start.addingTimeInterval(-140), sent: [])
        let late = close.reminder(snapshot, at: start.addingTimeInterval(-30), sent: [90])
        #expect(early?.event.id == "2025020100:pregame:90s" && late?.event.id == "2025020100:pregame:1")
        // Leads a minute apart (3 and 2 minutes): each said at its own time, not the second
        // passed over by the first's minute of slack.
        let apart = GameWatcher(
            gameID: 2025020100, scheduledStart: start, client: APIClient(service: .nhl, http: CurlHTTPClient(), cache: nil), ledger: nil,
            settings: .init(poll: .seconds(5), reminders: [.seconds(180), .seconds(120)]), clock: TestClock(),
            router: AlertRouter(routes: [], ledger: nil, clock: TestClock()))
        let three = try #require(apart.reminder(snapshot, at: start.addingTimeInterval(-170), sent: []))
        #expect(three.event.id == "2025020100:pregame:3" && three.covered == [180])
        let two = try #require(apart.reminder(snapshot, at: start.addingTimeInterval(-110), sent: [180]))
        #expect(two.event.id == "2025020100:pregame:2" && two.covered == [120])
        // After a move, the reminder's id names the new start, so the ledger takes it as news.
        let again = apart.reminder(snapshot, at: start.addingTimeInterval(-110), sent: [], moved: true)
        #expect(again?.event.id == "2025020100:pregame:2-\(Int64(start.timeIntervalSince1970))")
        // The game under way: none.
        feed.gameState = .live
        #expect(watcher.reminder(GameSnapshot(feed), at: start.addingTimeInterval(-60), sent: []) == nil)
    }

    @Test func pollingSlowsDownInIntermissionsButNotBelowOnceAMinute() {
        let watcher = GameWatcher(
            gameID: 1, scheduledStart: nil, client: APIClient(service: .nhl, http: CurlHTTPClient(), cache: nil), ledger: nil,
            settings: .init(poll: .seconds(5)), clock: TestClock(), router: AlertRouter(routes: [], ledger: nil, clock: TestClock()))
        var feed = PlayByPlay()
        feed.gameState = .live
        feed.clock = GameClock(timeRemaining: "17:00", secondsRemaining: 1020, running: false, inIntermission: true)
        // Once a minute, so the intermission clock on the scoreboard keeps moving...
        #expect(watcher.nextPoll(GameSnapshot(feed)) == .seconds(60))
        feed.clock = GameClock(timeRemaining: "03:00", secondsRemaining: 180, running: false, inIntermission: true)
        #expect(watcher.nextPoll(GameSnapshot(feed)) == .seconds(60))
        // ...and at the usual rate in its last minute and a half.
        feed.clock = GameClock(timeRemaining: "01:20", secondsRemaining: 80, running: false, inIntermission: true)
        #expect(watcher.nextPoll(GameSnapshot(feed)) == .seconds(5))
        // ...or once its clock stands still from one poll to the next.
        feed.clock = GameClock(timeRemaining: "09:00", secondsRemaining: 540, running: false, inIntermission: true)
        #expect(watcher.nextPoll(GameSnapshot(feed), breakClockBefore: 600) == .seconds(60))
        #expect(watcher.nextPoll(GameSnapshot(feed), breakClockBefore: 540) == .seconds(5))
        feed.clock = GameClock(timeRemaining: "12:00", secondsRemaining: 720, running: true, inIntermission: false)
        #expect(watcher.nextPoll(GameSnapshot(feed)) == .seconds(5))
    }

    @Test func aLateStartIsPolledAtTheLiveRate() {
        let now = Date()
        func watcher(start: Date?) -> GameWatcher<TestClock, NHLGame> {
            GameWatcher(
                gameID: 1, scheduledStart: start, client: APIClient(service: .nhl, http: CurlHTTPClient(), cache: nil), ledger: nil,
                settings: .init(poll: .seconds(5)), clock: TestClock(), now: { now },
                router: AlertRouter(routes: [], ledger: nil, clock: TestClock()))
        }
        var feed = PlayByPlay()
        feed.gameState = .pre
        // Before the start: once a minute, never past it.
        #expect(watcher(start: now.addingTimeInterval(600)).nextPoll(GameSnapshot(feed)) == .seconds(60))
        #expect(watcher(start: now.addingTimeInterval(20)).nextPoll(GameSnapshot(feed)) == .seconds(20))
        // Past the scheduled time and still not started (puck drop runs late): every poll.
        #expect(watcher(start: now.addingTimeInterval(-120)).nextPoll(GameSnapshot(feed)) == .seconds(5))
    }

    /// A game is marked seen at its first poll, before any alert is claimed: a restart while
    /// the first alerts wait out a delay sends them rather than a "joined" summary.
    @Test func theFirstPollMarksTheGameSeen() async throws {
        let setup = try Setup(Feed(try Self.game(), step: 40))
        defer { setup.close() }
        let ledger = Ledger(store: setup.store)
        #expect(try !ledger.hasEvents(gameID: 2025020100))
        let client = APIClient(
            service: .nhl, base: setup.server.baseURL + "/v1/", http: CurlHTTPClient(clock: setup.clock),
            cache: ResponseCache(store: setup.store))
        // A router with no sinks claims nothing: only the watcher's own mark can say "seen".
        let watcher = GameWatcher(
            gameID: 2025020100, scheduledStart: nil, client: client, ledger: ledger, settings: .init(poll: .seconds(5)), clock: setup.clock,
            router: AlertRouter(routes: [], ledger: ledger, clock: setup.clock))
        try await watcher.run()
        #expect(try ledger.hasEvents(gameID: 2025020100))
        #expect(try ledger.claimedIDs(gameID: 2025020100, sink: "stdout").isEmpty)
    }
}
