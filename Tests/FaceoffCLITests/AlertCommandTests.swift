import FaceoffKit
import FaceoffNHL
import Foundation
import Synchronization
import Testing

/// A program started in the background: its stdout lines as they come, killed at the end.
final class Background: @unchecked Sendable {
    let process = Process()
    private let lines = Mutex<[String]>([])
    private let partial = Mutex(Data())
    private let errors = Mutex(Data())
    /// The status, and whether a signal ended it, once the termination handler has run.
    private let exited = Mutex<(status: Int32, signalled: Bool)?>(nil)
    /// The end of stdout was read: `output` has every line the process wrote.
    private let outputEnded = Mutex(false)

    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        // Each pipe is read by a blocking loop on a thread of its own, not a readabilityHandler:
        // tearing down Foundation's dispatch read source races the descriptor's close, which
        // crashed the test process in libdispatch's event loop now and then
        // (swift-corelibs-foundation #5507).
        Self.drain(err.fileHandleForReading) { [weak self] data in
            guard let data else { return }
            self?.errors.withLock { $0.append(data) }
        }
        process.terminationHandler = { [weak self] process in
            self?.exited.withLock { $0 = (process.terminationStatus, process.terminationReason == .uncaughtSignal) }
        }
        Self.drain(out.fileHandleForReading) { [weak self] data in
            guard let self else { return }
            guard let data else {
                outputEnded.withLock { $0 = true }
                return
            }
            partial.withLock { buffer in
                buffer.append(data)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    lines.withLock { $0.append(line) }
                }
            }
        }
        try process.run()
    }

    /// Reads `handle` to its end on a thread of its own, handing each chunk to `body`, then
    /// nil. The thread holds the handle, so its descriptor stays open until the end is read.
    private static func drain(_ handle: FileHandle, _ body: @escaping @Sendable (Data?) -> Void) {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(handle.fileDescriptor, &buffer, buffer.count)
                if count > 0 {
                    body(Data(buffer[0..<count]))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            body(nil)
        }
        thread.start()
    }

    var output: [String] { lines.withLock { $0 } }
    var stderr: String { String(decoding: errors.withLock { $0 }, as: UTF8.self) }
    /// The exit status (the signal's number for a process killed by one), as soon as the
    /// kernel has it: read without reaping, since Foundation's monitor, which reaps the child
    /// and calls the termination handler, can be seconds late in a loaded test process.
    var status: Int32? { ending?.status }

    /// Whether a signal ended it (its status is then the signal's number); nil while running.
    /// Foundation's `terminationReason` must not be asked before its own monitor saw the end.
    var signalled: Bool? { ending?.signalled }

    private var ending: (status: Int32, signalled: Bool)? {
        if let ended = exited.withLock({ $0 }) { return ended }
        var info = siginfo_t()
        guard waitid(P_PID, id_t(process.processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0,
            info._sifields._sigchld.si_pid == process.processIdentifier
        else { return exited.withLock { $0 } }
        return (info._sifields._sigchld.si_status, info.si_code != CLD_EXITED)
    }

    /// Waits (up to `timeout`) for the process to end; its status, or nil if it did not.
    func exit(within timeout: TimeInterval) async -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status { return status }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return status
    }

    /// Waits (up to `timeout`) for the process to end and its stdout to be read to the end, so
    /// that `output` is all it printed (a line written just before a kill may still be in the
    /// pipe when the exit is seen). The end may never come while another program the test
    /// runner started at that moment holds a copy of the pipe (Foundation's Process leaves
    /// it inheritable); a second with nothing more to read after the exit counts as the end.
    func finished(within timeout: TimeInterval) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var exitedAt: Date?
        var read = (lines: output.count, partial: partial.withLock { $0.count })
        while Date() < deadline {
            if status != nil, outputEnded.withLock({ $0 }) { return true }
            let now = (lines: output.count, partial: partial.withLock { $0.count })
            if now != read { exitedAt = nil }
            read = now
            if status != nil {
                exitedAt = exitedAt ?? Date()
                if let exitedAt, Date().timeIntervalSince(exitedAt) >= 1 { return true }
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    func signal(_ number: Int32) { Glibc.kill(process.processIdentifier, number) }

    /// Waits (up to `timeout`) until `condition` holds for the lines so far.
    func wait(timeout: TimeInterval = 60, until condition: ([String]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(output) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition(output)
    }

    func kill() { Glibc.kill(process.processIdentifier, SIGKILL) }
}

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

    struct Receiver {
        let process: Background
        let url: String
        let log: URL
        let control: URL

        init(directory: URL, secret: String) async throws {
            log = directory.appendingPathComponent("received.jsonl")
            control = directory.appendingPathComponent("status")
            process = try Background(
                Checkers.venvPython,
                [CLI.root.appendingPathComponent("Tests/tools/webhook_receiver.py").path, log.path, secret, "--control", control.path],
                environment: ["PATH": "/usr/bin:/bin"])
            guard await process.wait(timeout: 30, until: { !$0.isEmpty }) else { throw POSIXError(.ETIMEDOUT) }
            url = process.output[0]
        }

        /// The config's `[[sink]]` for a signed webhook named "home" that posts here.
        var homeSink: String {
            """
            [[sink]]
            type = "webhook"
            name = "home"
            url = "\(url)/hook"
            secret = "\(AlertCommandTests.secret)"
            """
        }

        func answer(_ status: Int) throws { try "\(status)".write(to: control, atomically: true, encoding: .utf8) }

        var entries: [[String: Any]] {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }

        /// The ids the receiver accepted (2xx), in order, redeliveries included.
        var accepted: [String] { entries.filter { ($0["status"] as? Int ?? 500) < 300 }.compactMap { $0["id"] as? String } }

        /// Each id the first time it was accepted: what a receiver that deduplicates on
        /// `webhook-id` (as Standard Webhooks asks) acts on.
        var deduplicated: [String] {
            entries.filter { ($0["status"] as? Int ?? 500) < 300 && $0["duplicate"] as? Bool != true }.compactMap { $0["id"] as? String }
        }
    }

    static let secret = "whsec_" + Data("faceoff-cli-test-signing-key-01".utf8).base64EncodedString()

    func writeConfig(_ cli: CLI, _ text: String) throws {
        try FileManager.default.createDirectory(at: cli.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: cli.configFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: cli.configFile.path)
    }

    /// A configured stdout sink on a terminal (util-linux `script` gives the command a pty):
    /// coloured by default, plain with --no-color. `run`, `watch` and `test-alert` build that
    /// sink the same way (AlertSetup), so one command stands for all.
    @Test func noColorReachesAConfiguredStdoutSink() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        try writeConfig(
            cli,
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
        let receiver = try await Receiver(directory: cli.home, secret: Self.secret)
        defer { receiver.process.kill() }
        try writeConfig(
            cli,
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
        let receiver = try await Receiver(directory: cli.home, secret: Self.secret)
        defer { receiver.process.kill() }
        try receiver.answer(503)
        try writeConfig(
            cli,
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
