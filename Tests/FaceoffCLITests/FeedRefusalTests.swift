import FaceoffKit
import Foundation
import Testing

/// What a real API sometimes answers, through `faceoff run`, the binary: a CDN edge that says
/// 404 once for a game the schedule lists costs no alert, in either league.
@Suite(
    "run and a feed's 404, the binary", .timeLimit(.minutes(10)),
    .enabled(if: NBACommandTests.enabled, "../shared/espn-api/fixtures not present"),
    .enabled(if: Checkers.standardWebhooks, Checkers.noWebhookChecker))
struct FeedRefusalTests {
    /// A proxy in front of `upstream` whose first answer for each game feed (a path holding
    /// `pattern`) is 404; its base URL.
    static func flaky(_ upstream: String, _ pattern: String) async throws -> Background {
        let proxy = try Background(
            Checkers.venvPython, [CLI.root.appendingPathComponent("Tests/tools/flaky_feed.py").path, upstream, pattern],
            environment: ["PATH": "/usr/bin:/bin"])
        try #require(await proxy.wait(timeout: 30) { !$0.isEmpty })
        return proxy
    }

    /// Two NHL games and an NBA game in one `run`, each feed's first answer a 404: every game
    /// is watched to its final all the same, each alert once.
    @Test func aFirst404FromEachLeaguesFeedCostsNoGame() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let nhl = try await Replays.serveBothGames(cli, speed: 60)
        defer { nhl.kill() }
        let nba = try Background(
            CLI.binary.path,
            ["replay", "--serve", "127.0.0.1:0", NBARunTests.game.path, "--speed", "120", "--start-in", "25"],
            environment: ["HOME": cli.home.path, "PATH": "/usr/bin:/bin"])
        defer { nba.kill() }
        try #require(await nba.wait(timeout: 30) { !$0.isEmpty })
        let nhlProxy = try await Self.flaky(nhl.output[0], "play-by-play")
        defer { nhlProxy.kill() }
        let nbaProxy = try await Self.flaky(nba.output[0], "summary")
        defer { nbaProxy.kill() }
        let receiver = try await WebhookReceiver(directory: cli.home, secret: WebhookReceiver.secret)
        defer { receiver.process.kill() }
        try cli.writeConfig(
            """
            teams = ["TOR", "MTL", "nba:ORL"]
            [watch]
            poll = "2s"
            \(receiver.homeSink)
            """)
        let run = try Background(
            CLI.binary.path, ["run"],
            environment: [
                "HOME": cli.home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "NO_COLOR": "1",
                "FACEOFF_API_BASE": nhlProxy.output[0], "FACEOFF_ESPN_BASE": nbaProxy.output[0],
            ])
        defer { run.kill() }
        let finals = try Replays.reference().keys.map { "\($0):final" } + ["401585607:final"]
        #expect(
            await eventually(within: .seconds(300)) { finals.allSatisfy(receiver.accepted.contains) },
            "\(run.stderr.suffix(2000))")
        // The proxies did answer 404: once per NHL game, once for the NBA game.
        #expect(nhlProxy.stderr.components(separatedBy: "404 for").count - 1 == 2, "\(nhlProxy.stderr)")
        #expect(nbaProxy.stderr.components(separatedBy: "404 for").count - 1 == 1, "\(nbaProxy.stderr)")
        #expect(!run.stderr.contains("stopped watching"))
        let ids = receiver.deduplicated
        #expect(Set(ids).count == ids.count)
        // Every NHL event the engine derives from the plays reached the receiver.
        for (game, expected) in try Replays.reference() {
            let got = ids.filter { $0.hasPrefix("\(game):") && !$0.contains(":pregame:") }
            #expect(got == expected, "game \(game)")
        }
    }
}
