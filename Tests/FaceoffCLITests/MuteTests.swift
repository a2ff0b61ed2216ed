import FaceoffKit
import FaceoffNHL
import Foundation
import Testing

/// `faceoff mute` and `unmute` against a `faceoff run` replaying a game: the mute typed in
/// another process silences the sink at its next alert, and the unmute brings one digest.
@Suite("mute and unmute, the binary", .timeLimit(.minutes(10))) struct MuteTests {
    @Test func aMuteTypedWhileRunWatchesSilencesTheSinkAndTheUnmuteBringsOneDigest() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let (replay, base) = try await Replays.serve(cli)
        defer { replay.kill() }
        try cli.writeConfig(
            """
            teams = ["TOR"]
            [watch]
            poll = "2s"
            [[sink]]
            type = "stdout"
            name = "tty"
            format = "jsonl"
            """)
        let environment = Replays.environment(cli, base: base)
        let run = try Background(CLI.binary.path, ["run"], environment: environment)
        defer { run.kill() }
        func kinds() -> [String] {
            run.output.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.compactMap {
                $0["kind"] as? String
            }
        }
        try #require(await run.wait(timeout: 90) { _ in kinds().contains("game_start") }, "\(run.stderr.suffix(800))")

        let muted = try await cli.run(["mute", "tty"])
        #expect(muted.status == 0 && muted.stdout == "Muted tty until `faceoff unmute`.\n", "\(muted.stdout)\(muted.stderr)")
        let before = kinds().count
        // Held while muted: what the list says waits for the digest, and nothing on stdout.
        func waiting() async throws -> Int {
            let list = try await cli.run(["mute", "--list", "--json"])
            let object = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
            let sinks = object?["sinks"] as? [[String: Any]] ?? []
            return sinks.first { $0["sink"] as? String == "tty" }?["waiting"] as? Int ?? 0
        }
        var held = 0
        for _ in 0..<120 where held < 3 {
            held = try await waiting()
            if held < 3 { try await Task.sleep(for: .milliseconds(500)) }
        }
        #expect(held >= 3, "\(run.stderr.suffix(800))")
        let list = try await cli.run(["mute", "--list"])
        #expect(list.stdout.hasPrefix("tty  muted · held alerts: digest · "), "\(list.stdout)")
        let status = try await cli.run(["status"])
        #expect(status.stdout.contains(" · muted: tty"), "\(status.stdout)")
        #expect(try await cli.run(["status", "--tmux"]).stdout.contains(" · 🔇 tty"))
        let statusJSON = try await cli.run(["status", "--json"])
        let statusSinks =
            (try JSONSerialization.jsonObject(with: Data(statusJSON.stdout.utf8)) as? [String: Any])?["sinks"] as? [[String: Any]]
        #expect(statusSinks?.first { $0["sink"] as? String == "tty" }?["muted"] as? Bool == true, "\(statusJSON.stdout)")
        #expect(kinds().count == before, "an alert reached a muted sink: \(kinds())")

        let unmuted = try await cli.run(["unmute"])
        #expect(unmuted.status == 0 && unmuted.stdout.hasPrefix("Unmuted tty. "), "\(unmuted.stdout)")
        #expect(await run.wait(timeout: 10) { _ in kinds().contains("digest") }, "\(run.stderr.suffix(800))")
        let digest = run.output.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.first {
            $0["kind"] as? String == "digest"
        }
        let details = digest?["details"] as? [String: String]
        #expect(Int(details?["alerts"] ?? "") ?? 0 >= held, "\(details ?? [:])")
        #expect(details?["summary"]?.hasPrefix("BOS ") == true, "\(details ?? [:])")
        #expect((digest?["title"] as? String)?.contains("While you were away") == true)
        // Alerts flow again, and those held are never sent one by one.
        #expect(await run.wait(timeout: 150) { _ in kinds().contains("final") }, "\(run.stderr.suffix(800))")
        let after = kinds().drop { $0 != "digest" }.dropFirst()
        #expect(
            !after.isEmpty && kinds().count == before + 1 + after.count,
            "the digest is not the first after the mute: \(kinds().dropFirst(before))")
        let ids = run.output.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.compactMap {
            $0["id"] as? String
        }
        #expect(Set(ids).count == ids.count, "an alert went out twice: \(ids)")
    }

    /// What the config says of quiet hours and held alerts, and the mistakes it refuses.
    @Test func quietHoursAndHeldInTheConfig() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        try cli.writeConfig(
            """
            teams = ["TOR"]
            timezone = "America/Toronto"
            [[sink]]
            type = "notify"
            quiet_hours = "23:00-07:00"
            [[sink]]
            type = "webhook"
            url = "https://example.invalid/hook"
            held = "drop"
            """)
        // 13:00 in Toronto: outside the quiet hours.
        let list = try await cli.run(["mute", "--list"], environment: ["FACEOFF_NOW": "2026-11-29T18:00:00Z"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("notify   ") && list.stdout.contains("quiet hours 23:00-07:00 · held alerts: drop"), "\(list.stdout)")
        #expect(list.stdout.contains("webhook                    delivering · held alerts: drop"), "\(list.stdout)")
        // The stdout sink no [[sink]] names is watch's terminal, and says so.
        #expect(list.stdout.hasPrefix("stdout (watch's terminal)  delivering"), "\(list.stdout)")
        // In the quiet hours: until when, and the span once.
        let night = try await cli.run(["mute", "--list"], environment: ["FACEOFF_NOW": "2026-11-29T09:00:00Z"])
        #expect(night.stdout.contains("quiet hours until 07:00 (23:00-07:00) · held alerts: drop"), "\(night.stdout)")
        let json = try await cli.run(["mute", "--list", "--json"])
        let validator = try SchemaValidator(file: CLI.root.appendingPathComponent("docs/json/mute.schema.json"))
        let document = try JSONDecoder().decode(JSONValue.self, from: Data(json.stdout.utf8))
        #expect(validator.problems(in: document).isEmpty, "\(validator.problems(in: document))")
        let until = try await cli.run(["mute", "notify", "--until", "07:00"])
        #expect(until.stdout.hasPrefix("Muted notify until 07:00"), "\(until.stdout)")
        let doctor = try await cli.run(["doctor"])
        #expect(
            doctor.stdout.contains("! sink notify: muted until 07:00; held alerts are dropped (`faceoff unmute notify` ends it)"),
            "\(doctor.stdout)")
        let unknown = try await cli.run(["mute", "notfy"])
        #expect(unknown.status == 2 && unknown.stderr.contains("did you mean 'notify'"), "\(unknown.stderr)")

        for (line, message) in [
            ("quiet_hours = \"23:00\"", "'quiet_hours' must be two times of day, from-to, like \"23:00-07:00\""),
            ("held = \"later\"", "unknown 'held' value 'later'; use \"drop\" or \"digest\""),
            ("edit = \"maybe\"", "'edit' must be true, false or \"both\""),
        ] {
            try cli.writeConfig("teams = [\"TOR\"]\n[[sink]]\ntype = \"notify\"\n\(line)\n")
            let result = try await cli.run(["mute", "--list"])
            #expect(result.status != 0 && result.stderr.contains(message) && result.stderr.contains("config.toml:4:"), "\(result.stderr)")
        }
        // With an MQTT sink, two names alike as topics would share one mute switch.
        try cli.writeConfig(
            "teams = [\"TOR\"]\n[[sink]]\ntype = \"notify\"\nname = \"Goal horn\"\n[[sink]]\ntype = \"mqtt\"\nurl = \"mqtt://localhost\"\nname = \"goal_horn\"\n"
        )
        let alike = try await cli.run(["mute", "--list"])
        #expect(
            alike.status == 2 && alike.stderr.contains("sinks 'Goal horn' and 'goal_horn' would share one MQTT mute switch"),
            "\(alike.stderr)")
    }
}

