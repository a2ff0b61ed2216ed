import FaceoffBase
import FaceoffFan
import FaceoffKit
import FaceoffNHL
import Foundation
import Testing

/// The NBA's fan commands, the binary, on ESPN's recorded answers (../shared/espn-api/fixtures)
/// laid out at test time as a `file://` mirror whose file paths are the URL paths (the team
/// list, a path that is also a folder, in that folder's index.json).
@Suite("NBA fan commands, the binary", .timeLimit(.minutes(10))) struct NBACommandTests {
    static let recordings = Recordings.espn
    static let enabled = Checkers.all || FileManager.default.fileExists(atPath: recordings.path)

    /// The mirror, with the roster of `rosterFor`'s path holding the Lakers' recording.
    static func mirror(_ cli: CLI, rosterFor team: String = "13") throws -> [String: String] {
        let mirror = cli.home.appendingPathComponent("espn")
        let files = [
            "teams_nba_2024-25.json": "apis/site/v2/sports/basketball/nba/teams/index.json",
            "roster_nba_13_lal_2026-05-23.json": "apis/site/v2/sports/basketball/nba/teams/\(team)/roster",
            "standings_nba_2025-26_final.json": "apis/v2/sports/basketball/nba/standings",
            "schedule_nba_13_lal_2026_postseason_with_ot_and_tbd.json": "apis/site/v2/sports/basketball/nba/teams/\(team)/schedule",
        ]
        for (recording, path) in files {
            let target = mirror.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: recordings.appendingPathComponent(recording), to: target)
        }
        // The calendar asks for each part of the season: the playoffs are the recording; the
        // regular season (not recorded) answers with no games.
        let schedules = mirror.appendingPathComponent("apis/site/v2/sports/basketball/nba/teams/\(team)")
        try FileManager.default.copyItem(
            at: schedules.appendingPathComponent("schedule"), to: schedules.appendingPathComponent("schedule?seasontype=3"))
        try Data(#"{"team": {"id": "\#(team)"}, "season": {"year": 2026, "type": 2}, "events": []}"#.utf8).write(
            to: schedules.appendingPathComponent("schedule?seasontype=2"))
        return FanMirror.environment.merging(["FACEOFF_ESPN_BASE": "file://\(mirror.path)"]) { $1 }
    }

    func run(_ cli: CLI, _ arguments: [String], _ environment: [String: String], columns: Int = 120) async throws -> CLI.Result {
        try await cli.run(arguments, environment: environment.merging(["COLUMNS": String(columns)]) { $1 })
    }

    @Test(.enabled(if: enabled, "../shared/espn-api/fixtures not present"))
    func teamsByConferenceAndDivision() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let environment = try Self.mirror(cli)
        let text = try await run(cli, ["teams", "--league", "nba"], environment)
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespaces) }
        #expect(lines.first == "NBA")
        let headings = lines.filter { ["Atlantic", "Central", "Southeast", "Northwest", "Pacific", "Southwest"].contains($0) }
        #expect(headings == ["Atlantic", "Central", "Southeast", "Northwest", "Pacific", "Southwest"])
        #expect(lines.contains { $0.hasPrefix("GS") && $0.contains("Golden State Warriors") })
        let json = try await run(cli, ["teams", "--league", "nba", "--json"], environment)
        try SchemaValidator.validate(json.stdout, schema: "teams")
        let report = try JSONDecoder().decode(TeamsReport.self, from: Data(json.stdout.utf8))
        #expect(report.source == "api" && report.conferences.flatMap(\.divisions).flatMap(\.teams).count == 30)
    }

    @Test(.enabled(if: enabled, "../shared/espn-api/fixtures not present"))
    func standingsBySeedAndByDivision() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let environment = try Self.mirror(cli)
        for columns in [80, 120] {
            let text = try await run(cli, ["standings", "--league", "nba"], environment, columns: columns)
            #expect(text.status == 0, "\(text.stderr)")
            let lines = text.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "NBA standings 2025-26")
            let detroit = try #require(lines.first { $0.contains("Detroit Pistons") })
            #expect(detroit.hasPrefix(" 1  z-Detroit Pistons") && detroit.contains("60  22") && detroit.contains(".732"), "\(detroit)")
            #expect(lines.contains { $0.contains("z first in the conference") }, "\(text.stdout)")
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= columns }, "\(text.stdout)")
        }
        let json = try await run(cli, ["standings", "--league", "nba", "--by", "division", "--json"], environment)
        #expect(json.status == 0, "\(json.stderr)")
        try SchemaValidator.validate(json.stdout, schema: "nba-standings")
        let report = try JSONDecoder().decode(NBAStandingsReport.self, from: Data(json.stdout.utf8))
        #expect(report.by == .division && report.groups.count == 6)
        // A followed team is marked, with a mark none of ESPN's clinch marks (`*`) is.
        #expect(try await run(cli, ["follow", "nba:LAL"], environment).status == 0)
        let followed = try await run(cli, ["standings", "--league", "nba"], environment, columns: 80)
        let marked = followed.stdout.split(separator: "\n").filter { $0.hasPrefix("▸") }
        #expect(marked.count == 1 && marked[0].contains("Los Angeles Lakers"), "\(followed.stdout)")
        let flagged = try await run(cli, ["standings", "--league", "nba", "--json"], environment)
        let rows = try JSONDecoder().decode(NBAStandingsReport.self, from: Data(flagged.stdout.utf8)).groups.flatMap(\.rows)
        #expect(rows.filter(\.followed).map(\.abbrev) == ["LAL"] && report.groups.flatMap(\.rows).allSatisfy { !$0.followed })
        let wildcard = try await run(cli, ["standings", "--league", "nba", "--by", "wildcard"], environment)
        #expect(wildcard.status == 2 && wildcard.stderr.contains("by conference or division"), "\(wildcard.stderr)")
    }

    @Test(.enabled(if: enabled, "../shared/espn-api/fixtures not present"))
    func aRosterByNumberAndOfflineFromTheCache() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let environment = try Self.mirror(cli)
        for team in ["nba:LAL", "Lakers", "nba:lakers"] {
            let text = try await run(cli, ["roster", team], environment)
            #expect(text.status == 0, "\(team): \(text.stderr)")
            // The title, the table's header, the players.
            #expect(text.stdout.hasPrefix("LAL roster\n\n"), "\(text.stdout)")
            let rows = text.stdout.split(separator: "\n").dropFirst(2).map(String.init)
            #expect(rows.count == 17, "\(text.stdout)")
            #expect(!text.stdout.contains("Shoots"))
            #expect(rows.contains { $0.contains("Deandre Ayton") && $0.contains("C") && $0.contains("7'0\"") })
        }
        let json = try await run(cli, ["roster", "nba:LAL", "--json"], environment)
        try SchemaValidator.validate(json.stdout, schema: "roster")
        // Answered once, it is there offline (the mirror gone), saying how old it is.
        try FileManager.default.removeItem(at: cli.home.appendingPathComponent("espn"))
        let offline = try await run(cli, ["roster", "nba:LAL", "--offline"], environment)
        #expect(offline.status == 0 && offline.stdout.contains("Deandre Ayton") && offline.stderr.contains("offline"), "\(offline.stderr)")
    }

    @Test(.enabled(if: enabled, "../shared/espn-api/fixtures not present"))
    func anotherTeamsAnswerIsRefusedAndNamesAreAskedForTheirLeague() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        // The Lakers' roster where the Celtics' should be.
        let environment = try Self.mirror(cli, rosterFor: "2")
        let wrong = try await run(cli, ["roster", "nba:BOS"], environment)
        #expect(wrong.status == 1 && wrong.stderr.contains("not the Boston Celtics"), "\(wrong.stderr)")
        let kings = try await run(cli, ["roster", "Kings"], environment)
        #expect(kings.status == 2 && kings.stderr.contains("nhl:Kings") && kings.stderr.contains("nba:Kings"), "\(kings.stderr)")
        // Following takes an NBA team written as one; a name only the NBA has says how.
        let follow = try await run(cli, ["follow", "Lakers"], environment)
        #expect(follow.status == 2 && follow.stderr.contains("NBA team: write nba:LAL"), "\(follow.stderr)")
        let followed = try await run(cli, ["follow", "nba:LAL"], environment)
        #expect(followed.status == 0 && followed.stdout.contains("Following nba:LAL"), "\(followed.stderr)")
        let badBase = try await run(cli, ["teams", "--league", "nba", "--espn-base", "ftp://example"], environment)
        #expect(badBase.status == 2 && badBase.stderr.contains("--espn-base"), "\(badBase.stderr)")
    }

    /// `espn_base` in the config: checked with its line, shown by `config show`, and used; the
    /// flag and the environment come before it.
    @Test(.enabled(if: enabled, "../shared/espn-api/fixtures not present"))
    func espnBaseInTheConfig() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        var environment = try Self.mirror(cli)
        let mirror = environment["FACEOFF_ESPN_BASE"] ?? ""
        environment["FACEOFF_ESPN_BASE"] = nil
        try FileManager.default.createDirectory(at: cli.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "teams = [\"TOR\"]\nespn_base = \"ftp://espn\"\n".write(to: cli.configFile, atomically: true, encoding: .utf8)
        let bad = try await run(cli, ["config", "validate"], environment)
        #expect(bad.status == 2 && bad.stderr.contains("config.toml:2: 'espn_base' must be an https://"), "\(bad.stderr)")
        try "teams = [\"TOR\"]\nespn_base = \"\(mirror)\"\n".write(to: cli.configFile, atomically: true, encoding: .utf8)
        let shown = try await run(cli, ["config", "show"], environment)
        #expect(shown.stdout.contains("espn_base = \"\(mirror)/\""), "\(shown.stdout)")
        let roster = try await run(cli, ["roster", "nba:LAL"], environment)
        #expect(roster.status == 0 && roster.stdout.contains("Deandre Ayton"), "\(roster.stderr)")
        let flag = try await run(cli, ["roster", "nba:LAL", "--espn-base", "file:///nonexistent/"], environment)
        #expect(flag.status == 1 && flag.stderr.contains("file:///nonexistent/apis/site/v2/"), "\(flag.stderr)")
    }

    /// The Lakers' 2026 postseason, seen from Los Angeles between two rounds: six finals (one
    /// in overtime), four timed games with TV, three "if necessary" games with no time yet,
    /// shown on their day and never at ESPN's placeholder hour.
    @Test(.enabled(if: enabled, "../shared/espn-api/fixtures not present"))
    func scheduleNextAndRecent() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let environment = try Self.mirror(cli).merging(["FACEOFF_NOW": "2026-05-03T12:00:00Z", "TZ": "America/Los_Angeles"]) { $1 }
        let schedule = try await run(cli, ["schedule", "nba:LAL"], environment)
        #expect(schedule.status == 0, "\(schedule.stderr)")
        let lines = schedule.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 15, "\(schedule.stdout)")
        #expect(lines.contains { $0.hasPrefix("Fri Apr 24  17:00  @ HOU") && $0.contains("W") && $0.hasSuffix("112–108 OT") })
        #expect(lines.contains { $0.hasPrefix("Tue May 5   17:30  @ OKC") && $0.hasSuffix("NBC, Peacock") })
        let tbd = lines.filter { $0.contains("TBD") }
        #expect(tbd.count == 3 && tbd[0].hasPrefix("Wed May 13  TBD    @ OKC"), "\(tbd)")
        // Each game's round, as the calendar says it; the games the series may not need say so.
        #expect(lines.contains { $0.contains("@ HOU") && $0.contains("West 1st Round · Game 3") && !$0.contains("if necessary") })
        #expect(tbd.allSatisfy { $0.contains("West Semifinals · Game") && $0.contains("if necessary") }, "\(tbd)")
        // At 80 columns the round and the score stay whole; the venue goes.
        let narrow = try await run(cli, ["schedule", "nba:LAL"], environment, columns: 80)
        #expect(narrow.stdout.split(separator: "\n").contains { $0.contains("West 1st Round · Game 3") && $0.hasSuffix("112–108 OT") })
        #expect(!narrow.stdout.contains("Toyota Center"), "\(narrow.stdout)")
        let json = try await run(cli, ["schedule", "nba:LAL", "--json"], environment)
        try SchemaValidator.validate(json.stdout, schema: "schedule")
        let report = try JSONDecoder().decode(ScheduleReport.self, from: Data(json.stdout.utf8))
        #expect(report.league == "NBA" && report.season == "2025-26")
        let unset = report.games.filter(\.timeTBD)
        #expect(unset.count == 3 && unset.allSatisfy { $0.start == nil && $0.startLocal == nil })
        #expect(
            unset.map(\.series) == [
                "West Semifinals - Game 5 If Necessary", "West Semifinals - Game 6 If Necessary", "West Semifinals - Game 7 If Necessary",
            ])

        let next = try await run(cli, ["next", "Lakers"], environment)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(
            next.stdout.contains("@ Oklahoma City Thunder") && next.stdout.contains("Tue May 5 17:30 PDT")
                && next.stdout.contains("in 2d 12h"), "\(next.stdout)")
        #expect(!next.stdout.contains("faceoff game"))
        // The next game an "if necessary" one: its round as the schedule says it.
        let later = environment.merging(["FACEOFF_NOW": "2026-05-12T12:00:00Z"]) { $1 }
        let maybe = try await run(cli, ["next", "nba:LAL"], later)
        #expect(
            maybe.stdout.contains("West Semifinals · Game 5 · if necessary") && !maybe.stdout.contains("If Necessary"), "\(maybe.stdout)")
        try SchemaValidator.validate(try await run(cli, ["next", "nba:LAL", "--json"], environment).stdout, schema: "next")

        let recent = try await run(cli, ["recent", "nba:LAL", "-n", "3"], environment)
        let games = recent.stdout.split(separator: "\n").dropFirst().map(String.init)
        #expect(games.map { String($0.prefix(10)) } == ["Fri May 1 ", "Wed Apr 29", "Sun Apr 26"], "\(recent.stdout)")
        #expect(games[0].contains("W") && games[0].contains("98–78") && !recent.stdout.contains("faceoff game"))
        try SchemaValidator.validate(try await run(cli, ["recent", "nba:LAL", "--json"], environment).stdout, schema: "recent")
        let season = try await run(cli, ["schedule", "nba:LAL", "--season", "20252026"], environment)
        #expect(season.status == 2 && season.stderr.contains("--season is the NHL's"))
    }

    /// ESPN's scoreboard: today's (a game in the 4th quarter), a day of finals and a day not
    /// begun, each day its own file in the mirror (the query is part of the name).
    @Test(.enabled(if: enabled, "../shared/espn-api/fixtures not present"))
    func scoresOfADay() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let environment = try Self.mirror(cli).merging(["TZ": "America/New_York"]) { $1 }
        let folder = cli.home.appendingPathComponent("espn/apis/site/v2/sports/basketball/nba")
        for (recording, name) in [
            ("scoreboard_nba_20260502_live_q4.json", "scoreboard"), ("scoreboard_nba_20241215.json", "scoreboard?dates=20241215"),
            ("scoreboard_nba_20221225_all-scheduled.json", "scoreboard?dates=20221225"),
        ] {
            try FileManager.default.copyItem(at: Self.recordings.appendingPathComponent(recording), to: folder.appendingPathComponent(name))
        }
        let today = try await run(cli, ["scores", "--league", "nba"], environment)
        #expect(today.status == 0, "\(today.stderr)")
        #expect(today.stdout.hasPrefix("NBA games on Sat May 2, 2026"), "\(today.stdout)")
        #expect(today.stdout.contains("PHI @ BOS  92–87") && today.stdout.contains("4th 8:41 left"), "\(today.stdout)")
        let finals = try await run(cli, ["scores", "--league", "nba", "--date", "2024-12-15"], environment)
        let lines = finals.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "NBA games on Sun Dec 15, 2024" && lines.count == 9, "\(finals.stdout)")
        #expect(lines.contains { $0.contains("DAL @ GS   143–133") && $0.contains("Final") })
        // ESPN's today answered with a past day that does not name itself: its games' day.
        let today2 = folder.appendingPathComponent("scoreboard")
        try FileManager.default.removeItem(at: today2)
        try FileManager.default.copyItem(at: Self.recordings.appendingPathComponent("scoreboard_nba_20241215.json"), to: today2)
        let past = try await run(cli, ["scores", "--league", "nba"], environment)
        #expect(past.stdout.hasPrefix("NBA games on Sun Dec 15, 2024\n"), "\(past.stdout)")
        let christmas = try await run(cli, ["scores", "--league", "nba", "--date", "2022-12-25", "--json"], environment)
        try SchemaValidator.validate(christmas.stdout, schema: "scores")
        let report = try JSONDecoder().decode(ScoresReport.self, from: Data(christmas.stdout.utf8))
        #expect(report.league == "NBA" && report.games.count == 5)
        #expect(report.games.allSatisfy { $0.status == "scheduled" && $0.away.score == nil && $0.home.score == nil })
        #expect(report.games.first?.startLocal?.hasPrefix("2022-12-25T12:00:00") == true, "\(report.games.first?.startLocal ?? "")")
        // A day the mirror does not have is an error, never another day's games.
        let missing = try await run(cli, ["scores", "--league", "nba", "--date", "2024-12-16"], environment)
        #expect(missing.status == 1 && !missing.stdout.contains("Final"), "\(missing.stdout)")
    }

    /// `game nba:ID`: a final's box score (text at 80 columns, JSON to its schema), a game the
    /// mirror does not have said plainly.
    @Test(.enabled(if: enabled, "../shared/espn-api/fixtures not present"))
    func aBoxScore() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let environment = try Self.mirror(cli).merging(["TZ": "America/New_York"]) { $1 }
        let folder = cli.home.appendingPathComponent("espn/apis/site/v2/sports/basketball/nba")
        try FileManager.default.copyItem(
            at: Self.recordings.appendingPathComponent("summary_nba_401585607_final_tor_at_orl_20240317.json"),
            to: folder.appendingPathComponent("summary?event=401585607"))
        let text = try await run(cli, ["game", "nba:401585607"], environment, columns: 80)
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "TOR 96–111 ORL · Final")
        #expect(lines.contains("ORL   26   26   35   24  111"), "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("Paolo Banchero") && $0.contains("29") && $0.contains("11-16") })
        #expect(lines.contains { $0.hasPrefix("Garrett Temple") && $0.contains("DNP") })
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 80 })
        let json = try await run(cli, ["game", "nba:401585607", "--json"], environment)
        try SchemaValidator.validate(json.stdout, schema: "nba-game")
        let missing = try await run(cli, ["game", "nba:401585608"], environment)
        #expect(missing.status == 1 && missing.stderr.contains("ESPN has no NBA game with the id 401585608"), "\(missing.stderr)")
    }

    /// `calendar nba:LAL` writes nba-LAL.ics beside the NHL's feeds; an independent calendar
    /// library reads it, the games with no time yet as all-day events.
    @Test(.enabled(if: enabled && Checkers.python != nil, "needs ../shared/espn-api/fixtures and the icalendar package"))
    func aFollowedNBATeamsFeed() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let environment = try Self.mirror(cli)
        try cli.writeConfig("teams = [\"nba:LAL\"]\n")
        let written = try await run(cli, ["calendar"], environment)
        #expect(written.status == 0, "\(written.stderr)")
        let directory = cli.home.appendingPathComponent(".local/share/faceoff/calendars")
        let files = ["nba-LAL.ics", "favourites.ics"].map { directory.appendingPathComponent($0).path }
        let checked = try await Checkers.run(Checkers.python!, [CLI.root.appendingPathComponent("Tests/tools/check_ics.py").path] + files)
        #expect(checked.status == 0, "\(checked.stdout.prefix(500)) \(checked.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: [String: Any]])
        for file in files {
            #expect(report[file]?["events"] as? Int == 13, "\(file)")
            #expect((report[file]?["all_day"] as? [String])?.count == 3, "\(file)")
            let summaries = report[file]?["summaries"] as? [String] ?? []
            #expect(summaries.contains("TBD: West Semifinals · Game 7 · Lakers @ Thunder (if necessary)"), "\(summaries)")
        }
        // Spoiler-free, to standard output.
        let quiet = try await run(cli, ["calendar", "nba:Lakers", "--no-scores", "-o", "-"], environment)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stdout.contains("SUMMARY:West 1st Round · Game 3 · Lakers @ Rockets\r\n"))
        #expect(!quiet.stdout.contains("112"))
        // A part of the season missing from the mirror is named, with its file: the team is
        // one ESPN has.
        let schedules = cli.home.appendingPathComponent("espn/apis/site/v2/sports/basketball/nba/teams/13")
        try FileManager.default.removeItem(at: schedules.appendingPathComponent("schedule?seasontype=3"))
        let fresh = try CLI()
        defer { fresh.cleanUp() }
        let missing = try await run(fresh, ["calendar", "nba:LAL", "-o", "-"], environment.merging(["HOME": fresh.home.path]) { $1 })
        #expect(missing.status != 0)
        #expect(
            missing.stderr.contains("ESPN has no playoff schedule for the Los Angeles Lakers (team 13)")
                && missing.stderr.contains("teams/13/schedule?seasontype=3 answered 404"), "\(missing.stderr)")
        #expect(!missing.stderr.contains("no NBA team"))
    }

    /// `doctor` asks ESPN only when an NBA team is followed, and says what it answered.
    @Test(.enabled(if: enabled, "../shared/espn-api/fixtures not present"))
    func doctorReachesESPNForAnNBAFan() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let environment = try Self.mirror(cli)
        try cli.writeConfig("teams = [\"TOR\"]\n")
        let hockeyOnly = try await run(cli, ["doctor"], environment)
        #expect(!hockeyOnly.stdout.contains("ESPN"), "\(hockeyOnly.stdout)")
        try cli.writeConfig("teams = [\"TOR\", \"nba:LAL\"]\n")
        let both = try await run(cli, ["doctor"], environment)
        #expect(both.stdout.contains("✓ ESPN API (NBA): file://"), "\(both.stdout)")
        #expect(!both.stdout.contains("nba:LAL's schedule"), "\(both.stdout)")
        let gone = try await run(cli, ["doctor"], environment.merging(["FACEOFF_ESPN_BASE": "http://127.0.0.1:9/"]) { $1 })
        #expect(gone.stdout.contains("✗ ESPN API (NBA): "), "\(gone.stdout)")
    }

    /// `replay` of a saved ESPN summary: every event once, in the schema, the final with the
    /// recorded score; text lines in basketball's words.
    @Test(.enabled(if: enabled, "../shared/espn-api/fixtures not present"))
    func replayOfAnNBASummary() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let file = Self.recordings.appendingPathComponent("summary_nba_401468642_final_dal_at_hou_20221223.json").path
        let jsonl = try await run(cli, ["replay", file, "--speed", "0", "--format", "jsonl"], FanMirror.environment)
        #expect(jsonl.status == 0, "\(jsonl.stderr)")
        let validator = try SchemaValidator(file: CLI.root.appendingPathComponent("docs/json/event.schema.json"))
        let lines = jsonl.stdout.split(separator: "\n")
        var ids: [String] = []
        for line in lines {
            let document = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            #expect(validator.problems(in: document).isEmpty, "\(validator.problems(in: document))")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["league"] as? String == "nba")
            ids.append(object["id"] as? String ?? "")
        }
        #expect(Set(ids).count == ids.count && ids.last == "401468642:final")
        #expect(lines.last?.contains(#""score":{"away":112,"home":106}"#) == true)
        let text = try await run(cli, ["replay", file, "--speed", "0", "--from-period", "4"], FanMirror.environment)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("Joined DAL @ HOU in progress  DAL 81–84 HOU"), "\(text.stdout.prefix(200))")
        #expect(text.stdout.contains("⭐ Luka Doncic: 50 points"))
        #expect(text.stdout.contains("🏁 Final  DAL 112–106 HOU · Mavericks win"))
    }

    /// `replay nba:ID`: the summary fetched from ESPN (a mirror here), the same game as its file.
    @Test(.enabled(if: enabled, "../shared/espn-api/fixtures not present"))
    func replayOfAnNBAGameByID() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let environment = try Self.mirror(cli)
        let target = cli.home.appendingPathComponent("espn/apis/site/v2/sports/basketball/nba/summary?event=401468642")
        try FileManager.default.copyItem(
            at: Self.recordings.appendingPathComponent("summary_nba_401468642_final_dal_at_hou_20221223.json"), to: target)
        let byID = try await run(cli, ["replay", "nba:401468642", "--speed", "0", "--format", "jsonl"], environment)
        #expect(byID.status == 0, "\(byID.stderr)")
        let last = try #require(byID.stdout.split(separator: "\n").last)
        #expect(last.contains(#""id":"401468642:final""#) && last.contains(#""score":{"away":112,"home":106}"#), "\(last)")
        let missing = try await run(cli, ["replay", "nba:401468643", "--speed", "0"], environment)
        #expect(missing.status == 1 && missing.stderr.contains("ESPN has no NBA game with the id 401468643"), "\(missing.stderr)")
    }

}

