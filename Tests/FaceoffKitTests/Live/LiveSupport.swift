import Foundation
import Synchronization

@testable import FaceoffDelivery
@testable import FaceoffKit
@testable import FaceoffNHL

/// Finished games cut into the snapshots a poller would have seen.
enum Replays {
    /// The feed as it looked after its first `count` plays (the replay code's own view).
    static func prefix(_ feed: PlayByPlay, _ count: Int) -> PlayByPlay {
        ReplayFeed(feed).prefix(count)
    }

    /// Runs a poll schedule (play counts, in the order polled) through a detector.
    static func run(_ feed: PlayByPlay, polls: [Int], detector: inout EventDetector) -> [GameEvent] {
        polls.flatMap { detector.process(GameSnapshot(prefix(feed, $0))).events }
    }

    static func every(_ feed: PlayByPlay) -> [Int] { Array(1...(feed.plays?.count ?? 0)) }

    /// A game replayed play by play, once per test process: its feed, and each event with the
    /// number of plays in the poll that emitted it. Whole-game tests share it, and it is
    /// computed on threads of its own (`OffPoolExecutor`), so 40 games' replays never hold
    /// the cooperative pool that other tests' deadlines run on.
    struct Replayed: Sendable {
        let feed: PlayByPlay
        let emitted: [(plays: Int, event: GameEvent)]
        var events: [GameEvent] { emitted.map(\.event) }
    }

    private static let replayed = Mutex<[URL: Replayed]>([:])

    static func replay(_ url: URL) async throws -> Replayed {
        // Looked up on the off-pool thread, where replays take turns: each game once.
        try await offPool {
            if let known = replayed.withLock({ $0[url] }) { return known }
            let feed = try load(url)
            var detector = EventDetector()
            var emitted: [(plays: Int, event: GameEvent)] = []
            for count in every(feed) {
                emitted += detector.process(GameSnapshot(prefix(feed, count))).events.map { (count, $0) }
            }
            let result = Replayed(feed: feed, emitted: emitted)
            replayed.withLock { $0[url] = result }
            return result
        }
    }

    /// CPU-bound test work on threads of its own.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withTaskExecutorPreference(OffPoolExecutor.shared) { try body() }
    }

    static func load(_ url: URL) throws -> PlayByPlay {
        try JSONDecoder().decode(PlayByPlay.self, from: Data(contentsOf: url))
    }

    /// The recorded play-by-play files (../shared/nhl-api/fixtures and its games/ folder).
    static var recorded: [URL] {
        guard RealFixtures.available else { return [] }
        let folders = [RealFixtures.directory, RealFixtures.directory.appendingPathComponent("games")]
        return folders.flatMap { (try? FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil)) ?? [] }
            .filter { $0.lastPathComponent.hasPrefix("play-by-play_") && $0.pathExtension == "json" }
            .sorted { $0.path < $1.path }
    }

    static var ownGames: [URL] {
        let games = TestPaths.fixtures.appendingPathComponent("games")
        let files = ((try? FileManager.default.contentsOfDirectory(at: games, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasSuffix(".expected.json") }
        let demo = TestPaths.repositoryRoot.appendingPathComponent("Demo/demo-game.json")
        return (files + (FileManager.default.fileExists(atPath: demo.path) ? [demo] : [])).sorted { $0.path < $1.path }
    }
}

/// A sink that hands each event to a closure: the seam where tests watch what the router
/// delivers (the real sinks have tests of their own).
struct RecordingSink: Sink {
    let name: String
    let record: @Sendable (GameEvent) -> Void
    func send(_ event: GameEvent) async -> Delivery {
        record(event)
        return .delivered("")
    }
}
