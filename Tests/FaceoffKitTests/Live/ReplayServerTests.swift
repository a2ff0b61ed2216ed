import Foundation
import Testing

@testable import FaceoffKit

@Suite struct ReplayServerTests {
    static func game() throws -> PlayByPlay {
        try Replays.load(TestPaths.mirror.appendingPathComponent("gamecenter/2025020100/play-by-play"))
    }

    @Test func theFeedFollowsTheReplayClock() throws {
        let launch = Date(timeIntervalSince1970: 1_800_000_000)
        let server = ReplayServer(games: [try Self.game()], speed: 60, startDelay: 10, now: launch)
        let replay = ReplayFeed(try Self.game())
        let before = server.feed(replay, at: launch)
        #expect(before.gameState == .pre)
        #expect(before.plays?.isEmpty == true)
        #expect(before.startTime == launch.addingTimeInterval(10))
        // Ten real seconds after the start is ten game minutes at 60×.
        let during = server.feed(replay, at: launch.addingTimeInterval(20))
        #expect(during.gameState == .live)
        #expect((during.plays ?? []).allSatisfy { ReplayFeed.seconds($0.timeInPeriod) ?? 0 <= 600 && $0.periodDescriptor?.number == 1 })
        // Just after the first period's end: the intermission clock runs at the same speed.
        let times = ReplayServer.timeline(replay)
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
        // The watcher must see the game before it starts (a game first seen over gives just
        // its final), so leave a few seconds even on a busy machine.
        let server = ReplayServer(games: [try Self.game()], speed: 4000, startDelay: 4)
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let task = Task { try await server.run(host: "127.0.0.1", port: 0) { continuation.yield($0) } }
        defer { task.cancel() }
        var iterator = stream.makeAsyncIterator()
        let base = try #require(await iterator.next())
        #expect(base.hasSuffix("/v1/"))

        let client = NHLClient(base: base, http: CurlHTTPClient(), cache: nil)

        final class Collected: @unchecked Sendable {
            let lock = NSLock()
            var events: [GameEvent] = []
        }
        let collected = Collected()
        let watcher = GameWatcher(
            gameID: 2025020100, scheduledStart: nil, client: client, ledger: nil, settings: .init(poll: .seconds(2)),
            clock: ContinuousClock(), deliver: { event in collected.lock.withLock { collected.events.append(event) } })
        try await watcher.run()
        var reference = EventDetector()
        let feed = try Self.game()
        let expected = Replays.run(feed, polls: Replays.every(feed), detector: &reference)
        let got = collected.lock.withLock { collected.events }
        let schedule = try await client.fetch(.clubSchedule("TOR")).value
        #expect(schedule.games?.first?.id == 2025020100)
        #expect(schedule.games?.first?.gameState == .off)
        #expect(try await client.fetch(.score()).value.games?.count == 1)
        // Whatever the polls caught, every goal, penalty, period and the final arrive once; on a
        // machine so busy that the first poll came after puck drop, one "joined" summary
        // stands for what came before.
        let key: Set<GameEvent.Kind> = [.goal, .penalty, .periodStart, .periodEnd, .final, .goaliePulled]
        #expect(Set(got.map(\.id)).count == got.count)
        #expect(got.last?.kind == .final)
        #expect(got.allSatisfy { $0.kind == .gameJoined || expected.map(\.id).contains($0.id) })
        if !got.contains(where: { $0.kind == .gameJoined }) {
            #expect(Set(got.filter { key.contains($0.kind) }.map(\.id)) == Set(expected.filter { key.contains($0.kind) }.map(\.id)))
        }
    }
}
