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
    /// `pattern`) is 404 (and, `impossible`, each later one a game no league has); its base URL.
    static func flaky(_ upstream: String, _ pattern: String, impossible: Bool = false) async throws -> Background {
        let proxy = try Background(
            Checkers.venvPython,
            [CLI.root.appendingPathComponent("Tests/tools/flaky_feed.py").path, upstream, pattern] + (impossible ? ["impossible"] : []),
            environment: ["PATH": "/usr/bin:/bin"])
        try #require(await proxy.wait(timeout: 30) { !$0.isEmpty })
        return proxy
    }

    /// Two replayed NHL games (TOR, MTL) and a replayed NBA game (ORL) under one `run` that
    /// delivers to a signed webhook, each league's feeds behind a `flaky` proxy (the NHL's
    /// only when `nhl`; the NBA's answering impossible games when `impossible`).
    struct MixedRun {
        let processes: [Background]
        let nhlProxy: Background?
        let nbaProxy: Background
        let receiver: WebhookReceiver
        let run: Background

        static func start(_ cli: CLI, nhl flakyNHL: Bool, impossible: Bool) async throws -> MixedRun {
            var processes: [Background] = []
            do {
                let nhl = try await Replays.serveBothGames(cli, speed: 60)
                processes.append(nhl)
                let nba = try Background(
                    CLI.binary.path,
                    ["replay", "--serve", "127.0.0.1:0", NBARunTests.game.path, "--speed", "120", "--start-in", "25"],
                    environment: ["HOME": cli.home.path, "PATH": "/usr/bin:/bin"])
                processes.append(nba)
                try #require(await nba.wait(timeout: 30) { !$0.isEmpty })
                let nhlProxy = flakyNHL ? try await FeedRefusalTests.flaky(nhl.output[0], "play-by-play") : nil
                let nbaProxy = try await FeedRefusalTests.flaky(nba.output[0], "summary", impossible: impossible)
                processes += [nhlProxy, nbaProxy].compactMap { $0 }
                let receiver = try await WebhookReceiver(directory: cli.home, secret: WebhookReceiver.secret)
                processes.append(receiver.process)
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
                        "FACEOFF_API_BASE": nhlProxy?.output[0] ?? nhl.output[0], "FACEOFF_ESPN_BASE": nbaProxy.output[0],
                    ])
                processes.append(run)
                return MixedRun(processes: processes, nhlProxy: nhlProxy, nbaProxy: nbaProxy, receiver: receiver, run: run)
            } catch {
                // Nothing started is left running.
                for process in processes { process.kill() }
                throw error
            }
        }

        func kill() { for process in processes { process.kill() } }
    }

    /// An NBA game whose every summary holds numbers no game has (a 2^62nd quarter, a NaN
    /// clock: they trapped the process, and with it the NHL's games) beside two NHL games in
    /// one `run`: the NBA answers are refused in words, and the NHL games go to their finals.
    @Test func oneLeaguesImpossibleNumbersCostAnotherLeaguesGamesNothing() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let mixed = try await MixedRun.start(cli, nhl: false, impossible: true)
        defer { mixed.kill() }
        let (run, receiver) = (mixed.run, mixed.receiver)
        let finals = try Replays.reference().keys.map { "\($0):final" }
        #expect(
            await eventually(within: .seconds(300)) { finals.allSatisfy(receiver.accepted.contains) },
            "\(run.stderr.suffix(2000))")
        #expect(run.stderr.contains("it gives the game's period as 4611686018427387904"), "\(run.stderr.suffix(2000))")
        #expect(!receiver.accepted.contains { $0.hasPrefix("401585607:") && !$0.contains(":pregame:") })
        // Still running: SIGTERM ends it as usual.
        run.signal(SIGTERM)
        #expect(await run.exit(within: 10) == 0)
    }

    /// Two NHL games and an NBA game in one `run`, each feed's first answer a 404: every game
    /// is watched to its final all the same, each alert once.
    @Test func aFirst404FromEachLeaguesFeedCostsNoGame() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let mixed = try await MixedRun.start(cli, nhl: true, impossible: false)
        defer { mixed.kill() }
        let (run, receiver, nbaProxy) = (mixed.run, mixed.receiver, mixed.nbaProxy)
        let nhlProxy = try #require(mixed.nhlProxy)
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

/// Numbers no game has, in ESPN's answers, through the commands a fan runs: each answer is
/// refused in words (never a trap: SIGILL exited 132 before), the command ends with 1 or 2.
@Suite(
    "impossible numbers, the binary", .timeLimit(.minutes(5)),
    .enabled(if: NBACommandTests.enabled, "../shared/espn-api/fixtures not present"))
struct ImpossibleNumberTests {
    /// Rewrites the mirror's file at `path` (under the ESPN mirror) with `change`.
    static func edit(_ cli: CLI, _ path: String, _ change: (inout [String: Any]) -> Void) throws {
        let file = cli.home.appendingPathComponent("espn").appendingPathComponent(path)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        change(&json)
        try JSONSerialization.data(withJSONObject: json).write(to: file)
    }