/// An NBA game live through `faceoff run`: `replay --serve` answers as ESPN would while the
/// recorded game (TOR @ ORL, 96–111) is played again at 120x; the daemon follows the Magic
/// and delivers to a signed webhook and to an MQTT broker.
@Suite(
    "An NBA game through run, the binary", .timeLimit(.minutes(10)),
    .enabled(if: NBACommandTests.enabled, "../shared/espn-api/fixtures not present"),
    .enabled(if: Checkers.standardWebhooks, Checkers.noWebhookChecker), .enabled(if: Checkers.mosquitto, Checkers.noMosquitto))
struct NBARunTests {
    static let game = Recordings.espn.appendingPathComponent("summary_nba_401585607_final_tor_at_orl_20240317.json")

    @Test func aLiveNBAGameReachesAWebhookAndMQTTOnceEach() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let broker = try Mosquitto(directory: cli.home)
        let subscriber = try await broker.subscribe()
        let receiver = try await WebhookReceiver(directory: cli.home, secret: WebhookReceiver.secret)
        defer { receiver.process.kill() }
        let replay = try Background(
            CLI.binary.path, ["replay", "--serve", "127.0.0.1:0", Self.game.path, "--speed", "120", "--start-in", "4"],
            environment: ["HOME": cli.home.path, "PATH": "/usr/bin:/bin"])
        defer { replay.kill() }
        try #require(await replay.wait(timeout: 30) { !$0.isEmpty })
        try cli.writeConfig(
            """
            teams = ["nba:ORL"]
            [watch]
            poll = "2s"
            \(receiver.homeSink)
            [[sink]]
            type = "mqtt"
            url = "\(broker.url)"
            """)
        let run = try Background(
            CLI.binary.path, ["run"],
            environment: ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "FACEOFF_ESPN_BASE": replay.output[0]])
        defer { run.kill() }
        let final = "401585607:final"
        #expect(
            await eventually(within: .seconds(120)) {
                receiver.accepted.contains(final) && subscriber.on("faceoff/event").contains { $0.json["id"] as? String == final }
            }, "\(run.stderr.suffix(1500))")
        // The webhook: every event once, in the game's order, signed; the final's score is the recording's.
        let ids = receiver.deduplicated
        #expect(Set(ids).count == ids.count)
        // (A pregame reminder comes first when the served start, to the minute as ESPN writes
        // it, is still ahead at the first poll.)
        #expect(ids.first { !$0.contains(":pregame:") } == "401585607:game_start")
        #expect(ids.filter { $0.contains(":period_end:") } == (1...4).map { "401585607:period_end:\($0)" })
        #expect(ids.last == final)
        #expect(ids.filter { $0.contains(":lead_change:") }.count == 6)
        #expect(receiver.entries.allSatisfy { $0["verified"] as? Bool == true })
        let body = try #require(receiver.entries.last { $0["id"] as? String == final }?["body"] as? String)
        let event = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        #expect(event["league"] as? String == "nba")
        #expect((event["score"] as? [String: Int]) == ["away": 96, "home": 111])
        // MQTT's event topic: the same events, each once.
        let published = subscriber.on("faceoff/event").compactMap { $0.json["id"] as? String }
        #expect(published == ids, "\(published)")
        // The Magic's own device (never the NHL's), its state walked to the final, its triggers fired.
        #expect(
            await eventually(within: .seconds(10)) {
                subscriber.on("faceoff/team/nba-ORL/state").last?.json["state"] as? String == "final"
            })
        let state = subscriber.on("faceoff/team/nba-ORL/state").last?.json ?? [:]
        #expect(state["score"] as? String == "111–96" && state["opponent"] as? String == "TOR" && state["period"] as? String == "Q4")
        #expect(!subscriber.on("homeassistant/device_automation/faceoff_nba-ORL/lead_taken/config").isEmpty)
        #expect(subscriber.on("faceoff/team/nba-ORL/trigger/win").count == 1)
        #expect(subscriber.on("faceoff/team/nba-ORL/trigger/lead_taken").count == 3)
        #expect(!subscriber.messages.contains { $0.topic.contains("/ORL/") || $0.topic.contains("faceoff_ORL") })
    }
}
