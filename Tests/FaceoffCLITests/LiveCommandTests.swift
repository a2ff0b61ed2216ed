import FaceoffCalendar
import FaceoffKit
import FaceoffNHL
import Foundation
import Testing

@Suite("watch, replay and demo, the binary", .timeLimit(.minutes(10))) struct LiveCommandTests {
    static let base = ["FACEOFF_API_BASE": "file://\(CLI.mirror.path)/"]
    static let game = CLI.mirror.appendingPathComponent("gamecenter/2025020100/play-by-play").path

    @Test func replayPrintsEveryEventOnceAndTheFinal() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await cli.run(["replay", Self.game, "--speed", "0"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("🏒 Puck drop: BOS @ TOR") == true)
        #expect(lines.last?.hasPrefix("🏁 Final") == true)
        #expect(lines.filter { $0.hasPrefix("🚨") }.count == 4)
        #expect(lines.contains { $0.contains("empty-net goal") })
        #expect(lines.contains { $0.hasPrefix("⚡") && $0.contains("power play") })
        // Twice works: replay keeps nothing.
        #expect(try await cli.run(["replay", Self.game, "--speed", "0"]).stdout == result.stdout)
    }

    @Test func jsonLinesFollowTheDocumentedSchema() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await cli.run(["replay", "2025020100", "--speed", "0", "--format", "jsonl"], environment: Self.base)
        #expect(result.status == 0, "\(result.stderr)")
        let validator = try SchemaValidator(file: CLI.root.appendingPathComponent("docs/json/event.schema.json"))
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count > 10)
        for line in lines {
            let document = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            #expect(validator.problems(in: document).isEmpty, "\(validator.problems(in: document))")
        }
        let kinds = try lines.map { try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))["kind"]?.string }
        #expect(kinds.first == "game_start")
        #expect(kinds.last == "final")
    }

    @Test func replayFromAPeriodJoinsThere() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await cli.run(["replay", Self.game, "--speed", "0", "--from-period", "3"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Joined BOS @ TOR in progress"))
        #expect(!result.stdout.contains("Puck drop"))
        #expect(try await cli.run(["replay", "/nonexistent.json"]).status == 2)
    }

    /// A file that is no game, and a number that is no game id, are said in plain words, with
    /// what to give instead: never a decoder's own message.
    @Test func whatIsNoGameIsSaidPlainly() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let garbage = cli.home.appendingPathComponent("garbage.json")
        let standings = cli.home.appendingPathComponent("standings.json")
        try "garbage".write(to: garbage, atomically: true, encoding: .utf8)
        try #"{"id": [1], "standings": []}"#.write(to: standings, atomically: true, encoding: .utf8)
        for (arguments, says) in [
            (["replay", garbage.path], "is not JSON"),
            (["replay", standings.path], "is not a play-by-play response or an ESPN summary (at "),
            (["replay", "12345"], "'12345' is no game: an NHL game is its ten-digit id"),
            (["game", "202502010"], "'202502010' is no game"), (["watch", "nba:40158560712"], "'nba:40158560712' is no game"),
            (["game", "mlb:745123"], "'mlb' is not a league Faceoff knows"),
            (["replay", cli.home.path], "is a folder"),
        ] {
            let result = try await cli.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(says) && !result.stderr.contains("DecodingError"), "\(arguments): \(result.stderr)")
        }
    }

    @Test func demoNeedsNoNetwork() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await cli.run(["demo", "--speed", "100000"], environment: ["FACEOFF_API_BASE": "http://127.0.0.1:1/v1/"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("🏁 Final"))
        #expect(result.stdout.contains("empty-net goal"))
        #expect(result.stdout.contains(" SH "))
        let calendar = cli.home.appendingPathComponent(".local/share/faceoff/calendars/demo.ics")
        #expect(FeedWriter.eventCount(try String(contentsOf: calendar, encoding: .utf8)) > 10)
    }

    @Test func watchingAFinishedGameGivesItsFinalOnce() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let first = try await cli.run(["watch", "2025020100"], environment: Self.base)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.split(separator: "\n").count == 1)
        #expect(first.stdout.hasPrefix("🏁 Final"))
        // A second watcher on the same store: the final went out already.
        let second = try await cli.run(["watch", "2025020100"], environment: Self.base)
        #expect(second.status == 0)
        #expect(second.stdout.isEmpty)
    }

    /// `demo` on a terminal 80 columns wide (a pty from `script`, its width from COLUMNS):
    /// the scoreboard's alert lines give up assists and "drawn by", never the strength, the
    /// infraction, the score or the clock.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) not installed"))
    func aNarrowPaneKeepsTheWordsThatMatter() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await cli.run(
            ["-qec", "\(CLI.binary.path) demo --speed 0", "/dev/null"], executable: "/usr/bin/script",
            environment: ["COLUMNS": "80", "LINES": "60", "TERM": "xterm"])
        #expect(result.status == 0, "\(result.stderr)")
        let plain = result.stdout.replacing(/\x1B\[[0-9;]*[A-Za-z]/, with: "")
        let lines = Set(plain.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(lines.contains { $0.contains("Mathis Tremblay") && $0.contains(" · SH · TOR 2–3 MTL · 2nd 13:02") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("⚠️ Canadiens penalty  hooking (2 min)") && $0.hasSuffix(" · 1st 09:14") })
        #expect(lines.contains { $0.hasPrefix("⚠️ Canadiens penalty  slashing (2 min)") && $0.hasSuffix(" · 3rd 06:48") })
        for line in lines where !line.hasPrefix("Demo calendar") { #expect(DisplayWidth.of(line) <= 80, "\(line)") }
    }
}
