import FaceoffBase
import FaceoffKit
import FaceoffNHL
import Foundation
import Testing

extension Checkers {
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> CLI.Result {
        try await CLI.execute(executable, arguments, environment: environment)
    }

    static func khalConfig(in directory: URL, calendar: URL) throws -> URL {
        let file = directory.appendingPathComponent("khal.conf")
        try """
        [calendars]
        [[nhl]]
        path = \(calendar.path)
        type = calendar
        [locale]
        timeformat = %H:%M
        dateformat = %Y-%m-%d
        longdateformat = %Y-%m-%d
        datetimeformat = %Y-%m-%d %H:%M
        longdatetimeformat = %Y-%m-%d %H:%M
        [default]
        default_calendar = nhl
        """.write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}

@Suite("faceoff calendar and serve, the binary", .timeLimit(.minutes(10))) struct CalendarCommandTests {
    static let environment = [
        "FACEOFF_API_BASE": "file://\(CLI.mirror.path)/",
        "FACEOFF_NOW": "2025-10-25T20:00:00Z",
    ]

    func run(_ cli: CLI, _ arguments: [String], extra: [String: String] = [:]) async throws -> CLI.Result {
        try await cli.run(arguments, environment: Self.environment.merging(extra) { $1 })
    }

    var calendars: (CLI) -> URL { { $0.home.appendingPathComponent(".local/share/faceoff/calendars") } }

    @Test func writesTheFollowedTeamsAndFavourites() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        #expect(try await run(cli, ["follow", "TOR", "MTL"]).status == 0)
        let first = try await run(cli, ["calendar"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("TOR.ics: 8 games, 8 new or changed"))
        #expect(first.stdout.contains("MTL.ics: 7 games"))
        #expect(first.stdout.contains("favourites.ics: 14 games"))
        let again = try await run(cli, ["calendar"])
        #expect(again.stdout.contains("TOR.ics: 8 games, unchanged"))
        let files = try FileManager.default.contentsOfDirectory(atPath: calendars(cli).path).sorted()
        #expect(files == ["MTL.ics", "TOR.ics", "favourites.ics"])
    }

    @Test func oneFeedToStdoutOrAFile() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let stdout = try await run(cli, ["calendar", "MTL", "-o", "-", "--home-only", "--reminder", "1h", "--no-scores"])
        #expect(stdout.status == 0, "\(stdout.stderr)")
        #expect(stdout.stdout.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(stdout.stdout.contains("TRIGGER:-PT1H"))
        #expect(stdout.stdout.contains("LOCATION:Centre Bell"))
        #expect(!stdout.stdout.contains("LOCATION:TD Garden"))
        #expect(!stdout.stdout.contains("Final:"))
        let file = cli.home.appendingPathComponent("mtl.ics")
        let written = try await run(cli, ["calendar", "MTL", "-o", file.path])
        #expect(written.status == 0)
        #expect(FileManager.default.fileExists(atPath: file.path))
    }

