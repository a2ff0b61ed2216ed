import FaceoffBase
import FaceoffHTTP
import FaceoffKit
import FaceoffNHL
import Foundation
import Testing

@Suite("faceoff, the binary", .timeLimit(.minutes(10))) struct CLITests {
    @Test func helpAndVersion() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let help = try await cli.run(["--help"])
        #expect(help.status == 0)
        for word in ["follow", "unfollow", "config", "api", "--offline", "Examples:"] {
            #expect(help.stdout.contains(word), "help lacks \(word)")
        }
        let version = try await cli.run(["--version"])
        #expect(version.status == 0)
        let line = version.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.wholeMatch(of: /\d+\.\d+\.\d+ \(commit ([0-9a-f]{7,40}(-dirty)?|unknown)\)/) != nil, "\(line)")
    }

    /// The commit is written into the finished binary the way contrib/Makefile does it: its
    /// 64-byte section replaced with objcopy, nothing rebuilt.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/objcopy"), "needs objcopy (binutils)"))
    func theCommitIsStampedIntoTheBinary() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let stamp = cli.home.appendingPathComponent("commit")
        var bytes = Array("0123456789ab-dirty".utf8)
        bytes += [UInt8](repeating: 0, count: 64 - bytes.count)
        try Data(bytes).write(to: stamp)
        let stamped = cli.home.appendingPathComponent("faceoff")
        let objcopy = try await CLI.execute(
            "/usr/bin/objcopy", ["--update-section", ".faceoff_commit=\(stamp.path)", CLI.binary.path, stamped.path])
        #expect(objcopy.status == 0, "\(objcopy.stderr)")
        let version = try await CLI.execute(stamped.path, ["--version"])
        #expect(version.stdout.hasSuffix(" (commit 0123456789ab-dirty)\n"), "\(version.stdout)")
    }

    @Test func libcurlIsLoadedOnlyForARequestAndItsAbsenceIsExplained() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        // A libcurl.so.4 that is not a library, found first.
        let broken = cli.home.appendingPathComponent("broken-lib")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try Data("not a library".utf8).write(to: broken.appendingPathComponent("libcurl.so.4"))
        let environment = ["LD_LIBRARY_PATH": broken.path, "FACEOFF_API_BASE": "http://127.0.0.1:1/v1/"]
        // What never goes online doesn't need it.
        #expect(try await cli.run(["config", "init", "TOR"], environment: environment).status == 0)
        let status = try await cli.run(["status"], environment: environment)
        #expect(status.status == 0, "\(status.stderr)")
        // A request says what is missing and how to get it, and is not retried.
        let fetch = try await cli.run(["api", "standings/now"], environment: environment)
        #expect(fetch.status == 1)
        #expect(fetch.stderr.contains("libcurl") && fetch.stderr.contains("apt-get install libcurl4"), "\(fetch.stderr)")
        #expect(!fetch.stderr.contains("retrying"))
        // The service, which needs it all the time, refuses to start.
        let run = try await cli.run(["run"], environment: environment)
        #expect(run.status == 1)
        #expect(run.stderr.contains("libcurl could not be loaded"), "\(run.stderr)")
    }

    @Test func usageErrorsExitTwo() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let unknown = try await cli.run(["bogus"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("bogus"))
        #expect(try await cli.run(["follow"]).status == 2)
        #expect(try await cli.run(["config", "show", "--no-such-flag"]).status == 2)
    }

    @Test func followWritesTheConfigAndKeepsComments() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        try FileManager.default.createDirectory(at: cli.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "# mine, hands off\nteams = [\"TOR\"]  # home team\n\n[watch]\npoll = \"10s\" # slower\n".write(
            to: cli.configFile, atomically: true, encoding: .utf8)

        // Two spellings of one team are followed, and said, once.
        let follow = try await cli.run(["follow", "MTL", "bruins", "BOS"])
        #expect(follow.status == 0, "\(follow.stderr)")
        #expect(follow.stdout.contains("Following MTL, BOS ("), "\(follow.stdout)")
        #expect(follow.stdout.contains("Teams: TOR, MTL, BOS"))
        let text = try String(contentsOf: cli.configFile, encoding: .utf8)
        #expect(text == "# mine, hands off\nteams = [\"TOR\", \"MTL\", \"BOS\"]  # home team\n\n[watch]\npoll = \"10s\" # slower\n")

        let unfollow = try await cli.run(["unfollow", "TOR", "NYR"])
        #expect(unfollow.status == 0)
        #expect(unfollow.stdout.contains("Teams: MTL, BOS"))
        #expect(unfollow.stderr.contains("NYR was not followed"))
    }

    @Test func followCreatesAFileWhenThereIsNone() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        #expect(try await cli.run(["follow", "TOR"]).status == 0)
        let validate = try await cli.run(["config", "validate"])
        #expect(validate.status == 0)
        #expect(validate.stdout.contains("OK (1 team, 0 sinks)"))
    }

    @Test func anEmptyFACEOFF_CONFIGMeansTheDefault() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let path = try await cli.run(["config", "path"], environment: ["FACEOFF_CONFIG": ""])
        #expect(path.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == cli.configFile.path)
        #expect(try await cli.run(["config", "init", "TOR"], environment: ["FACEOFF_CONFIG": ""]).status == 0)
        #expect(FileManager.default.fileExists(atPath: cli.configFile.path))
    }

    @Test func unfollowWithoutAConfigWritesNothing() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await cli.run(["unfollow", "TOR"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("TOR was not followed"))
        #expect(!FileManager.default.fileExists(atPath: cli.configFile.path))
    }

    @Test func anUnknownTeamSuggestsAndChangesNothing() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await cli.run(["follow", "TRO"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown team 'TRO' (did you mean TOR?)"))
        #expect(!FileManager.default.fileExists(atPath: cli.configFile.path))
    }

    @Test func configErrorsNameFileAndLineAndExitTwo() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        try FileManager.default.createDirectory(at: cli.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "# teams\ntems = [\"TOR\"]\n".write(to: cli.configFile, atomically: true, encoding: .utf8)
        let result = try await cli.run(["config", "validate"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("~/.config/faceoff/config.toml:2: unknown key 'tems' (did you mean 'teams'?)"))
        // Editing refuses to touch a broken file.
        #expect(try await cli.run(["follow", "TOR"]).status == 2)
        #expect(try String(contentsOf: cli.configFile, encoding: .utf8) == "# teams\ntems = [\"TOR\"]\n")
    }

    @Test func validateChecksTemplateOverrides() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let templates = cli.home.appendingPathComponent(".config/faceoff/templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try "{{us}} v {{them}}\n{{#final}}oops\n".write(
            to: templates.appendingPathComponent("calendar-summary.mustache"), atomically: true, encoding: .utf8)
        let broken = try await cli.run(["config", "validate"])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("templates/calendar-summary.mustache:"))
        #expect(broken.stderr.contains("template error"))
        try "{{us}} v {{them}}\n".write(
            to: templates.appendingPathComponent("calendar-summary.mustache"), atomically: true, encoding: .utf8)
        let fixed = try await cli.run(["config", "validate"])
        #expect(fixed.status == 0)
        #expect(fixed.stdout.contains("calendar-summary"))
        // The user's template is the one used.
        let feed = try await cli.run(["calendar", "TOR", "-o", "-"], environment: ["FACEOFF_API_BASE": "file://\(CLI.mirror.path)/"])
        #expect(feed.stdout.contains("SUMMARY:Maple Leafs v Canadiens"))
    }

    @Test func showRedactsSecretsAndGlobalOptionsGoAnywhere() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let custom = cli.home.appendingPathComponent("elsewhere.toml")
        try """
        teams = ["MTL"]
        [serve]
        token = "hunter2"
        [[sink]]
        type = "webhook"
        url = "https://discord.example/api/webhooks/123/secret-part"
        secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        headers = { Authorization = "Bearer abc" }
        """.write(to: custom, atomically: true, encoding: .utf8)
        for arguments in [["--config", custom.path, "config", "show"], ["config", "show", "--config", custom.path]] {
            let show = try await cli.run(arguments)
            #expect(show.status == 0, "\(show.stderr)")
            #expect(show.stdout.contains("teams = [\"MTL\"]"))
            for secret in ["hunter2", "secret-part", "MfKQ9r8G", "Bearer abc"] {
                #expect(!show.stdout.contains(secret), "\(secret) leaked")
            }
            #expect(show.stdout.contains("<redacted>"))
            // The webhook's host stays, as doctor shows it: which receiver it is.
            #expect(show.stdout.contains("url = \"https://discord.example/…\""), "\(show.stdout)")
        }
        let json = try await cli.run(["--json", "config", "show"], environment: ["FACEOFF_CONFIG": custom.path])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["teams"] as? [String] == ["MTL"])
        #expect((object?["serve"] as? [String: Any])?["token"] as? String == "<redacted>")

        // Between nested subcommands too.
        let between = try await cli.run(["config", "--json", "show", "--config", custom.path])
        #expect(between.status == 0)
        #expect(between.stdout.hasPrefix("{"))

        let missing = try await cli.run(["config", "show", "--config", cli.home.appendingPathComponent("nope.toml").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("faceoff config init"))
    }

    @Test func apiReadsAFileMirrorAndWorksOfflineFromTheCache() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        // A copy of the mirror that can disappear, as the network can.
        let mirror = try cli.copyMirror()
        let base = "file://\(mirror.path)/"

        let online = try await cli.run(["--api-base", base, "api", "standings/now"])
        #expect(online.status == 0, "\(online.stderr)")
        let rows = (try JSONSerialization.jsonObject(with: Data(online.stdout.utf8)) as? [String: Any])?["standings"] as? [Any]
        #expect(rows?.count == 32)
        #expect(FileManager.default.fileExists(atPath: cli.home.appendingPathComponent(".local/state/faceoff/faceoff.sqlite").path))

        try FileManager.default.removeItem(at: mirror)
        let offline = try await cli.run(["api", "standings/now", "--offline"], environment: ["FACEOFF_API_BASE": base])
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdout == online.stdout)
        #expect(offline.stderr.contains("using data from"))
        #expect(offline.stderr.contains("offline"))

        let notCached = try await cli.run(["--offline", "--api-base", base, "api", "roster/TOR/current"])
        #expect(notCached.status == 1)
        #expect(notCached.stderr.contains("no cached copy"))

        let gone = try await cli.run(["--api-base", base, "api", "roster/TOR/current"])
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("roster/TOR/current"))
    }

    @Test func aBadAPIBaseIsAUsageError() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await cli.run(["api", "standings/now", "--api-base", "https://api-web.nhle.com/"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("must end in /v1/"))
    }

    @Test func followAPlayerByName() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let base = "file://\(CLI.mirror.path)/"
        // Only TOR's roster is in the mirror; the other 31 are "not found" and skipped.
        let result = try await cli.run(["follow", "--player", "auston matthews", "--api-base", base])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Auston Matthews (TOR"))
        #expect(try String(contentsOf: cli.configFile, encoding: .utf8).contains("players = [8479318]"))

        // Not in the one roster there is: the 31 the mirror lacks are said, not "check the
        // spelling".
        let none = try await cli.run(["follow", "--player", "Wayne Gretzky", "--api-base", base])
        #expect(none.status == 1)
        #expect(none.stderr.contains("31 of 32 rosters could not be read"), "\(none.stderr)")
    }
}
