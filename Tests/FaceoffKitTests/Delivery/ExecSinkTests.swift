import Foundation
import GRDB
import Synchronization
import Testing

@testable import FaceoffBase
@testable import FaceoffDaemon
@testable import FaceoffDelivery
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL
@testable import FaceoffStore

/// The exec sink against real programs (shell scripts the tests write).
@Suite(.timeLimit(.minutes(5))) struct ExecSinkTests {
    struct Setup {
        let directory: URL
        var home: String { directory.path + "/home" }
        var log: String { directory.path + "/log" }

        init() throws {
            directory = try TestPaths.temporaryDirectory()
            try FileManager.default.createDirectory(atPath: directory.path + "/home/bin", withIntermediateDirectories: true)
        }

        /// Writes an executable script under ~/bin.
        func script(_ name: String, _ body: String) throws {
            let path = home + "/bin/" + name
            try ("#!/bin/sh\n" + body).write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
        }

        func sink(_ command: [String], timeout: Duration = .seconds(10), retry: Bool = false, store: Store? = nil) throws -> ExecSink {
            var options = SinkConfig.Exec(command: command)
            options.timeout = timeout
            options.retry = retry
            let environment = ["HOME": home, "PATH": "/usr/bin:/bin", "LOG": log]
            let renderer = Renderer(templates: try TemplateSet(overrides: nil), followed: ["TOR"])
            return ExecSink(
                name: "light", options: options, renderer: renderer, environment: environment, paths: Paths(environment: environment),
                outbox: store.map { Outbox(store: $0) }, schedule: WebhookHarness.fast)
        }

        var lines: [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        func cleanUp() { try? FileManager.default.removeItem(at: directory) }
    }

    /// The program gets its arguments (templates rendered, `~` expanded, never a shell), the
    /// event's JSON on stdin and the FACEOFF_* variables.
    @Test func theProgramGetsItsArgumentsTheEventAndItsEnvironment() async throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        try setup.script(
            "record",
            """
            for argument in "$@"; do printf 'arg=%s\\n' "$argument" >> "$LOG"; done
            env | grep '^FACEOFF_' | sort >> "$LOG"
            cat > "$LOG.json"
            """)
        let sink = try setup.sink(["~/bin/record", "--team", "{{team}}", "{{away}} at {{home}}", "$HOME; rm -rf /"])
        var event = SampleEvent.make(.goal, team: "TOR", key: "7")
        event.strength = "PP"
        event.seenAt = Date(timeIntervalSince1970: 1_760_000_000)
        #expect(await sink.send(event) == .delivered("exit 0"))
        #expect(
            setup.lines == [
                "arg=--team", "arg=TOR", "arg=MTL at TOR", "arg=$HOME; rm -rf /",
                "FACEOFF_AWAY=MTL", "FACEOFF_AWAY_SCORE=1", "FACEOFF_EVENT_ID=2025029999:goal:7", "FACEOFF_FOLLOWED=1",
                "FACEOFF_GAME=2025029999",
                "FACEOFF_HOME=TOR", "FACEOFF_HOME_SCORE=2", "FACEOFF_KIND=goal", "FACEOFF_LEAGUE=nhl", "FACEOFF_STRENGTH=PP",
                "FACEOFF_TEAM=TOR",
            ])
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: setup.log + ".json"))) as? [String: Any]
        #expect(json?["id"] as? String == "2025029999:goal:7")
        #expect(json?["kind"] as? String == "goal")
        #expect(json?["seenAt"] as? String == "2025-10-09T08:53:20Z")
        // A goal by the other team: not followed.
        var against = SampleEvent.make(.goal, team: "TOR", key: "8")
        against.team = "MTL"
        _ = await sink.send(against)
        #expect(setup.lines.contains("FACEOFF_FOLLOWED=0"))
        // An NBA game's alert says its league: the Celtics are BOS as the Bruins are.
        _ = await sink.send(SampleEvent.make(.leadChange, team: "LAL"))
        #expect(setup.lines.contains("FACEOFF_LEAGUE=nba"))
    }

    /// How soon a run of a program that would take 300 s must be back when its timeout is 1 s:
    /// long before 300 s, but not within a few seconds of the deadline, since the runner's
    /// answer resumes the test on Swift's thread pool, which the tests running beside it share
    /// (two threads here) and have kept busy for up to 10 s in a full run.
    static let promptly: Duration = .seconds(60)

    /// A program that hangs is killed at the timeout with what it started, and the failure is
    /// reported with the end of its stderr; a non-zero exit too.
    /// What a program writes on stderr reaches the log without its escape sequences.
    @Test func aProgramsStderrReachesTheLogWithoutControlCharacters() {
        let said = ExecSink.tail("fine\n\u{1B}]0;pwned\u{07}title \u{1B}[2Jcleared \u{9B}31m red\n")
        #expect(said.hasPrefix("; stderr: fine | "))
        #expect(!said.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(said.debugDescription)")
        #expect(said.contains("pwned") && said.contains("cleared"))
    }

    @Test func aHangingProgramIsKilledWithItsChildren() async throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        try setup.script(
            "hang",
            """
            sleep 300 &
            echo "child $!" >> "$LOG"
            echo "warming up the horn" >&2
            echo "still waiting" >&2
            sleep 300
            """)
        let sink = try setup.sink(["~/bin/hang"], timeout: .seconds(1))
        let started = ContinuousClock.now
        let delivery = await sink.send(SampleEvent.make(.goal, team: "TOR"))
        #expect(ContinuousClock.now - started < Self.promptly)
        guard case .failed(let why) = delivery else {
            Issue.record("\(delivery)")
            return
        }
        #expect(why.contains("still running after 1s"), "\(why)")
        #expect(why.hasSuffix("stderr: warming up the horn | still waiting"), "\(why)")
        let child = try #require(setup.lines.first.flatMap { Int32($0.dropFirst("child ".count)) })
        #expect(await eventually { kill(child, 0) != 0 }, "the program's child was left running")

        // Something started outside the program's process group (setsid) holding its output:
        // waited for until the deadline, not for as long as it lives.
        try setup.script("escape", "setsid sleep 300 & echo $! > \"$LOG.escaped\"; exit 0")
        let escaping = ContinuousClock.now
        #expect(
            try await setup.sink(["~/bin/escape"], timeout: .seconds(1)).send(SampleEvent.make(.goal, team: "TOR")) == .delivered("exit 0"))
        #expect(ContinuousClock.now - escaping < Self.promptly)
        if let escaped = Int32(
            (try? String(contentsOfFile: setup.log + ".escaped", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        {
            kill(escaped, SIGKILL)
        }

        // One that closes its output and goes on: still killed at the deadline.
        try setup.script("quiet", "exec >/dev/null 2>&1; sleep 300")
        let quiet = ContinuousClock.now
        let closed = try await setup.sink(["~/bin/quiet"], timeout: .seconds(1)).send(SampleEvent.make(.goal, team: "TOR"))
        #expect(ContinuousClock.now - quiet < Self.promptly)
        #expect(closed.isFailure, "\(closed)")

        try setup.script("fail", "echo 'no bulb found' >&2; exit 3")
        let failed = try await setup.sink(["~/bin/fail"]).send(SampleEvent.make(.goal, team: "TOR"))
        #expect(failed == .failed("\(setup.home)/bin/fail exited with status 3; stderr: no bulb found"), "\(failed)")
        #expect(try await setup.sink(["~/bin/missing"]).send(SampleEvent.make(.goal, team: "TOR")).isFailure)
    }

    /// Through a router with a ledger: one program at a time, in event order, each event once;
    /// a second process on the same store runs none of them again.
    /// A program that writes without pause on stdout or stderr until its timeout: its time
    /// is bounded by the timeout, and only the tail of its output is kept (the process's
    /// peak memory hardly moves; it grew by gigabytes when every byte was kept).
    @Test(arguments: ["stdout", "stderr"])
    func aFloodingProgramCostsNoMemoryAndEndsOnTime(stream: String) async throws {
        func peakKB() throws -> Int {
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        let before = try peakKB()
        let started = ContinuousClock.now
        let result = try await ProcessRunner.run(
            "/bin/sh", ["-c", stream == "stdout" ? "exec yes flood" : "exec yes flood >&2"], environment: ["PATH": "/usr/bin:/bin"],
            timeout: .seconds(3))
        let elapsed = ContinuousClock.now - started
        #expect(result.timedOut)
        #expect(elapsed < .seconds(15), "\(elapsed)")
        let kept = stream == "stdout" ? result.stdout : result.stderr
        #expect(kept.hasPrefix("…") && kept.hasSuffix("flood\n"), "\(kept.prefix(40))")
        #expect(kept.utf8.count <= ProcessRunner.keptOutput + 3)
        // The process's peak, which the tests running beside this one raise too (by 211 MB once,
        // under the whole suite): the bound is for the gigabytes of keeping every byte.
        let grown = try peakKB() - before
        #expect(grown < 1_000_000, "peak memory grew by \(grown) KB")
    }

    /// A program started gets only its standard streams, and starting it changes nothing of the
    /// caller's descriptors: Foundation's `Process` (in the same process) learns that its child
    /// ended when a socket the child inherits closes, so a flag set on that socket at the wrong
    /// moment makes it wait on a live child and report no other exit until that one ends, the
    /// whole test run hung that way.
    @Test func aProgramGetsOnlyItsStandardStreamsAndTheCallersAreUntouched() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { for fd in ends { close(fd) } }
        let flagsBefore = ends.map { fcntl($0, F_GETFD) }
        let result = try await ProcessRunner.run(
            "/bin/sh", ["-c", "ls /proc/$$/fd"], environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(10))
        let open = Set(result.stdout.split(separator: "\n").compactMap { Int32($0) })
        #expect(open.isSubset(of: [0, 1, 2]), "the program also had \(open.subtracting([0, 1, 2]).sorted())")
        #expect(ends.map { fcntl($0, F_GETFD) } == flagsBefore, "starting a program changed the caller's descriptors")
    }

    @Test func oneAtATimeInOrderAndNeverTwice() async throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let store = try Store(path: setup.directory.appendingPathComponent("faceoff.sqlite").path)
        // mkdir is atomic: a second copy running at the same time would find the folder.
        try setup.script(
            "light",
            """
            mkdir "$LOG.running" 2>/dev/null || echo overlap >> "$LOG"
            sleep 0.05
            echo "$FACEOFF_EVENT_ID" >> "$LOG"
            rmdir "$LOG.running"
            """)
        let events = (0..<12).map { SampleEvent.make(.goal, team: "TOR", key: "\($0)") }
        for _ in 0..<2 {
            let router = AlertRouter(
                routes: [SinkRoute(sink: try setup.sink(["~/bin/light"]), filter: SinkFilter(teams: ["TOR"]))],
                ledger: Ledger(store: store),
                clock: ContinuousClock())
            try await router.serving {
                for event in events { router.route(event) }
            }
        }
        #expect(setup.lines == events.map(\.id))

        // Two at once, as `run` and `watch` on one store are (owners of their own), each
        // with alerts of its own: never two programs of the sink at the same time.
        let more = (0..<2).map { side in (0..<6).map { SampleEvent.make(.goal, team: "TOR", key: "\(side)-\($0)") } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for side in 0..<2 {
                let router = AlertRouter(
                    routes: [SinkRoute(sink: try setup.sink(["~/bin/light"], store: store), filter: SinkFilter(teams: ["TOR"]))],
                    ledger: Ledger(store: store, owner: "\(getpid()):side\(side)"), clock: ContinuousClock())
                group.addTask { try await router.serving { for event in more[side] { router.route(event) } } }
            }
            try await group.waitForAll()
        }
        #expect(!setup.lines.contains("overlap"), "\(setup.lines)")
        #expect(setup.lines.count == 24)
    }

    /// Cancelled while another process holds the sink's lock (a `run` stopping while a
    /// `watch` runs the program): the program never starts, with or without the lock.
    @Test func aProgramNeverStartsAfterItsSinkWasCancelled() async throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        try setup.script("light", "echo ran >> \"$LOG\"")
        let sink = try setup.sink(["~/bin/light"])
        try FileManager.default.createDirectory(
            atPath: (sink.lockPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // The other process's hold on the lock.
        let held = open(sink.lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        try #require(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        let outcome = await withTaskGroup(of: OutboxAttempt.self) { group in
            group.addTask { await sink.execute(sink.invocation(SampleEvent.make(.goal, team: "TOR"))) }
            try? await Task.sleep(for: .milliseconds(300))
            group.cancelAll()
            let outcome = await group.next()
            close(held)
            return outcome
        }
        // Give a wrongly started program time to write.
        try await Task.sleep(for: .milliseconds(300))
        #expect(setup.lines.isEmpty, "\(setup.lines)")
        if case .cancelled? = outcome {} else { Issue.record("outcome: \(String(describing: outcome))") }
    }

    /// At most once: a claim left by a process killed while the program ran (or just before)
    /// is never taken over. With `retry = true` the run is in the outbox, and a process that
    /// died holding it leaves it to the next, which runs it again.
    @Test func retryChoosesBetweenAtMostOnceAndAtLeastOnce() async throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let store = try Store(path: setup.directory.appendingPathComponent("faceoff.sqlite").path)
        try setup.script("light", "echo \"$FACEOFF_EVENT_ID\" >> \"$LOG\"")
        let event = SampleEvent.make(.goal, team: "TOR", key: "1")
        // A dead process's claim, as a kill -9 between the claim and the program leaves it.
        let dead = Ledger(store: store, owner: "999999999:0")
        #expect(try await dead.claim(event, sink: "light", final: true))
        let router = AlertRouter(
            routes: [SinkRoute(sink: try setup.sink(["~/bin/light"]), filter: SinkFilter(teams: ["TOR"]))], ledger: Ledger(store: store),
            clock: ContinuousClock())
        try await router.serving { router.route(event) }
        #expect(setup.lines.isEmpty)
        // The router's own claim for an at-most-once sink is final before the program starts:
        // while it runs, the ledger names no process that a later one could take it over from.
        try setup.script("slow", "sleep 1; echo \"$FACEOFF_EVENT_ID\" >> \"$LOG\"")
        let slow = SampleEvent.make(.goal, team: "TOR", key: "slow")
        let slowRouter = AlertRouter(
            routes: [SinkRoute(sink: try setup.sink(["~/bin/slow"]), filter: SinkFilter(teams: ["TOR"]))], ledger: Ledger(store: store),
            clock: ContinuousClock())
        try await slowRouter.serving {
            slowRouter.route(slow)
            #expect(
                await eventually {
                    (try? store.read { db in
                        try Int.fetchOne(db, sql: "SELECT count(*) FROM ledger WHERE event_id = ?", arguments: [slow.id])
                    }) == 1
                })
            let holder = try store.read { db in
                try String?.fetchOne(db, sql: "SELECT sending FROM ledger WHERE event_id = ?", arguments: [slow.id])
            }
            #expect(holder == .some(nil), "claimed as \(String(describing: holder))")
        }
        #expect(setup.lines == [slow.id])

        // retry = true: a row leased by a process that died mid-run is run again.
        let outbox = Outbox(store: store, owner: "999999999:0")
        let retried = SampleEvent.make(.goal, team: "TOR", key: "2")
        let sink = try setup.sink(["~/bin/light"], retry: true, store: store)
        let body = try JSONEncoder().encode(sink.invocation(retried))
        #expect(try await outbox.enqueue(retried, sink: "light", body: Array(body), at: Date(), expiresAt: Date().addingTimeInterval(3600)))
        let row = try #require(try outbox.head(sink: "light"))
        #expect(try await outbox.lease(row, until: Date().addingTimeInterval(30), now: Date()))
        let again = AlertRouter(
            routes: [SinkRoute(sink: sink, filter: SinkFilter(teams: ["TOR"]))], ledger: Ledger(store: store), clock: ContinuousClock())
        try await again.serving {
            #expect(await sink.settle(timeout: .seconds(10)))
        }
        #expect(setup.lines == [slow.id, retried.id])

        // And a failing run is retried until it succeeds.
        try setup.script(
            "flaky",
            """
            echo "$FACEOFF_EVENT_ID" >> "$LOG"
            [ -e "$LOG.ok" ] || { touch "$LOG.ok"; exit 1; }
            """)
        let flaky = try setup.sink(["~/bin/flaky"], retry: true, store: store)
        let third = SampleEvent.make(.goal, team: "TOR", key: "3")
        let router3 = AlertRouter(
            routes: [SinkRoute(sink: flaky, filter: SinkFilter(teams: ["TOR"]))], ledger: Ledger(store: store), clock: ContinuousClock())
        try await router3.serving {
            router3.route(third)
            #expect(await eventually(within: .seconds(10)) { setup.lines.filter { $0 == third.id }.count == 2 })
            #expect(await flaky.settle(timeout: .seconds(10)))
        }
    }
}