/// `mute` and `unmute` on a full disk, and `mute --list` on a read-only one, as a user meets
/// them: the store's reserve (`faceoff.sqlite.reserve`) lets the unmute through.
@Suite("mute on a full or read-only disk, the binary", .timeLimit(.minutes(2)), .enabled(if: geteuid() == 0, "needs root to mount a tmpfs"))
struct MuteFullDiskTests {
    @Test func anUnmuteWorksOnAFullDiskAndTheListOnAReadOnlyOne() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let data = cli.home.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let mounted = try await CLI.execute("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", data.path])
        try #require(mounted.status == 0, "mount: \(mounted.stderr)")
        defer { umount(data.path) }
        let environment = ["XDG_STATE_HOME": data.path]
        try cli.writeConfig("teams = [\"TOR\"]\n[[sink]]\ntype = \"stdout\"\nname = \"tty\"\n")
        let muted = try await cli.run(["mute", "tty"], environment: environment)
        #expect(muted.status == 0, "\(muted.stderr)")
        _ = try await CLI.execute("/bin/dd", ["if=/dev/zero", "of=\(data.path)/filler", "bs=4096"])
        #expect(!FileManager.default.createFile(atPath: data.path + "/probe", contents: Data(count: 8192)), "the disk is not full")
        let unmuted = try await cli.run(["unmute", "tty"], environment: environment)
        #expect(unmuted.status == 0, "\(unmuted.stdout)\(unmuted.stderr)")
        try? FileManager.default.removeItem(atPath: data.path + "/filler")
        #expect(try await cli.run(["mute", "tty"], environment: environment).status == 0)
        let readOnly = try await CLI.execute("/bin/mount", ["-o", "remount,ro", data.path])
        try #require(readOnly.status == 0, "remount: \(readOnly.stderr)")
        let list = try await cli.run(["mute", "--list"], environment: environment)
        #expect(list.status == 0 && list.stdout.hasPrefix("tty  muted"), "\(list.stdout)\(list.stderr)")
        let refused = try await cli.run(["unmute", "tty"], environment: environment)
        #expect(refused.status == 1 && HostileTests.plain(refused.stderr), "\(refused.status) \(refused.stdout)\(refused.stderr)")
    }
}