    static func check(_ result: CLI.Result, says words: String) {
        #expect(result.status == 1 || result.status == 2, "exit \(result.status): \(result.stderr)")
        #expect(result.stderr.contains(words), "\(result.stderr)")
        #expect(HostileTests.plain(result.stderr), "\(result.stderr)")
    }

    @Test func aScoreAHeightAndWinsNoGameHasAreRefusedInWords() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let environment = try NBACommandTests.mirror(cli)
        let teams = "apis/site/v2/sports/basketball/nba/teams/13/"
        try Self.edit(cli, teams + "schedule") { json in
            var events = json["events"] as! [[String: Any]]
            var competition = (events[0]["competitions"] as! [[String: Any]])[0]
            var competitors = competition["competitors"] as! [[String: Any]]
            competitors[0]["score"] = ["value": 1e19]
            competition["competitors"] = competitors
            events[0]["competitions"] = [competition]
            json["events"] = events
        }
        Self.check(try await cli.run(["schedule", "nba:LAL"], environment: environment), says: "a score of 1e+19 is not a game's score")
        // doctor no longer says ✓ alone: the schedule run would refuse is named.
        try cli.writeConfig("teams = [\"nba:LAL\"]\n")
        let doctor = try await cli.run(["doctor"], environment: environment)
        #expect(doctor.stdout.contains("✗ ESPN API (NBA): nba:LAL's schedule: "), "\(doctor.stdout)")
        try Self.edit(cli, teams + "roster") { json in
            var athletes = json["athletes"] as! [[String: Any]]
            athletes[0]["height"] = 1e19
            json["athletes"] = athletes
        }
        Self.check(try await cli.run(["roster", "nba:LAL"], environment: environment), says: "it gives a player's height as 1e+19")
        try Self.edit(cli, "apis/v2/sports/basketball/nba/standings") { json in
            var children = json["children"] as! [[String: Any]]
            var standings = children[0]["standings"] as! [String: Any]
            var entries = standings["entries"] as! [[String: Any]]
            entries[0]["stats"] = [["name": "wins", "value": 9.3e18]]
            standings["entries"] = entries
            children[0]["standings"] = standings
            json["children"] = children
        }
        Self.check(
            try await cli.run(["standings", "--league", "nba"], environment: environment), says: "it gives a team's wins as 9.3e+18")
    }

    /// A recorded game whose play clock reads NaN, inf or 19 digits, or whose quarter is 2^62:
    /// `replay` refuses the file in words (a 2^62 quarter hung it; a hang meets the time limit).
    @Test(arguments: [("clock", "NaN"), ("clock", "inf"), ("clock", "9223372036854775807:00"), ("period", "4611686018427387904")])
    func aReplayOfAnImpossibleGameIsRefused(field: String, value: String) async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let recording = NBACommandTests.recordings.appendingPathComponent("summary_nba_401585607_final_tor_at_orl_20240317.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: recording)) as? [String: Any])
        var plays = json["plays"] as! [[String: Any]]
        plays[plays.count / 2][field] = field == "clock" ? ["displayValue": value] : ["number": Int(value)!]
        json["plays"] = plays
        let file = cli.home.appendingPathComponent("game.json")
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        // A hang (the 2^62 quarter's) would meet the suite's time limit; the refusal is the point.
        let result = try await cli.run(["replay", file.path, "--speed", "0"], environment: FanMirror.environment)
        Self.check(result, says: "is not a game ESPN could give: it gives a play's")
    }
}

/// A recorded game with more plays than any game has (`Plausible.plays`): `replay`, whose
/// every step reads the plays so far, refuses the file in words at once instead of working
/// through it for minutes.
@Suite("a game with too many plays, the binary", .timeLimit(.minutes(2)))
struct TooManyPlaysTests {
    static func stretched(_ source: URL, to count: Int, into file: URL, renumber: Bool) throws {
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        let plays = json["plays"] as! [[String: Any]]
        json["plays"] = (0..<count).map { index -> [String: Any] in
            var play = plays[index % plays.count]
            if renumber {
                play["eventId"] = 100_000 + index
                play["sortOrder"] = index
            }
            return play
        }
        try JSONSerialization.data(withJSONObject: json).write(to: file)
    }

    @Test func anNHLGameOfTwoThousandAndOnePlaysIsRefused() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let file = cli.home.appendingPathComponent("game.json")
        try Self.stretched(URL(fileURLWithPath: AlertCommandTests.overtimeGame), to: 2_001, into: file, renumber: true)
        let result = try await cli.run(["replay", file.path, "--speed", "0"])
        ImpossibleNumberTests.check(result, says: "is not a game the NHL could give: it gives the number of plays as 2001")
    }

    @Test(.enabled(if: NBACommandTests.enabled, "../shared/espn-api/fixtures not present"))
    func anNBAGameOfTwoThousandAndOnePlaysIsRefused() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let file = cli.home.appendingPathComponent("game.json")
        let recording = NBACommandTests.recordings.appendingPathComponent("summary_nba_401585607_final_tor_at_orl_20240317.json")
        try Self.stretched(recording, to: 2_001, into: file, renumber: false)
        let result = try await cli.run(["replay", file.path, "--speed", "0"], environment: FanMirror.environment)
        ImpossibleNumberTests.check(result, says: "is not a game ESPN could give: it gives the number of plays as 2001")
    }
}
