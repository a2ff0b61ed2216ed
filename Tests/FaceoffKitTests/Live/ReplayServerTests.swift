import Foundation
import Testing

@testable import FaceoffAPI
@testable import FaceoffDaemon
@testable import FaceoffDelivery
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL
@testable import FaceoffServer

@Suite(.timeLimit(.minutes(5))) struct ReplayServerTests {
    static func game() throws -> PlayByPlay {
        try Replays.load(TestPaths.mirror.appendingPathComponent("gamecenter/2025020100/play-by-play"))
    }

    @Test func theFeedFollowsTheReplayClock() throws {
        let launch = Date(timeIntervalSince1970: 1_800_000_000)
        let server = NHLReplayAPI(games: [try Self.game()], speed: 60, startDelay: 10, now: { launch })
        let replay = ReplayFeed(try Self.game())
        let before = server.feed(replay, at: launch)
        #expect(before.gameState == .pre)
        #expect(before.plays?.isEmpty == true)
        #expect(before.startTime == launch.addingTimeInterval(10))
        // Ten real seconds after the start is ten game minutes at 60×.
        let during = server.feed(replay, at: launch.addingTimeInterval(20))
        #expect(during.gameState == .live)
        #expect((during.plays ?? []).allSatisfy { GameClockTime.seconds($0.timeInPeriod) ?? 0 <= 600 && $0.periodDescriptor?.number == 1 })
        // Just after the first period's end: the intermission clock runs at the same speed.
        let times = server.timeline(replay)
        let endOfFirst = try #require(replay.plays.firstIndex { $0.typeDescKey == .periodEnd })
        let intermission = server.feed(replay, at: server.start.addingTimeInterval(Double(times[endOfFirst] + 120) / 60))
        #expect(intermission.clock?.inIntermission == true)
        // In real seconds at the replay's speed: (1080 - 120) / 60.
        #expect(intermission.clock?.secondsRemaining == 16)
        let after = server.feed(replay, at: launch.addingTimeInterval(10 + Double(times.last! + 1) / 60))
        #expect(after.gameState == .off)
        #expect(after.plays?.count == replay.count)
    }

    @Test func aWatcherFollowsAServedGameToItsFinal() async throws {
        // The served game and the watcher follow one test clock: each of the watcher's sleeps
        // moves the game on, so the test is the same on a fast or a loaded machine.
        let clock = TestClock()
        let launch = Date(timeIntervalSince1970: 1_800_000_000)
        let time: @Sendable () -> Date = { launch.addingTimeInterval(Double(clock.now.offset.components.seconds)) }
        let server = ReplayServer(apis: [NHLReplayAPI(games: [try Self.game()], speed: 60, startDelay: 30, now: time)], now: time)
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let task = Task { try await server.run(host: "127.0.0.1", port: 0) { continuation.yield($0[0]) } }
        defer { task.cancel() }
        var iterator = stream.makeAsyncIterator()
        let base = try #require(await iterator.next())
        #expect(base.hasSuffix("/v1/"))

        let client = APIClient(service: .nhl, base: base, http: CurlHTTPClient(clock: clock), cache: nil)
        final class Collected: @unchecked Sendable {
            let lock = NSLock()
            var events: [GameEvent] = []
        }
        let collected = Collected()
        let sink = RecordingSink(name: "test") { event in collected.lock.withLock { collected.events.append(event) } }
        let router = AlertRouter(routes: [SinkRoute(sink: sink, filter: SinkFilter(teams: ["BOS", "TOR"]))], ledger: nil, clock: clock)
        let watcher = GameWatcher(
            gameID: 2025020100, scheduledStart: nil, client: client, ledger: nil, settings: .init(poll: .seconds(5)),
            clock: clock, now: time, router: router)
        try await router.serving { try await watcher.run() }
        var reference = EventDetector()
        let feed = try Self.game()
        let expected = Replays.run(feed, polls: Replays.every(feed), detector: &reference)
        let got = collected.lock.withLock { collected.events }
        // Polled from before the start to the final: the pregame alert, then every event, once,
        // in order.
        #expect(got.map(\.id) == ["2025020100:pregame:30"] + expected.map(\.id))
        // Once a minute before the start (but not past it), every 5 s while live.
        #expect(clock.sleeps.first == .seconds(30))
        #expect(clock.sleeps.contains(.seconds(5)))
        let schedule = try await client.fetch(.clubSchedule("TOR")).value
        #expect(schedule.games?.first?.id == 2025020100)
        #expect(schedule.games?.first?.gameState == .off)
        #expect(try await client.fetch(.score()).value.games?.count == 1)
    }
}

/// One address serves every league's recorded games, each as its own API would: the NHL's
/// play-by-play under /v1/, ESPN's summary under its league path, both through Faceoff's
/// clients with their checks.
@Suite(.timeLimit(.minutes(2)), ESPNRecordings.needed) struct OneReplayServerTests {
    @Test func anNHLAndAnNBAGameFromOneAddress() async throws {
        let summary = try Data(
            contentsOf: ESPNRecordings.directory.appendingPathComponent("summary_nba_401585607_final_tor_at_orl_20240317.json"))
        let apis: [any ReplayAPI] = [
            NHLReplayAPI(games: [try ReplayServerTests.game()], speed: 60), try NBAReplayAPI(summaries: [summary], speed: 60),
        ]
        let (stream, continuation) = AsyncStream<[String]>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await ReplayServer(apis: apis).run(host: "127.0.0.1", port: 0) { continuation.yield($0) } }
            var iterator = stream.makeAsyncIterator()
            let bases = try #require(await iterator.next())
            #expect(bases.count == 2 && bases[0].hasSuffix("/v1/") && bases[0].dropLast(3) == bases[1])
            let nhl = APIClient(service: .nhl, base: bases[0], http: CurlHTTPClient(), cache: nil)
            let espn = APIClient(service: .espn, base: bases[1], http: CurlHTTPClient(), cache: nil)
            #expect(try await nhl.fetch(.playByPlay(2025020100)).value.id == 2025020100)
            #expect(try await espn.fetch(.nbaSummary(401_585_607)).value.header?.id == "401585607")
            // Neither league's path, or a game not served: not found, as the APIs would say.
            let missing = await #expect(throws: HTTPError.self) {
                try await CurlHTTPClient().send(HTTPRequest(url: bases[1] + "apis/site/v2/sports/football/nfl/summary?event=1"))
            }
            #expect(missing?.description.contains("404") == true)
            let unknown = await #expect(throws: HTTPError.self) {
                try await CurlHTTPClient().send(HTTPRequest(url: bases[1] + "apis/site/v2/sports/basketball/nba/summary?event=401585608"))
            }
            #expect(unknown?.description.contains("404") == true)
            group.cancelAll()
        }
    }
}
