import FaceoffKit
import FaceoffNHL
import Foundation
import Testing

/// The recorded games the binary's live tests replay, how they are served, and what the
/// engine derives from them (what must reach a sink).
enum Replays {
    /// BOS @ TOR, 1–3, from the project's mirror.
    static let bosAtTor = CLI.mirror.appendingPathComponent("gamecenter/2025020100/play-by-play").path
    /// BOS @ TOR and the demo game (TOR @ MTL: two followed teams), as `run`'s tests serve them.
    static let bothGames = [bosAtTor, CLI.root.appendingPathComponent("Demo/demo-game.json").path]

    /// `faceoff replay --serve` of BOS @ TOR, starting in 20 s (so the first poll is before
    /// puck drop, a pregame, even when the tests beside it keep both cores busy as `run`
    /// starts); at 60x a period lasts 20 s, an intermission 10 s. The process and its API base.
    static func serve(_ cli: CLI) async throws -> (Background, String) {
        let replay = try Background(
            CLI.binary.path,
            ["replay", "--serve", "127.0.0.1:0", bosAtTor, "--speed", "60", "--intermission", "600", "--start-in", "20"],
            environment: ["HOME": cli.home.path, "PATH": "/usr/bin:/bin"])
        try #require(await replay.wait(timeout: 30) { !$0.isEmpty })
        return (replay, replay.output[0])
    }

    /// A `run` or `watch` in the test's home, against `base`.
    static func environment(_ cli: CLI, base: String? = nil) -> [String: String] {
        var environment = ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "NO_COLOR": "1"]
        environment["FACEOFF_API_BASE"] = base
        return environment
    }

    /// What the engine derives from each of `bothGames`, play by play, by game id.
    static func reference() throws -> [Int: [String]] {
        var result: [Int: [String]] = [:]
        for path in bothGames {
            let feed = try JSONDecoder().decode(PlayByPlay.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            let replay = ReplayFeed(feed)
            var detector = EventDetector()
            var ids: [String] = []
            for count in 1...replay.count { ids += detector.process(GameSnapshot(replay.prefix(count))).events.map(\.id) }
            result[feed.id ?? 0] = ids
        }
        return result
    }
}

extension Replays {
    /// `faceoff replay --serve` of both games, starting 25 s from now (time for `run` to start
    /// and poll before puck drop while the tests beside it keep both cores busy); its first
    /// output line is the API base.
    static func serveBothGames(_ cli: CLI, speed: Int) async throws -> Background {
        let replay = try Background(
            CLI.binary.path,
            ["replay", "--serve", "127.0.0.1:0"] + Replays.bothGames + ["--speed", "\(speed)", "--intermission", "60", "--start-in", "25"],
            environment: ["HOME": cli.home.path, "PATH": "/usr/bin:/bin"])
        guard await replay.wait(timeout: 30, until: { !$0.isEmpty }) else {
            replay.kill()
            throw POSIXError(.ETIMEDOUT)
        }
        return replay
    }

    /// A signed webhook receiver, and a config following TOR and MTL (every game of both
    /// replays) with a 2 s poll that posts to it and prints JSON lines.
    static func followBothWithAReceiver(_ cli: CLI) async throws -> WebhookReceiver {
        let receiver = try await WebhookReceiver(directory: cli.home, secret: WebhookReceiver.secret)
        try cli.writeConfig(
            """
            teams = ["TOR", "MTL"]
            [watch]
            poll = "2s"
            \(receiver.homeSink)
            [[sink]]
            type = "stdout"
            format = "jsonl"
            """)
        return receiver
    }
}

/// The APIs' real recorded answers beside the repository (../shared).
enum Recordings {
    /// ESPN's, for the NBA, in ../shared/espn-api/fixtures.
    static let espn = shared.appendingPathComponent("espn-api/fixtures")
    static let nhl = shared.appendingPathComponent("nhl-api/fixtures")
    /// `../shared` beside the repository, or the folder `FACEOFF_TEST_SHARED` names (CI points
    /// it at a missing one to prove that every test reading the recordings is skipped without them).
    static let shared: URL = {
        if let path = ProcessInfo.processInfo.environment["FACEOFF_TEST_SHARED"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return CLI.root.deletingLastPathComponent().appendingPathComponent("shared", isDirectory: true)
    }()
    /// Present, or required (FACEOFF_TEST_ALL: a missing folder fails the tests that read it).
    static let nhlAvailable = Checkers.all || FileManager.default.fileExists(atPath: nhl.path)
}

/// The fan commands' world: the project's file:// mirror, the clock pinned to Saturday
/// 2025-10-25 20:00 UTC (TOR is playing in Buffalo that evening).
enum FanMirror {
    static let environment = [
        "FACEOFF_API_BASE": "file://\(CLI.mirror.path)/",
        "FACEOFF_NOW": "2025-10-25T20:00:00Z",
        "TZ": "America/Toronto",
    ]
}
