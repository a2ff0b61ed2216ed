import FaceoffBase
import FaceoffFan
import FaceoffKit
import FaceoffNHL
import Foundation
import Testing

/// `faceoff scores` and `faceoff game`, the binary, on the project's mirror (a live game) and
/// on the recorded answers of ../shared (a day of finals, a regulation and a shootout final
/// with their landing, right-rail and boxscore), laid out as a mirror at test time.
@Suite("scores and box scores, the binary", .timeLimit(.minutes(10))) struct ScoresAndGameTests {
    static let recordings = Recordings.nhl
    /// Missing recordings fail under FACEOFF_TEST_ALL (CI) rather than skip.
    static let enabled = Recordings.nhlAvailable

    /// The project's mirror plus the recorded score, landing, boxscore and right-rail answers.
    static func mirror(_ cli: CLI) throws -> [String: String] {
        let mirror = try cli.copyMirror()
        let files = [
            "score_2025-03-14_all-final.json": "score/2025-03-14",
            "landing_2023020209_SJS-at-VGK_final.json": "gamecenter/2023020209/landing",
            "right-rail_2023020209_SJS-at-VGK_final.json": "gamecenter/2023020209/right-rail",
            "landing_2023020207_CGY-at-TOR_final-shootout.json": "gamecenter/2023020207/landing",
            "boxscore_2023020280_CHI-at-CBJ_final.json": "gamecenter/2023020280/boxscore",
        ]
        for (recording, path) in files {
            let target = mirror.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: recordings.appendingPathComponent(recording), to: target)
        }
        return FanMirror.environment.merging(["FACEOFF_API_BASE": "file://\(mirror.path)/"]) { $1 }
    }

    func run(_ cli: CLI, _ arguments: [String], _ environment: [String: String], columns: Int = 120) async throws -> CLI.Result {
        try await cli.run(arguments, environment: environment.merging(["COLUMNS": String(columns)]) { $1 })
    }

    /// Tonight (the mirror's day): the followed team's live game first, with period, time
    /// left, its power play and TV; the other game final. Times and networks as the user sees
    /// them, at 80 and 120 columns.
    @Test(.enabled(if: enabled, "../shared/nhl-api/fixtures not present"))
    func tonightsGamesFollowedFirstWithTheirState() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let environment = try Self.mirror(cli)
        #expect(try await run(cli, ["follow", "BOS"], environment).status == 0)
        for columns in [80, 120] {
            let scores = try await run(cli, ["scores"], environment, columns: columns)
            #expect(scores.status == 0, "\(scores.stderr)")
            let lines = scores.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "NHL games on Sat Oct 25, 2025")
            #expect(lines.count == 4, "\(scores.stdout)")
            #expect(lines[2].hasPrefix("▸  MTL @ BOS  3–2") && lines[2].contains("Final"), "\(lines)")
            #expect(lines[3].contains("TOR @ BUF  2–1") && lines[3].contains("2nd 08:47 left · TOR PP"), "\(lines)")
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= columns }, "\(scores.stdout)")
        }
        let json = try await run(cli, ["scores", "--json"], environment)
        try SchemaValidator.validate(json.stdout, schema: "scores")
        let report = try JSONDecoder().decode(ScoresReport.self, from: Data(json.stdout.utf8))
        #expect(report.games.map(\.followed) == [true, false])
        let live = try #require(report.games.last)
        #expect(live.status == "live" && live.period == "2nd" && live.clock == "08:47" && live.powerPlay == "TOR" && live.emptyNet.isEmpty)
        #expect(!live.networks.isEmpty)
    }

    /// A team whose name the API left empty (`{}`, `{"default": ""}`) reads as its
    /// abbreviation in `scores`, as it does in `next`, `watch` and `run`, rather than failing
    /// the whole answer.
    @Test func aTeamWithAnEmptyNameIsShownByItsAbbreviation() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let mirror = try cli.copyMirror()
        let environment = FanMirror.environment.merging(["FACEOFF_API_BASE": "file://\(mirror.path)/"]) { $1 }
        let file = mirror.appendingPathComponent("score/now")
        for empty in [[String: Any](), ["default": ""]] {
            var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            var games = json["games"] as! [[String: Any]]
            var away = games[0]["awayTeam"] as! [String: Any]
            away["name"] = empty
            games[0]["awayTeam"] = away
            json["games"] = games
            try JSONSerialization.data(withJSONObject: json).write(to: file)
            let scores = try await run(cli, ["scores"], environment)
            #expect(scores.status == 0, "\(empty): \(scores.stderr)")
            #expect(scores.stdout.contains("MTL @ BOS"), "\(scores.stdout)")
            let json2 = try await run(cli, ["scores", "--json"], environment)
            #expect(json2.status == 0 && json2.stdout.contains("\"MTL\""), "\(json2.stderr)")
        }
    }

    /// A recorded day of finals by --date, with OT; --yesterday is the day before today in
    /// the user's zone (here the mirror's day has no such file: said, exit 1).
    @Test(.enabled(if: enabled, "../shared/nhl-api/fixtures not present"))
    func aPastDayByDate() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let environment = try Self.mirror(cli)
        #expect(try await run(cli, ["follow", "CAR"], environment).status == 0)
        let day = try await run(cli, ["scores", "--date", "2025-03-14"], environment, columns: 80)
        #expect(day.status == 0, "\(day.stderr)")
        let lines = day.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "NHL games on Fri Mar 14, 2025")
        #expect(lines.count == 8)
        #expect(lines[2].hasPrefix("▸  DET @ CAR  2–4") && lines[2].hasSuffix("Final"), "\(lines)")
        #expect(lines.contains { $0.contains("EDM @ NYI  2–1") && $0.contains("Final/OT") }, "\(lines)")
        let json = try await run(cli, ["scores", "--date", "2025-03-14", "--json"], environment)
        try SchemaValidator.validate(json.stdout, schema: "scores")
        // Cached for good: a past day of finals works offline.
        let offline = try await run(cli, ["--offline", "scores", "--date", "2025-03-14"], environment, columns: 80)
        #expect(offline.status == 0 && offline.stdout == day.stdout, "\(offline.stderr)")
        let yesterday = try await run(cli, ["scores", "--yesterday"], environment)
        #expect(yesterday.status == 1 && yesterday.stderr.contains("score/2025-10-24"), "\(yesterday.stderr)")
        #expect(try await run(cli, ["scores", "--date", "2025-02-30"], environment).status == 2)
        #expect(try await run(cli, ["scores", "--date", "2025-03-14", "--yesterday"], environment).status == 2)
    }

    /// A regulation final: goals by period with season totals, assists and strength; shots
    /// by period; power plays; penalties; three stars. The boxscore is not recorded for this
    /// game: the goalies are said to be missing, not made up.
    @Test(.enabled(if: enabled, "../shared/nhl-api/fixtures not present"))
    func aBoxScoreOfARegulationFinal() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let environment = try Self.mirror(cli)
        let game = try await run(cli, ["game", "2023020209"], environment)
        #expect(game.status == 0, "\(game.stderr)")
        let text = game.stdout
        #expect(text.hasPrefix("SJS 0–5 VGK · Final\n"), "\(text.prefix(200))")
        #expect(text.contains("3rd  02:24  VGK   W. Karlsson (8) from J. Eichel (9), A. Pietrangelo (7)     SH    0–3"), "\(text)")
        #expect(text.contains("SJS      6    6    8     20"), "\(text)")
        #expect(text.contains("Power plays: SJS 0/4, VGK 0/0"))
        #expect(text.contains("1. A. Martinez (VGK) · 2 G, 0 A"))
        #expect(text.contains("Not shown: goalies (the boxscore answer:"), "\(text)")
        #expect(!text.contains("SV%  "), "no goalie table without the boxscore")
        let json = try await run(cli, ["game", "2023020209", "--json"], environment)
        try SchemaValidator.validate(json.stdout, schema: "game")
        let report = try JSONDecoder().decode(BoxScoreReport.self, from: Data(json.stdout.utf8))
        #expect(report.goals?.count == 5 && report.goalies == nil && report.penalties?.count == 6)
        #expect(report.shotsByPeriod?.map(\.home) == [15, 13, 11])
        // Kept for good: the same offline (what was missing is missing for another reason).
        let offline = try await run(cli, ["--offline", "game", "2023020209"], environment)
        func shown(_ text: String) -> String { text.components(separatedBy: "Not shown:")[0] }
        #expect(offline.status == 0 && shown(offline.stdout) == shown(game.stdout), "\(offline.stderr)")
        #expect(offline.stdout.contains("Not shown: goalies"))
        for columns in [80, 120] {
            let narrow = try await run(cli, ["game", "2023020209"], environment, columns: columns)
            #expect(narrow.stdout.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= columns }, "\(narrow.stdout)")
        }
    }

    /// A shootout final: the deciding goal as the shootout winner (no time, no assists) and
    /// Final/SO; with no right-rail, the shots come from the landing's totals.
    @Test(.enabled(if: enabled, "../shared/nhl-api/fixtures not present"))
    func aBoxScoreOfAShootoutFinal() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let environment = try Self.mirror(cli)
        let game = try await run(cli, ["game", "2023020207"], environment)
        #expect(game.status == 0, "\(game.stderr)")
        #expect(game.stdout.hasPrefix("CGY 4–5 TOR · Final/SO\n"), "\(game.stdout.prefix(200))")
        #expect(game.stdout.contains("M. Domi, the shootout winner"), "\(game.stdout)")
        #expect(game.stdout.contains("Shots: CGY 28, TOR 36"))
        #expect(game.stdout.contains("Not shown: shots by period and power plays"))
    }

    /// Only the boxscore recorded: goalies with saves, save percentage and the decision; goals,
    /// penalties and stars said to be missing rather than shown as none.
    @Test(.enabled(if: enabled, "../shared/nhl-api/fixtures not present"))
    func aBoxScoreWithoutTheLandingShowsTheGoalies() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let environment = try Self.mirror(cli)
        let game = try await run(cli, ["game", "2023020280"], environment)
        #expect(game.status == 0, "\(game.stderr)")
        #expect(game.stdout.contains("Not shown: goals, penalties and three stars"), "\(game.stdout)")
        #expect(!game.stdout.contains("Goals: none"))
        let report = try JSONDecoder().decode(
            BoxScoreReport.self, from: Data(try await run(cli, ["game", "2023020280", "--json"], environment).stdout.utf8))
        let goalies = try #require(report.goalies)
        #expect(!goalies.isEmpty && goalies.allSatisfy { $0.saves != nil && $0.shotsAgainst != nil })
        #expect(goalies.filter { $0.decision == "W" }.count == 1, "\(goalies)")
        #expect(report.goals == nil)
    }

    /// `recent` and `next` name the command for the box score; `game` with a team takes its
    /// game on now (here, the live one in Buffalo).
    @Test func recentAndNextPointToTheBoxScore() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let recent = try await cli.run(["recent", "TOR"], environment: FanMirror.environment)
        #expect(recent.stdout.contains("Box score: faceoff game 2025020100"), "\(recent.stdout)")
        let next = try await cli.run(["next", "TOR"], environment: FanMirror.environment)
        #expect(next.stdout.contains("Box score: faceoff game 2025020119"), "\(next.stdout)")
        let game = try await cli.run(["game", "TOR"], environment: FanMirror.environment)
        #expect(game.stderr.contains("gamecenter/2025020119/"), "\(game.stderr)")
    }

    /// `scores --watch` in a terminal: the table, redrawn in place with when it was updated,
    /// until q, which ends it at once (exit 0) and gives the terminal back as it was; without a
    /// terminal it says so.
    @Test func scoresWatchRedrawsUntilQ() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        var environment = FanMirror.environment.merging(["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"]) {
            $1
        }
        environment["FACEOFF_NOW"] = nil
        let terminal = try PseudoTerminal(
            CLI.binary.path, ["scores", "--watch"], environment: environment, stderr: cli.home.appendingPathComponent("scores.err"))
        defer { terminal.close() }
        #expect(await eventually(within: .seconds(30)) { terminal.text.contains("q quits") }, "\(terminal.text.suffix(400))")
        #expect(terminal.text.contains("\u{1B}[H\u{1B}[2J") && terminal.text.contains("TOR @ BUF"), "\(terminal.text.suffix(400))")
        #expect(terminal.text.contains("Updated "))
        // A live game: redrawn at the watch poll (5 s).
        #expect(await eventually(within: .seconds(30)) { terminal.text.components(separatedBy: "q quits").count >= 3 }, "not redrawn")
        terminal.type("q")
        #expect(await terminal.exit(within: 10) == 0)
        let modes = tcflag_t(ICANON | ECHO)
        #expect(terminal.settings.c_lflag & modes == modes, "the terminal's line mode and echo are given back")
        let piped = try await cli.run(["scores", "--watch"], environment: FanMirror.environment)
        #expect(piped.status == 2 && piped.stderr.contains("not one"), "\(piped.stderr)")
    }
}
