import FaceoffKit
import FaceoffNHL
import Foundation
import Synchronization
import Testing

@Suite("alert delivery, the binary", .timeLimit(.minutes(10))) struct AlertCommandTests {
    static let demoGame = CLI.root.appendingPathComponent("Demo/demo-game.json").path
    static let overtimeGame = CLI.root.appendingPathComponent("Tests/Fixtures/games/2025020201-TOR-at-MTL-overtime.json").path
    static let shootoutGame = CLI.root.appendingPathComponent("Tests/Fixtures/games/2025020202-BOS-at-BUF-shootout.json").path
    static let golden = CLI.root.appendingPathComponent("Tests/Fixtures/golden")

    /// Text and JSON lines of three replayed games, every kind they hold, against files kept in
    /// Tests/Fixtures/golden. FACEOFF_UPDATE_GOLDEN=1 rewrites them (then read the diff).
    @Test(arguments: [("demo", demoGame), ("overtime", overtimeGame), ("shootout", shootoutGame)])
    func replayedGamesMatchTheirGoldenOutput(name: String, game: String) async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let validator = try SchemaValidator(file: CLI.root.appendingPathComponent("docs/json/event.schema.json"))
        for format in ["text", "jsonl"] {
            var result = try await cli.run(["replay", game, "--speed", "0", "--format", format])
            #expect(result.status == 0, "\(result.stderr)")
            if format == "jsonl" {
                // When each event was first seen is this run's wall clock: present on every
                // line, and set aside for the comparison.
                let seen = /"seenAt":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ",/
                let lines = result.stdout.split(separator: "\n")
                #expect(lines.allSatisfy { $0.contains(seen) }, "every event has its seenAt")
                result.stdout = result.stdout.replacing(seen, with: "")
            }
            let file = Self.golden.appendingPathComponent("replay-\(name).\(format == "text" ? "txt" : "jsonl")")
            if ProcessInfo.processInfo.environment["FACEOFF_UPDATE_GOLDEN"] == "1" {
                try result.stdout.write(to: file, atomically: true, encoding: .utf8)
            }
            #expect(result.stdout == (try String(contentsOf: file, encoding: .utf8)), "\(file.lastPathComponent) differs")
            if format == "jsonl" {
                for line in result.stdout.split(separator: "\n") {
                    let document = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
                    #expect(validator.problems(in: document).isEmpty, "\(validator.problems(in: document))")
                }
            }
        }
    }

    /// A configured stdout sink on a terminal (util-linux `script` gives the command a pty):
    /// coloured by default, plain with --no-color. `run`, `watch` and `test-alert` build that
    /// sink the same way (AlertSetup), so one command stands for all.
    @Test func noColorReachesAConfiguredStdoutSink() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        try cli.writeConfig(
            """
            teams = ["TOR"]
            [[sink]]
            type = "stdout"
            name = "terminal"
            """)
        let environment = ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "TERM": "xterm-256color"]
        func onTerminal(_ arguments: [String]) async throws -> String {
            let command = ([CLI.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            let result = try await CLI.execute("/usr/bin/script", ["-qec", command, "/dev/null"], environment: environment)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            return result.stdout
        }
        let coloured = try await onTerminal(["test-alert", "--sink", "terminal"])
        #expect(coloured.contains("goal!"), "\(coloured)")
        #expect(coloured.contains("\u{1B}["), "a terminal gets colour by default")
        let plain = try await onTerminal(["test-alert", "--sink", "terminal", "--no-color"])
        #expect(plain.contains("goal!"), "\(plain)")
        #expect(!plain.contains("\u{1B}["), "--no-color: \(plain.debugDescription)")
    }

    @Test(.enabled(if: Checkers.standardWebhooks, Checkers.noWebhookChecker))
    func testAlertSignsWhatTheStandardWebhooksPackageVerifies() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let receiver = try await WebhookReceiver(directory: cli.home, secret: WebhookReceiver.secret)
        defer { receiver.process.kill() }
        try cli.writeConfig(
            """
            teams = ["TOR"]
            \(receiver.homeSink)
            headers = { Authorization = "Bearer abc123xyz" }
            [[sink]]
            type = "webhook"
            name = "chat"
            preset = "discord"
            url = "\(receiver.url)/discord"
            """)
        let result = try await cli.run(["test-alert", "--kind", "final"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("✓ home (webhook): delivered (HTTP 200)"))
        #expect(result.stderr.contains("✓ chat (webhook): delivered"))
        let entries = receiver.entries
        try #require(entries.count == 2)
        #expect(entries[0]["verified"] as? Bool == true)
        #expect(entries[0]["authorization"] as? String == "Bearer abc123xyz")
        #expect((entries[0]["id"] as? String)?.contains(":final:test-") == true)
        // A second try is a new event id: receivers that deduplicate still show it.
        #expect(try await cli.run(["test-alert", "--sink", "home"]).status == 0)
        #expect(receiver.accepted.count == 3)
        #expect(Set(receiver.accepted).count == 2)  // the first test went to both sinks with one id

        let unknown = try await cli.run(["test-alert", "--sink", "hmoe"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("did you mean 'home'"))
        try receiver.answer(500)
        let failing = try await cli.run(["test-alert", "--sink", "home"])
        #expect(failing.status == 1)
        #expect(failing.stderr.contains("✗ home (webhook): failed"))
        #expect(!failing.stderr.contains("/hook"))  // the URL is shown redacted
    }

    /// `faceoff watch` of a live (replayed) game with a webhook receiver that is down; killed
    /// mid-game; started again with the receiver up: every alert arrives once, in order.
    @Test(.enabled(if: Checkers.standardWebhooks, Checkers.noWebhookChecker))
    func aKilledWatchDeliversWhatItOwedOnceInOrderAfterARestart() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let game = CLI.mirror.appendingPathComponent("gamecenter/2025020100/play-by-play").path
        let replay = try Background(
            CLI.binary.path, ["replay", "--serve", "127.0.0.1:0", game, "--speed", "300"],
            environment: ["HOME": cli.home.path, "PATH": "/usr/bin:/bin"])
        defer { replay.kill() }
        try #require(await replay.wait(timeout: 30) { !$0.isEmpty })
        let base = replay.output[0]
        let receiver = try await WebhookReceiver(directory: cli.home, secret: WebhookReceiver.secret)
        defer { receiver.process.kill() }
        try receiver.answer(503)
        try cli.writeConfig(
            """
            teams = ["TOR"]
            [watch]
            poll = "2s"
            \(receiver.homeSink)
            """)
        let environment = ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "NO_COLOR": "1", "FACEOFF_API_BASE": base]
        let first = try Background(CLI.binary.path, ["watch", "2025020100", "--format", "jsonl"], environment: environment)
        #expect(await first.wait(timeout: 60) { $0.count >= 4 })
        first.kill()
        #expect(await first.finished(within: 10))
        let seenBefore = first.output
        try receiver.answer(200)
        let second = try await cli.run(["watch", "2025020100", "--format", "jsonl"], environment: ["FACEOFF_API_BASE": base])
        #expect(second.status == 0, "\(second.stderr)")
        let printed = (seenBefore + second.stdout.split(separator: "\n").map(String.init)).compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(printed.last?.hasSuffix(":final") == true)
        // Each printed across the two processes, in order. A process killed between printing
        // a line and recording it leaves it to the next, which prints it again: at most one
        // such line, and never one lost.
        var once: [String] = []
        for id in printed where !once.contains(id) { once.append(id) }
        #expect(printed.count - once.count <= 1)
        // Delivered once each by webhook-id, in the order they happened, all signed. A
        // process killed between a receiver's 2xx and its own bookkeeping sends that one
        // alert again on restart, with the same id: at most one such redelivery.
        #expect(receiver.deduplicated == once)
        #expect(receiver.accepted.count - receiver.deduplicated.count <= 1)
        #expect(receiver.entries.allSatisfy { $0["verified"] as? Bool == true })
        #expect(receiver.entries.contains { $0["status"] as? Int == 503 })
    }
}
