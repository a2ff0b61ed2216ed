import FaceoffBase
import FaceoffFan
import FaceoffKit
import FaceoffNHL
import Foundation
import Testing

/// The fan commands end to end: the built binary against the project's file:// mirror, with
/// the clock pinned to Saturday 2025-10-25 20:00 UTC (TOR is playing in Buffalo that evening).
@Suite("fan commands, the binary", .timeLimit(.minutes(10))) struct FanCommandTests {
    func run(_ cli: CLI, _ arguments: [String], extra: [String: String] = [:]) async throws -> CLI.Result {
        try await cli.run(arguments, environment: FanMirror.environment.merging(extra) { $1 })
    }

    func validate(_ json: String, schema name: String) throws { try SchemaValidator.validate(json, schema: name) }

    @Test func scheduleShowsResultsLiveAndMarkedGames() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await run(cli, ["schedule", "TOR"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("America/Toronto") == true)
        // Local times: a 23:00 UTC start is 19:00 in Toronto.
        let header = try #require(lines.dropFirst().first)
        let resultColumn = try #require(header.range(of: "Result")).lowerBound.utf16Offset(in: header)
        func resultCell(_ line: String) -> String {
            String(line.dropFirst(resultColumn).prefix(while: { $0 != " " }))
        }
        let mtl = try #require(lines.first { $0.contains("vs MTL") })
        #expect(mtl.hasPrefix("Wed Oct 8") && mtl.contains("19:00") && mtl.contains("5–2"))
        #expect(resultCell(mtl) == "W")
        #expect(resultCell(try #require(lines.first { $0.contains("@ DET") })) == "OTL")
        #expect(lines.contains { $0.contains("@ DET") && $0.contains("OTL") && $0.contains("3–4 OT") })
        #expect(lines.contains { $0.contains("@ OTT") && $0.contains("W") && $0.contains("3–2 SO") })
        #expect(lines.contains { $0.contains("@ BUF") && $0.contains("LIVE") && $0.contains("2–1") })
        #expect(lines.contains { $0.contains("vs CBJ") && $0.contains("CANCELLED") })
        #expect(lines.contains { $0.contains("@ CHI") && $0.contains("TBD") })
        // TBD once on its row: in the Time column, not again beside the TV.
        #expect(!lines.contains { $0.contains("@ CHI") && $0.contains("time TBD") }, "\(lines)")
        #expect(lines.contains { $0.contains("@ NYR") && $0.contains("TNT") })
        // Not a terminal: no escape codes.
        #expect(!result.stdout.contains("\u{1B}["))
    }

    @Test func scheduleFiltersByDateAndChecksArguments() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await run(cli, ["schedule", "TOR", "--from", "2025-10-14", "--to", "2025-10-25", "--json"])
        #expect(result.status == 0)
        let ids = try JSONDecoder().decode(ScheduleReport.self, from: Data(result.stdout.utf8)).games.map(\.id)
        #expect(ids == [2025020058, 2025020100, 2025020119])
        #expect(try await run(cli, ["schedule", "--from", "25-10-2025", "TOR"]).status == 2)
        #expect(try await run(cli, ["schedule", "--season", "2025", "TOR"]).status == 2)
        let unknown = try await run(cli, ["schedule", "TRO"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("did you mean TOR?"))
        let noSeason = try await run(cli, ["schedule", "UTA", "--season", "20262027"])
        #expect(noSeason.status == 1)
        #expect(noSeason.stderr.contains("no games scheduled for UTA in 20262027"))
    }

    @Test func commandsDefaultToTheFirstFollowedTeam() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let none = try await run(cli, ["next"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("faceoff follow TOR"))
        #expect(try await run(cli, ["follow", "MTL", "TOR"]).status == 0)
        let next = try await run(cli, ["next", "--json"])
        #expect(next.status == 0)
        #expect(try JSONDecoder().decode(NextReport.self, from: Data(next.stdout.utf8)).team == "MTL")
    }

    @Test func nextShowsTheGameInProgress() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await run(cli, ["next", "TOR"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("LIVE  TOR 2 – 1 BUF"))
        #expect(result.stdout.contains("2nd 12:34"))
        #expect(result.stdout.contains("Shots  TOR 21 – 17 BUF"))
        #expect(result.stdout.contains("TOR power play (5v4)"))
        #expect(result.stdout.contains("(TOR 3-0-1)"))
        let json = try await run(cli, ["next", "TOR", "--json"])
        try validate(json.stdout, schema: "next")
        let report = try JSONDecoder().decode(NextReport.self, from: Data(json.stdout.utf8))
        #expect(report.kind == "live")
        #expect(report.live?.powerPlay == "TOR")
        #expect(report.live?.emptyNet == [])
    }

    @Test func nextCountsDownToAnUpcomingGame() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        // MTL's next game in the mirror: SEA at the Bell Centre on Tuesday 2025-10-28 at 23:30 UTC.
        let result = try await run(cli, ["next", "MTL", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(NextReport.self, from: Data(result.stdout.utf8))
        #expect(report.kind == "next")
        #expect(report.game?.id == 2025020140)
        #expect(report.countdown == "in 3d 3h")
        #expect(report.secondsUntilStart == 3 * 86400 + 3 * 3600 + 1800)
        try validate(result.stdout, schema: "next")
        let text = try await run(cli, ["next", "MTL"])
        #expect(text.stdout.contains("Tue Oct 28 19:30 EDT · in 3d 3h"), "\(text.stdout)")
    }

    @Test func postponedGamesAreMarked() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await run(cli, ["schedule", "MTL"])
        #expect(result.status == 0)
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("Nov 4") })
        #expect(line.contains("POSTPONED"))
        let json = try await run(cli, ["schedule", "MTL", "--json"])
        let game = try #require(
            try JSONDecoder().decode(ScheduleReport.self, from: Data(json.stdout.utf8)).games.first { $0.id == 2025020170 })
        #expect(game.status == "postponed")
        #expect(game.scheduleState == "PPD")
    }

    @Test func recentIsNewestFirst() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await run(cli, ["recent", "TOR", "-n", "3"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").dropFirst().map(String.init)
        #expect(lines.count == 4)
        #expect(lines[3].hasPrefix("Box score: faceoff game "), "the newest game's box score")
        #expect(lines[0].contains("vs BOS"))
        #expect(lines[1].contains("@ OTT"))
        #expect(lines[2].contains("@ DET"))
        let json = try await run(cli, ["recent", "TOR", "--json"])
        try validate(json.stdout, schema: "recent")
    }

    /// The mirror with the recorded MTL 2024-25 schedule beside it, in a temporary copy (the
    /// recording is not part of the repository).
    static func mirrorWithMontreal2025() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faceoff-playoffs-\(UUID().uuidString)/v1")
        try FileManager.default.createDirectory(at: directory.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.mirror, to: directory)
        let target = directory.appendingPathComponent("club-schedule-season/MTL")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Recordings.nhl.appendingPathComponent("club-schedule-season_MTL_20242025_full-season-final.json"),
            to: target.appendingPathComponent("20242025"))
        return directory
    }

    /// The 2024-25 bracket and Montréal's first-round loss to Washington in five, OT in game 1:
    /// golden text (Tests/Fixtures/golden/playoffs-MTL-20242025.txt; FACEOFF_UPDATE_GOLDEN=1
    /// rewrites it) and JSON checked against its schema.
    @Test(.enabled(if: Recordings.nhlAvailable, "../shared/nhl-api/fixtures not present"))
    func playoffsShowTheBracketAndATeamsRun() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let mirror = try Self.mirrorWithMontreal2025()
        defer { try? FileManager.default.removeItem(at: mirror.deletingLastPathComponent()) }
        let environment = ["FACEOFF_API_BASE": "file://\(mirror.path)/"]
        let text = try await run(cli, ["playoffs", "MTL", "--season", "20242025"], extra: environment)
        #expect(text.status == 0, "\(text.stderr)")
        let golden = CLI.root.appendingPathComponent("Tests/Fixtures/golden/playoffs-MTL-20242025.txt")
        if ProcessInfo.processInfo.environment["FACEOFF_UPDATE_GOLDEN"] == "1" {
            try text.stdout.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(text.stdout == (try String(contentsOf: golden, encoding: .utf8)))
        let json = try await run(cli, ["playoffs", "MTL", "--season", "20242025", "--json"], extra: environment)
        #expect(json.status == 0)
        try validate(json.stdout, schema: "playoffs")
        let report = try JSONDecoder().decode(PlayoffsReport.self, from: Data(json.stdout.utf8))
        #expect(report.champion == "FLA" && report.run?.series.first?.text == "lost 1–4")
        // Cached: the same answer offline.
        let offline = try await run(cli, ["--offline", "playoffs", "MTL", "--season", "20242025"], extra: environment)
        #expect(offline.status == 0 && offline.stdout == text.stdout, "\(offline.stderr)")
        // How many overtimes comes from the game's play-by-play when there is one: an invented
        // one here saying game 1 took two.
        let feed = mirror.appendingPathComponent("gamecenter/2024030131/play-by-play")
        try FileManager.default.createDirectory(at: feed.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(
            #"{"id": 2024030131, "gameType": 3, "gameState": "OFF", "periodDescriptor": {"number": 5, "periodType": "OT"}, "plays": []}"#
                .utf8
        ).write(to: feed)
        let overtime = try await run(cli, ["playoffs", "MTL", "--season", "20242025", "--json"], extra: environment)
        let told = try JSONDecoder().decode(PlayoffsReport.self, from: Data(overtime.stdout.utf8))
        #expect(told.run?.series.first?.games.first?.endedIn == "2OT")
    }

    /// Before the NHL publishes a bracket (the mirror's 2025-26 has none): the regular
    /// season's end and where the team stands, not an error.
    @Test func playoffsBeforeTheBracketShowTheRace() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let text = try await run(cli, ["playoffs", "TOR"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("No bracket yet. The playoffs start after the regular season ends on Thu Apr 16."), "\(text.stdout)")
        #expect(text.stdout.contains("TOR: 1st in the Atlantic"), "\(text.stdout)")
        let json = try await run(cli, ["playoffs", "TOR", "--json"])
        try validate(json.stdout, schema: "playoffs")
        // A team that missed them, with the bracket still shown.
        let missed = try await run(cli, ["playoffs", "BUF", "--season", "20242025"])
        #expect(missed.status == 0)
        #expect(missed.stdout.contains("Champion: Florida Panthers") && missed.stdout.contains("Buffalo Sabres: did not make the playoffs"))
        #expect(try await run(cli, ["playoffs", "--season", "2025"]).status == 2)
    }

    @Test func standingsInTheNHLsOrder() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        #expect(try await run(cli, ["follow", "TOR"]).status == 0)
        let division = try await run(cli, ["standings"])
        #expect(division.status == 0)
        let lines = division.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Standings as of Sat Oct 25, 2025", "\(division.stdout.prefix(200))")
        let atlantic = Array(lines.dropFirst(2).prefix(4))
        #expect(atlantic[0].contains("Atlantic"))
        #expect(atlantic[1].hasPrefix("▸  1") && atlantic[1].contains("Toronto Maple Leafs"))
        #expect(atlantic[2].hasPrefix("   2"))
        // The groups' columns line up, one table under another, at any width.
        for columns in ["120", "60"] {
            let text = try await run(cli, ["standings"], extra: ["COLUMNS": columns]).stdout
            let headings = text.split(separator: "\n").map(String.init).filter { $0.contains("  GP  ") }
            #expect(headings.count == 4, "\(text)")
            #expect(
                Set(headings.compactMap { line in line.range(of: "GP").map { line.distance(from: line.startIndex, to: $0.lowerBound) } })
                    .count == 1, "\(headings)")
        }
        for grouping in ["league", "conference", "division", "wildcard"] {
            let json = try await run(cli, ["standings", "--by", grouping, "--json"])
            #expect(json.status == 0)
            try validate(json.stdout, schema: "standings")
            let report = try JSONDecoder().decode(StandingsReport.self, from: Data(json.stdout.utf8))
            #expect(report.groups.flatMap(\.rows).count == 32, "\(grouping)")
        }
        #expect(try await run(cli, ["standings", "--by", "galaxy"]).status == 2)
    }

    /// A name not found in a mirror holding one roster of 32 says how many could not be read,
    /// never "check the spelling"; a name found whose player page is missing says so, with
    /// the URL, never that no such player exists.
    @Test func playerErrorsNameTheRealCause() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let mirror = try cli.copyMirror()
        let extra = ["FACEOFF_API_BASE": "file://\(mirror.path)/"]
        let unknown = try await run(cli, ["player", "McDavid"], extra: extra)
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("31 of 32 rosters could not be read") && !unknown.stderr.contains("spelling"), "\(unknown.stderr)")
        try FileManager.default.removeItem(at: mirror.appendingPathComponent("player/8479318"))
        let pageless = try await run(cli, ["player", "Matthews"], extra: extra)
        #expect(pageless.status != 0)
        #expect(
            pageless.stderr.contains("Auston Matthews") && pageless.stderr.contains("is on a roster, but his player page is missing")
                && pageless.stderr.contains("player/8479318/landing"), "\(pageless.stderr)")
        #expect(!pageless.stderr.contains("no NHL player has the id"))
    }

    @Test func rosterByJerseyNumber() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await run(cli, ["roster", "TOR"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("TOR roster\n\n"), "\(result.stdout)")
        let forwards = result.stdout.split(separator: "\n").dropFirst().prefix(4).map(String.init)
        #expect(forwards[0].contains("Forwards") && forwards[0].contains("Shoots"))
        #expect(forwards[1].contains("34") && forwards[1].contains("Auston Matthews") && forwards[1].contains("6'3\""))
        #expect(forwards[2].contains("88"))
        // No number: last, with a dash.
        #expect(forwards[3].trimmingCharacters(in: .whitespaces).hasPrefix("-"))
        #expect(result.stdout.contains("Catches"))
        #expect(result.stdout.contains("Malmö, SWE"))
        try validate(try await run(cli, ["roster", "TOR", "--json"]).stdout, schema: "roster")
    }

    @Test func playerSkaterAndGoalieColumns() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let skater = try await run(cli, ["player", "Auston", "Matthews"])
        #expect(skater.status == 0, "\(skater.stderr)")
        #expect(skater.stdout.contains("TOI/GP"))
        #expect(skater.stdout.contains("2025-26"))
        #expect(!skater.stdout.contains("SV%"))
        let goalie = try await run(cli, ["player", "8478470"])
        #expect(goalie.status == 0)
        #expect(goalie.stdout.contains("GAA") && goalie.stdout.contains("SV%") && goalie.stdout.contains("0.904"))
        for id in ["8479318", "8478470"] {
            try validate(try await run(cli, ["player", id, "--json"]).stdout, schema: "player")
        }
        let missing = try await run(cli, ["player", "1234567"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no NHL player has the id 1234567"))
    }

    @Test func aPlayerWithoutGamesThisSeasonShowsDashes() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        // A year later, the mirror's numbers belong to last season.
        let result = try await run(cli, ["player", "8479318"], extra: ["FACEOFF_NOW": "2026-11-01T12:00:00Z"])
        #expect(result.status == 0)
        let season = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("2026-27") })
        #expect(season.split(separator: " ").dropFirst().allSatisfy { $0 == "-" })
        let json = try await run(cli, ["player", "8479318", "--json"], extra: ["FACEOFF_NOW": "2026-11-01T12:00:00Z"])
        #expect(try JSONDecoder().decode(PlayerReport.self, from: Data(json.stdout.utf8)).seasonStats == nil)
    }

    @Test func teamsByConferenceAndDivision() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await run(cli, ["teams"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Eastern Conference"))
        #expect(result.stdout.contains("Utah Mammoth"))
        #expect(result.stdout.contains("Scotiabank Arena"))
        let json = try await run(cli, ["teams", "--json"])
        try validate(json.stdout, schema: "teams")
        let report = try JSONDecoder().decode(TeamsReport.self, from: Data(json.stdout.utf8))
        #expect(report.source == "api")
        #expect(report.conferences.flatMap(\.divisions).flatMap(\.teams).count == 32)
    }

    @Test func repeatedCommandsWorkOffline() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let mirror = try cli.copyMirror()
        let base = ["FACEOFF_API_BASE": "file://\(mirror.path)/"]
        let online = try await run(cli, ["schedule", "TOR"], extra: base)
        #expect(online.status == 0)
        #expect(try await run(cli, ["next", "TOR"], extra: base).status == 0)
        try FileManager.default.removeItem(at: mirror)
        let offline = try await run(cli, ["--offline", "schedule", "TOR"], extra: base)
        #expect(offline.status == 0)
        #expect(offline.stdout == online.stdout)
        #expect(offline.stderr.contains("offline"))
        // A command of several requests says where its data came from once.
        let next = try await run(cli, ["--offline", "next", "TOR"], extra: base)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.components(separatedBy: "(offline)").count == 2, "\(next.stderr)")

        // A day later the API answers with an error page: the cached copy is used, and said to be.
        let page = mirror.appendingPathComponent("club-schedule-season/TOR/now")
        try FileManager.default.createDirectory(at: page.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "<html><body>Service Unavailable</body></html>".write(to: page, atomically: true, encoding: .utf8)
        let fallback = try await run(cli, ["schedule", "TOR"], extra: base.merging(["FACEOFF_NOW": "2025-10-26T20:00:00Z"]) { $1 })
        #expect(fallback.status == 0)
        #expect(fallback.stdout.split(separator: "\n").dropFirst() == online.stdout.split(separator: "\n").dropFirst())
        #expect(fallback.stderr.contains("using data from 1 days ago") || fallback.stderr.contains("using data from 24 h ago"))
    }

    @Test func narrowTerminalsTruncateWithAnEllipsis() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        #expect(try await run(cli, ["follow", "TOR"]).status == 0)
        // At 60 columns the venue goes and nothing is cut; at 40 the columns that stay are.
        let result = try await run(cli, ["schedule", "TOR"], extra: ["COLUMNS": "60"])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").dropFirst().allSatisfy { DisplayWidth.of(String($0)) <= 60 })
        #expect(
            !result.stdout.contains("…") && !result.stdout.contains("Venue") && result.stdout.contains("vs DET (pre)"), "\(result.stdout)")
        let narrower = try await run(cli, ["schedule", "TOR"], extra: ["COLUMNS": "40"])
        #expect(narrower.stdout.split(separator: "\n").dropFirst().allSatisfy { DisplayWidth.of(String($0)) <= 40 })
        #expect(narrower.stdout.contains("vs DE…"), "\(narrower.stdout)")
        // Every table fits a narrow terminal, dropping the least important columns if it must.
        for arguments in [
            ["schedule"], ["recent"], ["standings"], ["standings", "--by", "wildcard"], ["roster"], ["player", "8479318"],
            ["player", "8478470"], ["teams"],
        ] {
            let narrow = try await run(cli, arguments, extra: ["COLUMNS": "50"])
            #expect(narrow.status == 0)
            let lines = narrow.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("TOR 2025-26") }
            let widest = lines.map(DisplayWidth.of).max() ?? 0
            #expect(widest <= 50, "\(arguments): \(widest) columns")
        }
        let standings = try await run(cli, ["standings"], extra: ["COLUMNS": "40"])
        #expect(standings.stdout.split(separator: "\n").filter { $0.hasPrefix("▸") }.count == 1)
    }

    @Test func datesAreCheckedAndLocal() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let impossible = try await run(cli, ["schedule", "TOR", "--from", "2025-13-45"])
        #expect(impossible.status == 2)
        #expect(impossible.stderr.contains("real date"))
        // From Tokyo, the 23:00 UTC game of Oct 8 is on Oct 9.
        let tokyo = try await run(
            cli, ["schedule", "TOR", "--from", "2025-10-09", "--to", "2025-10-09", "--json"], extra: ["TZ": "Asia/Tokyo"])
        let games = try JSONDecoder().decode(ScheduleReport.self, from: Data(tokyo.stdout.utf8)).games
        #expect(games.map(\.id) == [2025020004])
        #expect(games.first?.date == "2025-10-09")
        #expect(games.first?.startLocal == "2025-10-09T08:00:00+09:00")
    }
}
