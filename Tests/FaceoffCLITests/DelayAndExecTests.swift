import FaceoffKit
import FaceoffNHL
import Foundation
import Testing

/// The delay tuned while watching (`watch`'s keys on a terminal, `faceoff delay`), and exec
/// sinks, against a replayed game served live.
@Suite("delay and exec sinks, the binary", .timeLimit(.minutes(10))) struct DelayAndExecTests {
    /// `faceoff replay --serve` of the recorded BOS @ TOR game, starting in 10 s (time for the
    /// watch to start before the first goal while the tests beside it keep both cores busy);
    /// its API base.
    static func serve(_ cli: CLI, speed: Int) async throws -> (Background, String) {
        let replay = try Background(
            CLI.binary.path,
            ["replay", "--serve", "127.0.0.1:0", Replays.bosAtTor, "--speed", "\(speed)", "--intermission", "120", "--start-in", "10"],
            environment: ["HOME": cli.home.path, "PATH": "/usr/bin:/bin"])
        try #require(await replay.wait(timeout: 30) { !$0.isEmpty })
        return (replay, replay.output[0])
    }

    static func script(_ cli: CLI, _ name: String, _ body: String) throws {
        let bin = cli.home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let path = bin.appendingPathComponent(name).path
        try ("#!/bin/sh\n" + body).write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
    }

    static func lines(_ file: URL) -> [String] {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// In `watch`'s scoreboard on a terminal, `s` pressed a few seconds after a goal makes the
    /// delay the time since that goal was first seen, for every sink of the process, and the
    /// next alerts wait exactly that; `faceoff delay 30s` from another shell shows in the
    /// running scoreboard within a second; `q` quits and gives the terminal back.
    @Test func syncInTheScoreboardAndTheDelayCommandRetimeARunningWatch() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let (replay, base) = try await Self.serve(cli, speed: 60)
        defer { replay.kill() }
        // Each alert as it reaches the exec sink: the wall time, and when it was first seen.
        try Self.script(
            cli, "clock",
            """
            seen=$(sed -n 's/.*"seenAt":"\\([^"]*\\)".*/\\1/p')
            echo "$(date +%s.%N) $(date -d "$seen" +%s) $FACEOFF_KIND" >> "$HOME/clock.log"
            """)
        try cli.writeConfig(
            """
            teams = ["TOR"]
            [watch]
            poll = "2s"
            [[sink]]
            type = "exec"
            name = "clock"
            command = ["~/bin/clock"]
            """)
        let environment = ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "TERM": "xterm-256color", "FACEOFF_API_BASE": base]
        let terminal = try PseudoTerminal(
            CLI.binary.path, ["watch", "2025020100"], environment: environment, stderr: cli.home.appendingPathComponent("watch.err"))
        defer { terminal.close() }
        let log = cli.home.appendingPathComponent("clock.log")
        func entries() -> [(at: Double, seen: Double, kind: String)] {
            Self.lines(log).compactMap { line in
                let parts = line.split(separator: " ")
                guard parts.count == 3, let at = Double(parts[0]), let seen = Double(parts[1]) else { return nil }
                return (at, seen, String(parts[2]))
            }
        }
        try #require(await eventually(within: .seconds(90)) { entries().contains { $0.kind == "goal" } }, "no goal reached the exec sink")
        #expect(terminal.text.contains("Delay 0s"), "\(terminal.text.suffix(400))")

        // The stream shows the goal a few seconds later: s.
        try await Task.sleep(for: .seconds(3))
        let pressed = Date().timeIntervalSince1970
        terminal.type("s")
        func delays() async throws -> [String: Int] {
            let shown = try await cli.run(["delay", "--json"])
            let document = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
            let sinks = document?["sinks"] as? [[String: Any]] ?? []
            return Dictionary(
                uniqueKeysWithValues: sinks.compactMap { sink in
                    (sink["sink"] as? String).flatMap { name in (sink["delaySeconds"] as? Int).map { (name, $0) } }
                })
        }
        var synced: [String: Int] = [:]
        for _ in 0..<20 where synced["clock"] ?? 0 == 0 {
            try await Task.sleep(for: .milliseconds(250))
            synced = try await delays()
        }
        let delay = try #require(synced["clock"])
        // First seen within a poll (2 s) of the goal's delivery, 3 s before the key.
        #expect((3...6).contains(delay), "\(synced)")
        #expect(synced["stdout"] == delay, "every sink of the process: \(synced)")
        #expect(await eventually { terminal.text.contains("Delay \(delay)s") })

        // The next alerts wait the synced delay after they were first seen (seenAt is to the
        // second, so ±1 s).
        try #require(await eventually(within: .seconds(60)) { entries().filter { $0.seen > pressed }.count >= 2 }, "\(Self.lines(log))")
        for entry in entries() where entry.seen > pressed {
            #expect(abs(entry.at - entry.seen - Double(delay)) <= 1.2, "\(entry.kind) waited \(entry.at - entry.seen) s, not \(delay) s")
        }

        // Another shell changes it: the running scoreboard shows it (it reads the delays once a
        // second; the wait allows for a machine whose two cores the other tests keep busy).
        #expect(try await cli.run(["delay", "30s"]).status == 0)
        #expect(await eventually(within: .seconds(15)) { terminal.text.contains("Delay 30s") })

        terminal.type("q")
        #expect(await terminal.exit(within: 10) == 0)
        let settings = terminal.settings
        #expect(settings.c_lflag & tcflag_t(ECHO | ICANON) == tcflag_t(ECHO | ICANON), "the terminal was not given back")
    }

    /// An exec sink whose program was running when Faceoff was killed (kill -9): with `retry =
    /// false` (the default) that alert is never run again; with `retry = true` the next start
    /// runs it again. Every other alert runs once, in order.
    @Test(arguments: [false, true])
    func anExecSinkAfterAKill(retry: Bool) async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let (replay, base) = try await Self.serve(cli, speed: 120)
        defer { replay.kill() }
        // The first goal's program hangs (and is killed with Faceoff's process left behind).
        try Self.script(
            cli, "light",
            """
            echo "start $FACEOFF_EVENT_ID" >> "$HOME/light.log"
            if [ ! -e "$HOME/hung" ]; then echo $$ > "$HOME/hung"; sleep 60; fi
            echo "end $FACEOFF_EVENT_ID" >> "$HOME/light.log"
            """)
        try cli.writeConfig(
            """
            teams = ["TOR"]
            [watch]
            poll = "2s"
            [[sink]]
            type = "exec"
            name = "light"
            command = ["~/bin/light"]
            events = ["goal"]
            retry = \(retry)
            timeout = "120s"
            """)
        let environment = ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "NO_COLOR": "1", "FACEOFF_API_BASE": base]
        let first = try Background(CLI.binary.path, ["watch", "2025020100", "--format", "jsonl"], environment: environment)
        let hung = cli.home.appendingPathComponent("hung")
        try #require(await eventually(within: .seconds(90)) { (try? String(contentsOf: hung, encoding: .utf8))?.isEmpty == false })
        first.kill()
        #expect(await first.finished(within: 10))
        // The program outlives the killed Faceoff (a process group of its own); end it.
        if let pid = Int32((try String(contentsOf: hung, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(-pid, SIGKILL)
        }

        let second = try await cli.run(["watch", "2025020100", "--format", "jsonl"], environment: ["FACEOFF_API_BASE": base])
        #expect(second.status == 0, "\(second.stderr)")
        let goals = second.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["kind"] as? String == "goal"
            else { return nil }
            return object["id"] as? String
        }
        let log = Self.lines(cli.home.appendingPathComponent("light.log"))
        let starts = log.filter { $0.hasPrefix("start ") }.map { String($0.dropFirst(6)) }
        let ends = log.filter { $0.hasPrefix("end ") }.map { String($0.dropFirst(4)) }
        let all = Array(Set(starts)).sorted { (starts.firstIndex(of: $0) ?? 0) < (starts.firstIndex(of: $1) ?? 0) }
        // All four goals, unless a busy machine started the first watch after the first goal
        // (then it is passed over as part of a game joined in progress).
        try #require(all.count >= 3, "\(log)")
        if !goals.isEmpty { #expect(Set(goals).isSubset(of: Set(all))) }
        let hungGoal = all[0]
        if retry {
            #expect(starts == [hungGoal] + all, "\(log)")
            #expect(ends == all, "\(log)")
        } else {
            #expect(starts == all, "run once at most: \(log)")
            #expect(ends == Array(all.dropFirst()), "\(log)")
        }
    }

    @Test func execSinksInTheConfigTestAlertAndDoctor() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        // An exec sink named horn, with these lines.
        func horn(_ lines: String) throws {
            try cli.writeConfig("teams = [\"TOR\"]\n[[sink]]\ntype = \"exec\"\nname = \"horn\"\n" + lines)
        }
        try horn("")
        let missing = try await cli.run(["config", "validate"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("this exec sink has no `command`"), "\(missing.stderr)")
        try horn(#"command = ["~/bin/horn", "{{#team}}"]"#)
        let broken = try await cli.run(["config", "validate"])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("argument 2 is not a valid template"), "\(broken.stderr)")

        try horn(#"command = ["~/bin/horn", "{{team}}"]"# + "\ntimeout = \"3s\"\n")
        let api = ["FACEOFF_API_BASE": "file://\(CLI.mirror.path)/"]
        let absent = try await cli.run(["doctor"], environment: api)
        #expect(
            absent.stdout.contains("exec horn") && absent.stdout.contains("\(cli.home.path)/bin/horn was not found"), "\(absent.stdout)")
        try Self.script(cli, "horn", "echo \"$1 $FACEOFF_KIND\" >> \"$HOME/horn.log\"")
        let doctor = try await cli.run(["doctor", "--send"], environment: api)
        #expect(doctor.stdout.contains("\(cli.home.path)/bin/horn: test alert delivered (exit 0)"), "\(doctor.stdout)")
        let test = try await cli.run(["test-alert", "--sink", "horn", "--kind", "final"])
        #expect(test.status == 0, "\(test.stderr)")
        #expect(test.stderr.contains("✓ horn (exec): delivered (exit 0)"), "\(test.stderr)")
        #expect(Self.lines(cli.home.appendingPathComponent("horn.log")) == ["TOR goal", "TOR final"])
        let shown = try await cli.run(["config", "show"])
        #expect(shown.stdout.contains("command = [\"~/bin/horn\", \"{{team}}\"]\ntimeout = \"3s\"\nretry = false"), "\(shown.stdout)")
    }

    /// contrib/exec/goal-horn: plays the sound with the first player it finds, for a followed
    /// team's goal only.
    @Test func theGoalHornExamplePlaysForAFollowedTeamsGoal() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let horn = CLI.root.appendingPathComponent("contrib/exec/goal-horn").path
        let sound = cli.home.appendingPathComponent("horn.wav")
        try Data("RIFF".utf8).write(to: sound)
        // A stand-in for PipeWire's player, first on PATH.
        try Self.script(cli, "pw-play", "echo \"pw-play $*\" >> \"$HOME/played\"")
        try cli.writeConfig(
            """
            teams = ["TOR"]
            [[sink]]
            type = "exec"
            name = "horn"
            command = ["\(horn)", "~/horn.wav"]
            """)
        let path = ["PATH": "\(cli.home.path)/bin:/usr/bin:/bin"]
        let goal = try await cli.run(["test-alert", "--sink", "horn"], environment: path)
        #expect(goal.status == 0, "\(goal.stderr)")
        #expect(Self.lines(cli.home.appendingPathComponent("played")) == ["pw-play \(sound.path)"])
        // Not a goal: nothing played, and no failure.
        #expect(try await cli.run(["test-alert", "--sink", "horn", "--kind", "final"], environment: path).status == 0)
        #expect(Self.lines(cli.home.appendingPathComponent("played")).count == 1)
        // No player at all: a failure that says what to install.
        let none = try await cli.run(["test-alert", "--sink", "horn"], environment: ["PATH": "/nonexistent:/bin"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("none of pw-play, paplay or aplay is installed"), "\(none.stderr)")
    }

    /// contrib/exec/ha-light-flash: one POST to Home Assistant's light.turn_on with the token,
    /// the entity, a long flash and the colour.
    @Test(.enabled(if: Checkers.curl, Checkers.noCurl))
    func theLightFlashExampleCallsHomeAssistant() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let log = cli.home.appendingPathComponent("requests.jsonl")
        // Home Assistant's REST API as far as the script sees it: a POST, answered 200.
        let server = try Background(
            "/usr/bin/python3",
            [
                "-c",
                """
                import http.server, json, sys
                class Handler(http.server.BaseHTTPRequestHandler):
                    def do_POST(self):
                        body = self.rfile.read(int(self.headers["Content-Length"]))
                        with open(sys.argv[1], "a") as log:
                            log.write(json.dumps({"path": self.path, "auth": self.headers["Authorization"], "body": json.loads(body)}) + "\\n")
                        self.send_response(200)
                        self.send_header("Content-Type", "application/json")
                        self.end_headers()
                        self.wfile.write(b"[]")
                    def log_message(self, *args):
                        pass
                server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
                print(server.server_address[1], flush=True)
                server.serve_forever()
                """, log.path,
            ], environment: ["PATH": "/usr/bin:/bin"])
        defer { server.kill() }
        try #require(await server.wait(timeout: 30) { !$0.isEmpty })
        let port = server.output[0]
        let settings = cli.home.appendingPathComponent(".config/faceoff/ha-light-flash.env")
        try cli.writeConfig(
            """
            teams = ["TOR"]
            [[sink]]
            type = "exec"
            name = "light"
            command = ["\(CLI.root.appendingPathComponent("contrib/exec/ha-light-flash").path)", "light.den", "#FF8000"]
            """)
        try "HA_URL=http://127.0.0.1:\(port)/\nHA_TOKEN=secret-token\n".write(to: settings, atomically: true, encoding: .utf8)
        let result = try await cli.run(["test-alert", "--sink", "light"])
        #expect(result.status == 0, "\(result.stderr)")
        let requests = Self.lines(log).compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try #require(requests.count == 1, "\(Self.lines(log))")
        #expect(requests[0]["path"] as? String == "/api/services/light/turn_on")
        #expect(requests[0]["auth"] as? String == "Bearer secret-token")
        let body = requests[0]["body"] as? [String: Any]
        #expect(body?["entity_id"] as? String == "light.den")
        #expect(body?["flash"] as? String == "long")
        #expect(body?["rgb_color"] as? [Int] == [255, 128, 0])
        // Without its settings file: a failure that names it.
        try FileManager.default.removeItem(at: settings)
        let missing = try await cli.run(["test-alert", "--sink", "light"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("ha-light-flash.env"), "\(missing.stderr)")
    }

    @Test func theDelayCommand() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        try cli.writeConfig(
            """
            teams = ["TOR"]
            [watch]
            delay = "10s"
            [[sink]]
            type = "notify"
            [[sink]]
            type = "webhook"
            name = "discord"
            url = "https://example.invalid/hook"
            delay = "1m"
            """)
        #expect(try await cli.run(["delay"]).stdout == "stdout   10s\nnotify   10s\ndiscord  1m\n")
        let set = try await cli.run(["delay", "45s"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("discord  45s  (changed "), "\(set.stdout)")
        #expect(try await cli.run(["delay", "-50s", "--sink", "notify"]).stdout.hasPrefix("notify  0s  (changed "))
        #expect(try await cli.run(["delay", "+1m30s", "--sink", "discord"]).stdout.hasPrefix("discord  2m15s  (changed "))
        let json = try await cli.run(["delay", "--json"])
        let validator = try SchemaValidator(file: CLI.root.appendingPathComponent("docs/json/delay.schema.json"))
        let document = try JSONDecoder().decode(JSONValue.self, from: Data(json.stdout.utf8))
        #expect(validator.problems(in: document).isEmpty, "\(validator.problems(in: document))")
        let status = try await cli.run(["status", "--json"])
        #expect(
            status.stdout.contains(#"{"changedAt":"#)
                && status.stdout.contains(#""configuredSeconds":60,"delaySeconds":135,"sink":"discord""#), "\(status.stdout)")

        let sync = try await cli.run(["delay", "sync"])
        #expect(sync.status == 1)
        #expect(sync.stderr.contains("no goal seen in the last 3 minutes"), "\(sync.stderr)")
        let unknown = try await cli.run(["delay", "5s", "--sink", "discrod"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("did you mean 'discord'"), "\(unknown.stderr)")
        #expect(try await cli.run(["delay", "soon"]).status == 2)
        #expect(try await cli.run(["delay", "reset"]).stdout == "stdout   10s\nnotify   10s\ndiscord  1m\n")
        // A changed config delay ends a change made against the old one.
        #expect(try await cli.run(["delay", "20s", "--sink", "discord"]).status == 0)
        try cli.writeConfig(
            """
            teams = ["TOR"]
            [[sink]]
            type = "webhook"
            name = "discord"
            url = "https://example.invalid/hook"
            delay = "2m"
            """)
        #expect(try await cli.run(["delay", "--sink", "discord"]).stdout == "discord  2m\n")
    }

    /// The man page (contrib/man/faceoff.1, regenerated from the help text) and the shell
    /// completions know every command, `delay` included, and the leagues `--league` takes.
    @Test func theManPageAndTheCompletionsKnowEveryCommand() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let manual = try String(contentsOf: CLI.root.appendingPathComponent("contrib/man/faceoff.1"), encoding: .utf8)
        let help = try await cli.run(["--help"])
        // The list under SUBCOMMANDS:, up to the blank line after it.
        let commands = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.hasPrefix("SUBCOMMANDS:") }
            .dropFirst()
            .prefix { !$0.isEmpty }.filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.compactMap {
                $0.split(separator: " ").first.map(String.init)
            }
        #expect(commands.contains("delay"), "\(help.stdout)")
        for command in commands {
            #expect(manual.contains(".It Em \(command)\n"), "the man page lacks \(command): regenerate it (contrib/README.md)")
        }
        // What the help has no place for: the environment, the files, Faceoff's exit statuses.
        for section in [".Sh ENVIRONMENT\n", ".Sh FILES\n", ".Sh \"EXIT STATUS\"\n"] {
            #expect(manual.contains(section), "the man page lacks \(section)")
        }
        #expect(manual.contains(".It Ev FACEOFF_ESPN_BASE") && manual.contains(".It 2\nA usage or config error"))
        #expect(help.stdout.contains("--espn-base") && help.stdout.contains("nba:LAL"), "\(help.stdout)")
        for shell in ["bash", "zsh", "fish"] {
            let script = try await cli.run(["--generate-completion-script", shell])
            #expect(script.stdout.contains("delay") && script.stdout.contains("sync"), "\(shell)")
        }
        // --league completes to the registry's leagues.
        let bash = try await cli.run(["--generate-completion-script", "bash"])
        #expect(bash.stdout.contains("'--league')\n        __faceoff_add_completions -W 'nhl'$'\\n''nba'"), "\(bash.stdout)")
    }
}