/// Quiet hours on the night the clocks spring forward in New York (2026-03-08, 02:00 EST is
/// 03:00 EDT), as the binary sees that date under `faketime`: a span inside the skipped hour
/// is empty that night, and holds as written the night before.
@Suite("quiet hours on the spring-forward night, the binary", .enabled(if: Checkers.faketime, "needs faketime (apt-get install faketime)"))
struct SpringForwardTests {
    @Test func quietHoursInTheSkippedHourHoldNothingThatSunday() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        try cli.writeConfig(
            """
            teams = ["TOR"]
            timezone = "America/New_York"
            [[sink]]
            type = "stdout"
            name = "tty"
            quiet_hours = "02:00-03:00"
            """)
        func list(at utc: String) async throws -> String {
            let result = try await CLI.execute(
                "/usr/bin/faketime", [utc, CLI.binary.path, "mute", "--list"],
                environment: ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "NO_COLOR": "1"])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        // Saturday 02:30 EST: quiet, as written.
        #expect(try await list(at: "2026-03-07 07:30:00").hasPrefix("tty  quiet hours until 03:00"))
        // Sunday 01:59 EST, then 03:01 and 04:10 EDT: no hour of that night is quiet.
        for moment in ["2026-03-08 06:59:00", "2026-03-08 07:01:00", "2026-03-08 08:10:00"] {
            #expect(try await list(at: moment).hasPrefix("tty  delivering"), "at \(moment) UTC")
        }
    }
}
