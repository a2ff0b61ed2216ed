import FaceoffHTTP
import FaceoffKit
import FaceoffNHL
import Foundation
import Testing

@Suite("faceoff run, the binary", .timeLimit(.minutes(10))) struct RunCommandTests {

    /// Two replayed games (one between two followed teams), a power play spanning at least
    /// two polls: the calendar is written before the games and shows the finals after; every
    /// alert reaches the webhook once, even across a SIGKILL and a restart; SIGTERM ends it
    /// within 5 s.
    @Test(.enabled(if: Checkers.standardWebhooks, Checkers.noWebhookChecker))
    func runWatchesDeliversSurvivesAKillAndStops() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        // 30x: a two-minute power play lasts 4 s, two polls of 2 s.
        let replay = try await Replays.serveBothGames(cli, speed: 30)
        defer { replay.kill() }
        let base = replay.output[0]
        let receiver = try await Replays.followBothWithAReceiver(cli)
        defer { receiver.process.kill() }
        let environment = ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "NO_COLOR": "1", "FACEOFF_API_BASE": base]
        let first = try Background(CLI.binary.path, ["run"], environment: environment)
        defer { first.kill() }
        // Before puck drop: both games in the calendar, no score yet.
        #expect(await first.wait(timeout: 8) { _ in cli.calendar("TOR").contains("UID:") })
        let before = cli.calendar("TOR")
        #expect(before.contains("2025020100") && before.contains("2025029999"))
        #expect(!before.contains(" W\r\n") && !before.contains("· W"))
        // A second run on the same store refuses to start.
        let second = try await cli.run(["run"], environment: ["FACEOFF_API_BASE": base])
        #expect(second.status == 1)
        #expect(second.stderr.contains("already running"))

        // Killed mid-game...
        let reference = try Replays.reference()
        #expect(await first.wait(timeout: 120) { _ in receiver.accepted.count >= 20 })
        first.kill()
        // ...and started again: it picks the games up where the ledger says.
        let again = try Background(CLI.binary.path, ["run"], environment: environment)
        defer { again.kill() }
        let finals = reference.keys.map { "\($0):final" }
        #expect(await again.wait(timeout: 240) { _ in finals.allSatisfy(receiver.accepted.contains) })
        // The calendar shows the finals within a poll.
        #expect(
            await again.wait(timeout: 5) { _ in
                let text = cli.calendar("TOR")
                return text.contains("Maple Leafs 3–1 Bruins") && text.contains("Maple Leafs 5–3 Canadiens")
            })
        // SIGTERM: gone within 5 s.
        let stopping = Date()
        again.signal(SIGTERM)
        let status = await again.exit(within: 10)
        #expect(status != nil)
        #expect(Date().timeIntervalSince(stopping) < 5)
        // The log: one line per alert once its outcome is known, naming the webhook's answer
        // (never just "queued").
        let log = again.stderr.split(separator: "\n").map(String.init)
        for game in reference.keys {
            let said = log.filter { $0.hasSuffix("event=\(game):final") }
            #expect(said.count == 1 && said.allSatisfy { $0.contains(": home ✓ 2") && $0.contains(" · stdout ✓") }, "\(said)")
        }
        #expect(!log.contains { $0.contains("home queued") }, "\(again.stderr)")

        // Every event of both games, exactly once by webhook-id, each game's in order, all
        // signed. The only redelivery allowed is of the one alert whose 2xx may have come
        // back as the first process was killed (same webhook-id; receivers deduplicate).
        let accepted = receiver.deduplicated
        #expect(Set(accepted).count == accepted.count)
        #expect(receiver.accepted.count - accepted.count <= 1, "redeliveries: \(receiver.accepted.count - accepted.count)")
        for (game, ids) in reference {
            // The games start 25 s after the server: a first poll before puck drop also sends
            // the pregame alert (first, once); one after it doesn't (GameWatcherTests pin that).
            let pregame = "\(game):pregame:30"
            let got = accepted.filter { $0.hasPrefix("\(game):") }
            #expect(got.filter { $0 != pregame } == ids, "game \(game)")
            #expect(!got.dropFirst().contains(pregame))
        }
        #expect(receiver.entries.allSatisfy { $0["verified"] as? Bool == true })
        // The power plays, pulled goalies, periods and goals are among them.
        for kind in ["goal", "power_play_start", "power_play_end", "goalie_pulled", "period_end", "final"] {
            #expect(accepted.contains { $0.contains(":\(kind)") }, "\(kind)")
        }
    }

    @Test func aBadConfigOnReloadIsRefusedAndTheOldOneKept() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        // A stdout sink, so no desktop notification (nor a logo fetch) can happen even where
        // a session bus exists.
        let sink = "[[sink]]\ntype = \"stdout\"\n"
        try cli.writeConfig("teams = []\n" + sink)
        let run = try Background(
            CLI.binary.path, ["run"],
            environment: ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "FACEOFF_API_BASE": "file://\(CLI.mirror.path)/"])
        defer { run.kill() }
        #expect(await run.wait(timeout: 20) { _ in run.stderr.contains("waiting") })
        try cli.writeConfig("teams = [\"TOR\"\npoll = 1\n")
        run.signal(SIGHUP)
        #expect(await run.wait(timeout: 20) { _ in run.stderr.contains("config reload refused") })
        #expect(run.status == nil)
        try cli.writeConfig("teams = [\"MTL\"]\n" + sink)
        run.signal(SIGHUP)
        #expect(await run.wait(timeout: 20) { _ in run.stderr.contains("config reloaded") })
        #expect(await run.wait(timeout: 20) { _ in cli.calendar("MTL").contains("UID:") })
        run.signal(SIGINT)
        #expect(await run.exit(within: 5) != nil)
    }

    /// The config deleted, a dotfiles link whose target is gone, a link loop: a reload keeps
    /// the running config and says why, instead of dropping every team and sink.
    @Test func aVanishedConfigOnReloadKeepsTheRunningOne() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let sink = "[[sink]]\ntype = \"stdout\"\n"
        try cli.writeConfig("teams = [\"TOR\"]\n" + sink)
        let run = try Background(
            CLI.binary.path, ["run"],
            environment: ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "FACEOFF_API_BASE": "file://\(CLI.mirror.path)/"])
        defer { run.kill() }
        #expect(await run.wait(timeout: 20) { _ in run.stderr.contains("waiting") })
        let file = cli.configFile.path
        let kept = try String(contentsOfFile: file, encoding: .utf8)
        let cases: [(String, () throws -> Void)] = [
            ("config.toml does not exist", {}),
            (
                "is a link to /nowhere/faceoff.toml, which does not exist",
                { try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "/nowhere/faceoff.toml") }
            ),
            ("is a loop of symbolic links", { try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: file) }),
        ]
        for (index, (words, breakIt)) in cases.enumerated() {
            try? FileManager.default.removeItem(atPath: file)
            try breakIt()
            run.signal(SIGHUP)
            #expect(
                await run.wait(timeout: 20) { _ in
                    run.stderr.components(separatedBy: "config reload refused; keeping the running config").count == index + 2
                }, "\(words)")
            #expect(run.stderr.contains(words), "\(run.stderr.suffix(600))")
        }
        #expect(!run.stderr.contains("config reloaded"))
        let doctor = try await cli.run(["doctor"], environment: ["FACEOFF_API_BASE": "file://\(CLI.mirror.path)/"])
        #expect(doctor.stdout.contains("! config: ~/.config/faceoff/config.toml is a loop of symbolic links"), "\(doctor.stdout)")
        try FileManager.default.removeItem(atPath: file)
        try kept.write(toFile: file, atomically: true, encoding: .utf8)
        run.signal(SIGHUP)
        #expect(await run.wait(timeout: 20) { _ in run.stderr.contains("config reloaded") })
        #expect(run.stderr.contains("teams=TOR"))
    }

    /// A receiver that answers HEAD with 501 (Python's http.server does) or 405 but takes
    /// POSTs: doctor says it can't check it that way, suggests --send, and doesn't fail. A
    /// config with a mistake is reported once, and the rest is still checked.
    @Test func doctorTellsTheTruthAboutHEADAndABrokenConfig() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        // Python's http.server answers a method it has no handler for (HEAD here) with 501.
        let receiver = try Background(
            "/usr/bin/python3",
            [
                "-c",
                """
                import http.server
                class Hook(http.server.BaseHTTPRequestHandler):
                    def do_POST(self):
                        self.rfile.read(int(self.headers.get("Content-Length", 0)))
                        self.send_response(204)
                        self.end_headers()
                    def log_message(self, *args):
                        pass
                server = http.server.HTTPServer(("127.0.0.1", 0), Hook)
                print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
                server.serve_forever()
                """,
            ], environment: ["PATH": "/usr/bin:/bin"])
        defer { receiver.kill() }
        try #require(await receiver.wait(timeout: 30) { !$0.isEmpty })
        let environment = ["FACEOFF_API_BASE": "file://\(CLI.mirror.path)/"]
        try cli.writeConfig("teams = [\"TOR\"]\n[[sink]]\ntype = \"webhook\"\nname = \"hook\"\nurl = \"\(receiver.output[0])/hook\"\n")
        let doctor = try await cli.run(["doctor"], environment: environment)
        #expect(
            doctor.stdout.contains("! webhook hook:") && doctor.stdout.contains("doesn't answer HEAD (501 Not Implemented)")
                && doctor.stdout.contains("--send"), "\(doctor.stdout)")
        // No notify sink (and sinks configured): the desktop is none of its business.
        #expect(!doctor.stdout.contains("desktop notifications"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("✗ webhook"))
        let sent = try await cli.run(["doctor", "--send"], environment: environment)
        #expect(sent.stdout.contains("✓ webhook hook:"), "\(sent.stdout)")

        try cli.writeConfig("teams = [\"TOR\"]\npoll = 1\n")
        let broken = try await cli.run(["doctor"], environment: environment)
        #expect(broken.status == 1)
        #expect(
            (broken.stdout + broken.stderr).components(separatedBy: "unknown key 'poll'").count == 2, "\(broken.stdout)\(broken.stderr)")
        #expect(broken.stdout.contains("✓ store:") && broken.stdout.contains("✓ NHL API:"), "\(broken.stdout)")
    }

    /// The status line in the pregame window shows the coming game (not the last final), a
    /// final shows the next game after it, and a line that can't be known is a placeholder on
    /// stdout with a non-zero exit, never a blank bar or "No game scheduled".
    @Test func theStatusLineAlwaysSaysSomethingTrue() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        try cli.writeConfig("teams = [\"TOR\"]\n")
        let base = ["FACEOFF_API_BASE": "file://\(CLI.mirror.path)/", "TZ": "America/Toronto"]
        #expect(try await cli.run(["schedule"], environment: base.merging(["FACEOFF_NOW": "2025-10-25T12:00:00Z"]) { $1 }).status == 0)
        // TOR's last game ended an hour before noon.
        let seeded = try await CLI.sqlite(
            cli.storeFile.path,
            """
            db.execute("INSERT OR REPLACE INTO live_game (game_id, away, home, away_score, home_score, period_label, clock, intermission, situation, state, updated_at) VALUES (2025020100, 'BOS', 'TOR', 1, 3, '3rd', '00:00', 0, NULL, 'final', 1761390000)")
            """)
        try #require(seeded.status == 0, "\(seeded.stderr)")
        let noon = try await cli.run(["status"], environment: base.merging(["FACEOFF_NOW": "2025-10-25T12:00:00Z"]) { $1 })
        #expect(noon.stdout.hasPrefix("Final: BOS 1–3 TOR · Next: TOR @ BUF Sat Oct 25 19:00"), "\(noon.stdout)")
        let pregame = try await cli.run(["status"], environment: base.merging(["FACEOFF_NOW": "2025-10-25T22:40:00Z"]) { $1 })
        #expect(pregame.stdout == "TOR @ BUF 19:00 · starts in 20m\n", "\(pregame.stdout)")
        // A store that is not a database: said, and the exit status says so.
        try Data("not a database at all, just bytes".utf8).write(to: cli.storeFile)
        for flags in [[], ["--tmux"]] {
            let unreadable = try await cli.run(["status"] + flags, environment: base)
            #expect(
                unreadable.stdout == "faceoff: store unreadable\n" && unreadable.status != 0, "\(unreadable.stdout) \(unreadable.status)")
        }
        try "teams = [\"XXX\"]\n".write(to: cli.configFile, atomically: true, encoding: .utf8)
        for flags in [[], ["--tmux"], ["--offline"]] {
            let broken = try await cli.run(["status"] + flags, environment: base)
            #expect(broken.stdout == "faceoff: config error\n" && broken.status != 0, "\(flags): \(broken.stdout)")
        }
    }

    @Test func statusReadsTheStoreAlone() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        try cli.writeConfig("teams = [\"TOR\"]\n")
        let environment = ["FACEOFF_API_BASE": "file://\(CLI.mirror.path)/", "FACEOFF_NOW": "2025-10-25T12:00:00Z"]
        // Nothing cached yet: said so, with how to fetch it, and no network asked.
        #expect(
            try await cli.run(["status"], environment: ["FACEOFF_API_BASE": "http://127.0.0.1:1/v1/"]).stdout
                == "No schedule cached yet · faceoff schedule fetches it\n")
        // Once the schedule is in the cache: the next game.
        #expect(try await cli.run(["schedule"], environment: environment).status == 0)
        let next = try await cli.run(["status", "--json"], environment: environment)
        #expect(next.status == 0, "\(next.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [String: Any])
        #expect(document["state"] as? String == "next" || document["state"] as? String == "live")
        let tmux = try await cli.run(["status", "--tmux"], environment: environment)
        #expect(tmux.stdout.contains("#[fg="))

        // The plain command lines skip ArgumentParser; with any other option they don't. Both
        // ways must print the same thing.
        for flags in [[], ["--tmux"], ["--json"], ["--json", "--no-color"]] {
            let fast = try await cli.run(["status"] + flags, environment: environment)
            let parsed = try await cli.run(["status", "--offline"] + flags, environment: environment)
            #expect(fast.status == 0 && parsed.status == 0, "\(fast.stderr) \(parsed.stderr)")
            #expect(fast.stdout == parsed.stdout, "status \(flags)")
        }
        // ... and fail the same way.
        let both = try await cli.run(["status", "--tmux", "--json"], environment: environment)
        #expect(both.status == 2 && both.stderr.contains("--tmux and --json"))
        try "teams = [\"XXX\"]\n".write(to: cli.configFile, atomically: true, encoding: .utf8)
        let broken = try await cli.run(["status", "--tmux"], environment: environment)
        #expect(broken.status == 2 && broken.stderr.contains("XXX"), "\(broken.stderr)")
    }

    /// The units install.sh writes keep the store, calendars and cache in the user's XDG
    /// folders (and tell faceoff so); a folder the units can't name is refused, not mangled.
    @Test func theUnitsFollowTheUsersXDGFolders() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let units = cli.home.appendingPathComponent("units")
        let script = CLI.root.appendingPathComponent("contrib/units.sh").path
        let rendered = try await CLI.execute(
            "/bin/sh", [script, units.path, "/opt/f/bin/faceoff", "/srv/me/state", "/srv/me/data", "/srv/me/cache"])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        for unit in ["faceoff.service", "faceoff-calendar.service"] {
            let text = try String(contentsOf: units.appendingPathComponent(unit), encoding: .utf8)
            #expect(
                text.contains("Environment=XDG_STATE_HOME=/srv/me/state XDG_DATA_HOME=/srv/me/data XDG_CACHE_HOME=/srv/me/cache"), "\(text)"
            )
            #expect(text.contains("mkdir -p /srv/me/state/faceoff /srv/me/data/faceoff /srv/me/cache/faceoff"))
            #expect(text.contains("ReadWritePaths=-/srv/me/state/faceoff -/srv/me/data/faceoff -/srv/me/cache/faceoff"))
            #expect(!text.contains("@") && !text.contains(".local/state"), "\(text)")
        }
        let spaced = try await CLI.execute("/bin/sh", [script, units.path, "/b", "/srv/my state", "/d", "/c"])
        #expect(spaced.status == 1 && spaced.stderr.contains("'/srv/my state'"), "\(spaced.stderr)")
        // systemd would read % and $ in a folder's name as a specifier and a variable.
        for odd in ["/srv/50%off", "/srv/$USER"] {
            #expect(try await CLI.execute("/bin/sh", [script, units.path, "/b", odd, "/d", "/c"]).status == 1, "\(odd)")
        }
    }

    @Test func doctorSaysWhatIsWrongAndHowToFixIt() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        try cli.writeConfig("teams = [\"TOR\"]\n")
        let good = try await cli.run(["doctor"], environment: ["FACEOFF_API_BASE": "file://\(CLI.mirror.path)/"])
        #expect(good.status == 0, "\(good.stdout)")
        for check in ["✓ config", "✓ templates", "✓ time zones", "✓ store", "✓ calendar directory", "✓ NHL API"] {
            #expect(good.stdout.contains(check), "\(check)")
        }
        #expect(good.stdout.contains("systemd unit: not installed; the Debian package or `make -C contrib install`"))
        // No [[sink]]: run falls back to the desktop, so the desktop is checked.
        #expect(good.stdout.contains("desktop notifications"), "\(good.stdout)")
        // A unit where install.sh writes it with XDG_CONFIG_HOME set is found there.
        let configHome = cli.home.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: configHome.appendingPathComponent("systemd/user"), withIntermediateDirectories: true)
        try Data("[Service]\nExecStart=/bin/true\n".utf8).write(to: configHome.appendingPathComponent("systemd/user/faceoff.service"))
        let installed = try await cli.run(
            ["doctor"], environment: ["FACEOFF_API_BASE": "file://\(CLI.mirror.path)/", "XDG_CONFIG_HOME": configHome.path])
        #expect(installed.stdout.contains("systemd unit: installed"), "\(installed.stdout)")
        let bad = try await cli.run(["doctor"], environment: ["FACEOFF_API_BASE": "http://127.0.0.1:1/v1/"])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("✗ NHL API"))
        #expect(bad.stdout.contains("--offline"))
    }

    /// `[serve] enabled = true`: the same feed server as `faceoff serve`, for the life of `run`.
    @Test func runServesTheFeedsWhenAskedTo() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        try cli.writeConfig("teams = [\"TOR\"]\n[serve]\nenabled = true\nlisten = \"127.0.0.1:0\"\n[[sink]]\ntype = \"stdout\"\n")
        let run = try Background(
            CLI.binary.path, ["run"],
            environment: ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "FACEOFF_API_BASE": "file://\(CLI.mirror.path)/"])
        defer { run.kill() }
        #expect(await run.wait(timeout: 30) { _ in run.stderr.contains("serving the feeds") })
        let url = try #require(
            run.stderr.split(separator: "\n").first { $0.contains("serving the feeds") }?
                .split(separator: " ").first { $0.hasPrefix("url=") }.map { String($0.dropFirst(4)) })
        let base = url.hasSuffix("/") ? url : url + "/"
        let feed = try await CurlHTTPClient().send(HTTPRequest(url: base + "calendars/TOR.ics", retry: nil))
        #expect(feed.status == 200)
        #expect(String(decoding: feed.body, as: UTF8.self).hasPrefix("BEGIN:VCALENDAR"))
        run.signal(SIGTERM)
        #expect(await run.exit(within: 5) != nil)
    }

    /// A GET's status, 0 when nothing answered.
    static func status(_ url: String) async -> Int {
        do { return try await CurlHTTPClient().send(HTTPRequest(url: url, retry: nil)).status } catch let error as HTTPError {
            return error.status ?? 0
        } catch { return 0 }
    }

    /// `[serve]` edited and reloaded: a new token works and the old one never again, a new
    /// team's feed is served, a new listen address is used, and `enabled = false` stops it.
    @Test func aReloadAppliesServe() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let first = try Mosquitto.freePort()
        func config(token: String, teams: String, port: Int, enabled: Bool = true) throws {
            try cli.writeConfig(
                "teams = [\(teams)]\n[serve]\nenabled = \(enabled)\nlisten = \"127.0.0.1:\(port)\"\ntoken = \"\(token)\"\n[[sink]]\ntype = \"stdout\"\n"
            )
        }
        try config(token: "old-secret", teams: "\"TOR\"", port: first)
        let run = try Background(
            CLI.binary.path, ["run"],
            environment: ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "FACEOFF_API_BASE": "file://\(CLI.mirror.path)/"])
        defer { run.kill() }
        #expect(await run.wait(timeout: 30) { _ in run.stderr.contains("serving the feeds") })
        let base = "http://127.0.0.1:\(first)/calendars/"
        #expect(await Self.status(base + "TOR.ics?token=old-secret") == 200)
        #expect(await Self.status(base + "MTL.ics?token=old-secret") == 404)

        try config(token: "new-secret", teams: "\"TOR\", \"MTL\"", port: first)
        run.signal(SIGHUP)
        #expect(await run.wait(timeout: 20) { _ in run.stderr.contains("feed server started again") }, "\(run.stderr.suffix(800))")
        #expect(await Self.status(base + "TOR.ics?token=old-secret") == 404)
        #expect(await Self.status(base + "TOR.ics?token=new-secret") == 200)
        #expect(await Self.status(base + "MTL.ics?token=new-secret") == 200)

        // Picked just before it is used: a port picked at the start could be taken meanwhile by
        // another test's server.
        let second = try Mosquitto.freePort()
        try config(token: "new-secret", teams: "\"TOR\"", port: second)
        run.signal(SIGHUP)
        #expect(
            await run.wait(timeout: 20) { _ in run.stderr.components(separatedBy: "feed server started again").count == 3 },
            "\(run.stderr.suffix(800))")
        #expect(await Self.status("http://127.0.0.1:\(second)/calendars/TOR.ics?token=new-secret") == 200)
        #expect(await Self.status(base + "TOR.ics?token=new-secret") == 0)

        try config(token: "new-secret", teams: "\"TOR\"", port: second, enabled: false)
        run.signal(SIGHUP)
        #expect(await run.wait(timeout: 20) { _ in run.stderr.contains("feed server stopped") })
        #expect(await Self.status("http://127.0.0.1:\(second)/calendars/TOR.ics?token=new-secret") == 0)
        // A reload that changes nothing served leaves it alone.
        #expect(run.status == nil)
        run.signal(SIGTERM)
        #expect(await run.exit(within: 5) == 0)
    }

    /// `faceoff serve` alone: SIGHUP reloads (a new token), SIGTERM stops it cleanly.
    @Test func serveTakesSignalsAsRunDoes() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        try cli.writeConfig("teams = [\"TOR\"]\n[serve]\ntoken = \"one\"\n")
        let serve = try Background(
            CLI.binary.path, ["serve", "--listen", "127.0.0.1:0"],
            environment: ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "FACEOFF_API_BASE": "file://\(CLI.mirror.path)/"])
        defer { serve.kill() }
        #expect(await serve.wait(timeout: 30) { !$0.isEmpty })
        let base = serve.output[0]
        #expect(await Self.status(base + "calendars/TOR.ics?token=one") == 200)
        try cli.writeConfig("teams = [\"TOR\"]\n[serve]\ntoken = \"two\"\n")
        serve.signal(SIGHUP)
        // The new base goes to stdout and the log line to stderr, read apart: wait for both.
        #expect(
            await serve.wait(timeout: 20) { $0.count >= 2 && serve.stderr.contains("feed server started again") },
            "\(serve.stderr.suffix(800))")
        #expect(serve.status == nil, "SIGHUP ended serve")
        let again = try #require(serve.output.last)
        #expect(await Self.status(again + "calendars/TOR.ics?token=one") == 404)
        #expect(await Self.status(again + "calendars/TOR.ics?token=two") == 200)
        serve.signal(SIGTERM)
        #expect(await serve.exit(within: 10) == 0)
    }

    /// Listening beyond this machine with no token is said, once, at start. The link `serve`
    /// prints is one to open: never 0.0.0.0, the token in it, a loopback one said to work on
    /// this machine only, and with --qr a QR code of it.
    @Test func servingToTheNetworkWithoutATokenIsSaid() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        try cli.writeConfig("teams = [\"TOR\"]\n")
        let environment = ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "FACEOFF_API_BASE": "file://\(CLI.mirror.path)/"]
        let open = try Background(CLI.binary.path, ["serve", "--listen", "0.0.0.0:0", "--qr"], environment: environment)
        defer { open.kill() }
        #expect(await open.wait(timeout: 30) { !$0.isEmpty && open.stderr.contains("calendars at") })
        #expect(open.stderr.contains("serving on 0.0.0.0:0 with no [serve] token"), "\(open.stderr)")
        let base = try #require(open.output.first)
        #expect(base.hasPrefix("http://") && !base.contains("0.0.0.0"), "\(base)")
        #expect(open.stderr.contains("calendars at \(base) ("), "\(open.stderr)")
        #expect(open.stderr.contains("█"), "the QR code")
        #expect(await Self.status(base + "calendars/TOR.ics") == 200)
        try cli.writeConfig("teams = [\"TOR\"]\n[serve]\ntoken = \"one\"\n")
        let local = try Background(CLI.binary.path, ["serve", "--listen", "127.0.0.1:0"], environment: environment)
        defer { local.kill() }
        #expect(await local.wait(timeout: 30) { !$0.isEmpty && local.stderr.contains("calendars at") })
        #expect(!local.stderr.contains("no [serve] token"))
        #expect(local.stderr.contains("calendars at \(local.output[0])?token=one (on this machine only"), "\(local.stderr)")
    }
}