    @Test func usageErrors() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        #expect(try await run(cli, ["calendar"]).status == 2)
        #expect(try await run(cli, ["calendar", "TOR", "MTL", "-o", "-"]).status == 2)
        let both = try await run(cli, ["calendar", "TOR", "--home-only", "--away-only"])
        #expect(both.status == 2)
        // One prefix for every error, ArgumentParser's usage errors too.
        #expect(both.stderr.hasPrefix("faceoff: ") && !both.stderr.contains("Error:"), "\(both.stderr)")
        #expect(try await run(cli, ["calendar", "TOR", "--types", "regular,finals"]).status == 2)
        #expect(try await run(cli, ["calendar", "TRO"]).stderr.contains("did you mean TOR?"))
    }

    /// One team's schedule failing (another league's, or one file gone from the mirror) never
    /// keeps the favourites feed from the teams that answered: it is written, the failing
    /// team keeps the games it had, a warning names it, and the exit status says not all is new.
    @Test func oneFailingTeamDoesNotHoldBackTheFavourites() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let mirror = try cli.copyMirror()
        let extra = ["FACEOFF_API_BASE": "file://\(mirror.path)/", "FACEOFF_ESPN_BASE": "file:///nonexistent/espn/"]
        #expect(try await run(cli, ["follow", "TOR", "MTL", "nba:LAL"], extra: extra).status == 0)
        let first = try await run(cli, ["calendar"], extra: extra)
        #expect(first.status == 1)
        #expect(first.stdout.contains("favourites.ics: 14 games"), "\(first.stdout)\n\(first.stderr)")
        #expect(first.stderr.contains("warning: nba:LAL's schedule could not be had"), "\(first.stderr)")
        #expect(first.stderr.contains("LAL.ics not updated"))
        let favourites = calendars(cli).appendingPathComponent("favourites.ics")
        let good = try String(contentsOf: favourites, encoding: .utf8)
        // Next time Montreal's schedule is gone too, and nothing is cached: its games stay.
        try FileManager.default.removeItem(at: mirror.appendingPathComponent("club-schedule-season/MTL"))
        let store = cli.home.appendingPathComponent(".local/state/faceoff/faceoff.sqlite").path
        #expect(try await CLI.sqlite(store, "db.execute('DELETE FROM response_cache')").status == 0)
        let second = try await run(cli, ["calendar"], extra: extra)
        #expect(second.status == 1)
        #expect(second.stdout.contains("favourites.ics: 14 games"), "\(second.stdout)\n\(second.stderr)")
        #expect(second.stderr.contains("warning: MTL's schedule could not be had"), "\(second.stderr)")
        // Montreal's games as they were: none dropped, none cancelled.
        #expect(try String(contentsOf: favourites, encoding: .utf8) == good)
    }

    @Test func anUnreachableScheduleKeepsTheLastGoodFeed() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        #expect(try await run(cli, ["calendar", "TOR"]).status == 0)
        let path = calendars(cli).appendingPathComponent("TOR.ics")
        let good = try String(contentsOf: path, encoding: .utf8)
        // A fresh store (no cache) and a mirror without the schedule.
        try FileManager.default.removeItem(at: cli.home.appendingPathComponent(".local/state"))
        let result = try await run(cli, ["calendar", "TOR"], extra: ["FACEOFF_API_BASE": "file:///nonexistent/v1/"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("TOR.ics not updated"))
        #expect(result.stderr.contains("the last good feed stays"))
        #expect(try String(contentsOf: path, encoding: .utf8) == good)
        // A feed never written has no last good one to speak of.
        let never = try await run(cli, ["calendar", "MTL"], extra: ["FACEOFF_API_BASE": "file:///nonexistent/v1/"])
        #expect(never.status == 1 && never.stderr.contains("MTL.ics not updated"), "\(never.stderr)")
        #expect(!never.stderr.contains("last good"), "\(never.stderr)")
    }

    @Test(.enabled(if: Checkers.python != nil, "no Python with the icalendar package (.ci/run makes .venv)"))
    func theIcalendarPackageReadsEveryFeed() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        #expect(try await run(cli, ["follow", "TOR", "MTL"]).status == 0)
        #expect(try await run(cli, ["calendar"]).status == 0)
        #expect(
            try await run(
                cli,
                [
                    "calendar", "TOR", "--no-scores", "--reminder", "1h", "--reminder", "15m", "-o",
                    cli.home.appendingPathComponent("spoiler-free.ics").path,
                ]
            ).status == 0)
        let files =
            ["TOR", "MTL", "favourites"].map { calendars(cli).appendingPathComponent("\($0).ics").path } + [
                cli.home.appendingPathComponent("spoiler-free.ics").path
            ]
        let checked = try await Checkers.run(Checkers.python!, [CLI.root.appendingPathComponent("Tests/tools/check_ics.py").path] + files)
        #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: [String: Any]]
        #expect(report?[files[0]]?["events"] as? Int == 8)
        #expect(report?[files[1]]?["events"] as? Int == 7)
        #expect(report?[files[2]]?["events"] as? Int == 14)
        #expect((report?[files[0]]?["summaries"] as? [String])?.contains("Maple Leafs 5–2 Canadiens · W") == true)
    }

    @Test(.enabled(if: Checkers.python != nil && Recordings.nhlAvailable, "needs the icalendar package and ../shared/nhl-api/fixtures"))
    func theIcalendarPackageReadsFeedsOfEveryRecordedSchedule() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        // A mirror of the four recorded club schedules, under the seasons they hold.
        let mirror = cli.home.appendingPathComponent("mirror/v1")
        let recorded = [
            ("MTL", "20242025", "club-schedule-season_MTL_20242025_full-season-final.json", 93),
            ("NSH", "20242025", "club-schedule-season_NSH_20242025_contains-CNCL-game.json", 88),
            ("BOS", "20252026", "club-schedule-season_BOS_20252026_contains-TBD-game.json", 88),
            ("UTA", "20252026", "club-schedule-season_UTA_20252026_mostly-FUT.json", 89),
        ]
        for (team, season, file, _) in recorded {
            let target = mirror.appendingPathComponent("club-schedule-season/\(team)/\(season)")
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Recordings.nhl.appendingPathComponent(file), to: target)
        }
        let out = cli.home.appendingPathComponent("feeds")
        let base = ["FACEOFF_API_BASE": "file://\(mirror.path)/"]
        for (season, teams) in [("20242025", ["MTL", "NSH"]), ("20252026", ["BOS", "UTA"])] {
            let result = try await run(
                cli, ["calendar"] + teams + ["--season", season, "--types", "preseason,regular,playoffs", "--dir", out.path], extra: base)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let files = recorded.map { out.appendingPathComponent("\($0.0).ics").path }
        let checked = try await Checkers.run(Checkers.python!, [CLI.root.appendingPathComponent("Tests/tools/check_ics.py").path] + files)
        #expect(checked.status == 0, "\(checked.stdout.prefix(500)) \(checked.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: [String: Any]]
        for (index, entry) in recorded.enumerated() {
            #expect(report?[files[index]]?["events"] as? Int == entry.3, "\(entry.0)")
        }
    }

    @Test(.enabled(if: Checkers.khal, "khal is not installed (.ci/run installs it)"))
    func khalCountsEveryEvent() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        #expect(try await run(cli, ["calendar", "TOR"]).status == 0)
        let empty = cli.home.appendingPathComponent("khal-calendar")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let config = try Checkers.khalConfig(in: cli.home, calendar: empty)
        let printed = try await Checkers.run(
            "/usr/bin/khal", ["-c", config.path, "printics", calendars(cli).appendingPathComponent("TOR.ics").path],
            environment: ["HOME": cli.home.path, "TZ": "UTC", "LANG": "C.UTF-8"])
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout.contains("8 events found"))
        #expect(printed.stdout.contains("Maple Leafs 5–2 Canadiens · W"))
    }

    @Test(.enabled(if: Checkers.khal && Checkers.vdirsyncer, "vdirsyncer and khal are not installed (.ci/run installs them)"))
    func vdirsyncerSyncsTheServedFeedAndKhalListsIt() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        #expect(try await run(cli, ["follow", "TOR"]).status == 0)
        // faceoff serve on a free port; its first line is the base URL.
        let server = Process()
        server.executableURL = CLI.binary
        server.arguments = ["serve", "--listen", "127.0.0.1:0"]
        server.environment = Self.environment.merging(["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC"]) { $1 }
        let out = Pipe()
        server.standardOutput = out
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { kill(server.processIdentifier, SIGKILL) }
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let base = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(base.hasPrefix("http://127.0.0.1:"))

        let local = cli.home.appendingPathComponent("vdir")
        let status = cli.home.appendingPathComponent("vdirsyncer-status")
        try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
        let config = cli.home.appendingPathComponent("vdirsyncer.conf")
        try """
        [general]
        status_path = "\(status.path)/"

        [pair nhl]
        a = "nhl_remote"
        b = "nhl_local"
        collections = null
        conflict_resolution = "a wins"

        [storage nhl_remote]
        type = "http"
        url = "\(base)calendars/TOR.ics"

        [storage nhl_local]
        type = "filesystem"
        path = "\(local.path)/"
        fileext = ".ics"
        """.write(to: config, atomically: true, encoding: .utf8)
        let environment = ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"]
        let discover = try await Checkers.run("/usr/bin/vdirsyncer", ["-c", config.path, "discover", "nhl"], environment: environment)
        #expect(discover.status == 0, "\(discover.stdout) \(discover.stderr)")
        let sync = try await Checkers.run("/usr/bin/vdirsyncer", ["-c", config.path, "sync"], environment: environment)
        #expect(sync.status == 0, "\(sync.stdout) \(sync.stderr)")
        let synced = try FileManager.default.contentsOfDirectory(atPath: local.path).filter { $0.hasSuffix(".ics") }
        #expect(synced.count == 8)

        let khal = try Checkers.khalConfig(in: cli.home, calendar: local)
        let listed = try await Checkers.run("/usr/bin/khal", ["-c", khal.path, "list", "2025-10-01", "60d"], environment: environment)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("Maple Leafs 5–2 Canadiens · W"))
        #expect(listed.stdout.contains("Maple Leafs @ Rangers"))
    }

    /// A full disk under the calendars, as a user meets it: the feed that can't be written is
    /// named with the reason, the others keep their last good file, the exit status says so.
    @Test(.enabled(if: geteuid() == 0, "needs root to mount a tmpfs"))
    func aFullDiskKeepsTheLastGoodFeedsAndSaysSo() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let data = cli.home.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let mounted = try await CLI.execute("/bin/mount", ["-t", "tmpfs", "-o", "size=128k", "tmpfs", data.path])
        try #require(mounted.status == 0, "mount: \(mounted.stderr)")
        defer { umount(data.path) }
        let extra = ["XDG_DATA_HOME": data.path]
        #expect(try await run(cli, ["config", "init", "TOR"], extra: extra).status == 0)
        #expect(try await run(cli, ["calendar"], extra: extra).status == 0)
        let feeds = data.appendingPathComponent("faceoff/calendars")
        let before = try Data(contentsOf: feeds.appendingPathComponent("TOR.ics"))
        _ = try await CLI.execute("/bin/dd", ["if=/dev/zero", "of=\(data.path)/filler", "bs=4096"])
        #expect(try await run(cli, ["follow", "MTL"], extra: extra).status == 0)
        let full = try await run(cli, ["calendar"], extra: extra)
        #expect(full.status == 1)
        #expect(
            full.stderr.contains("MTL.ics not updated: cannot write \(feeds.path)/MTL.ics: the disk is full; free some space"),
            "\(full.stderr)")
        #expect(!full.stderr.contains("Domain="), "\(full.stderr)")
        #expect(try Data(contentsOf: feeds.appendingPathComponent("TOR.ics")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: feeds.path).sorted() == ["TOR.ics", "favourites.ics"])
    }
}
