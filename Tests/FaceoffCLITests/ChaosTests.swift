import FaceoffKit
import Foundation
import Synchronization
import Testing

/// `faceoff run` through what a desktop does to it, end to end: two replayed games behind a
/// proxy that takes the API away for a minute (connections refused, then accepted and never
/// answered), the daemon stopped for 30 s mid-game (a stand-in for suspend), a `watch` of one
/// game and a `status` loop on the same store, two SIGHUPs, and the receiver failing for 30 s.
@Suite("faceoff run through chaos, the binary", .timeLimit(.minutes(10))) struct ChaosTests {
    @Test(.enabled(if: Checkers.standardWebhooks, Checkers.noWebhookChecker))
    func everyGoalOnceThroughOutageStopReloadsAndAFailingReceiver() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        // 15x: each game lasts about four minutes; both start 10 s after launch.
        let replay = try await Replays.serveBothGames(cli, speed: 15)
        defer { replay.kill() }
        let upstream = try #require(URL(string: replay.output[0]))
        let control = cli.home.appendingPathComponent("proxy-mood")
        let proxy = try Background(
            Checkers.venvPython,
            [CLI.root.appendingPathComponent("Tests/tools/chaos_proxy.py").path, "127.0.0.1:\(upstream.port ?? 0)", control.path],
            environment: ["PATH": "/usr/bin:/bin"])
        defer { proxy.kill() }
        try #require(await proxy.wait(timeout: 30) { !$0.isEmpty })
        func mood(_ text: String) throws { try text.write(to: control, atomically: true, encoding: .utf8) }
        let receiver = try await Replays.followBothWithAReceiver(cli)
        defer { receiver.process.kill() }
        let environment = ["HOME": cli.home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "NO_COLOR": "1"]
        let run = try Background(
            CLI.binary.path, ["run"], environment: environment.merging(["FACEOFF_API_BASE": proxy.output[0] + "/v1/"]) { $1 })
        defer { run.kill() }
        let watch = try Background(
            CLI.binary.path, ["watch", "2025020100", "--format", "jsonl"],
            environment: environment.merging(["FACEOFF_API_BASE": replay.output[0]]) { $1 })
        defer { watch.kill() }

        let reference = try Replays.reference()
        let finals = reference.keys.map { "\($0):final" }
        let looking = StatusLoop()
        try await withThrowingTaskGroup(of: Void.self) { group in
            // `faceoff status`, as tmux asks for it, all along.
            group.addTask { [base = proxy.output[0] + "/v1/"] in
                while !looking.stopped.withLock({ $0 }) {
                    let status = try await cli.run(["status"], environment: ["FACEOFF_API_BASE": base])
                    if status.status != 0 || !status.stderr.isEmpty {
                        looking.problems.withLock { $0.append("\(status.status): \(status.stderr)") }
                    }
                    try await Task.sleep(for: .milliseconds(500))
                }
            }
            // The first alerts are out: the games are live.
            #expect(await run.wait(timeout: 60) { _ in receiver.accepted.count >= 3 })
            try mood("refuse")
            try await Task.sleep(for: .seconds(30))
            try mood("drop")
            try await Task.sleep(for: .seconds(30))
            try mood("pass")
            #expect(!finals.allSatisfy(receiver.accepted.contains), "the games ended before the daemon was stopped")
            run.signal(SIGSTOP)
            try await Task.sleep(for: .seconds(30))
            run.signal(SIGCONT)
            try receiver.answer(503)
            run.signal(SIGHUP)
            try await Task.sleep(for: .seconds(5))
            run.signal(SIGHUP)
            try await Task.sleep(for: .seconds(25))
            try receiver.answer(200)
            #expect(
                await run.wait(timeout: 300) { _ in finals.allSatisfy(receiver.accepted.contains) },
                "finals: \(receiver.accepted.filter { $0.hasSuffix(":final") })")
            looking.stopped.withLock { $0 = true }
            try await group.waitForAll()
        }

        // Each team's feed shows its final (from its side), favourites.ics both, once the
        // refresh after the last final has written them.
        _ = await run.wait(timeout: 15) { _ in
            cli.calendar("MTL").contains("Canadiens 3–5")
                && cli.calendar("favourites").contains("Maple Leafs 3–1 Bruins")
        }
        let tor = cli.calendar("TOR")
        let mtl = cli.calendar("MTL")
        let favourites = cli.calendar("favourites")
        #expect(tor.contains("Maple Leafs 3–1 Bruins") && tor.contains("Maple Leafs 5–3 Canadiens"))
        #expect(mtl.contains("Canadiens 3–5 Maple Leafs"))
        #expect(favourites.contains("Maple Leafs 3–1 Bruins") && favourites.contains("Maple Leafs 5–3 Canadiens"))
        let stopping = Date()
        run.signal(SIGTERM)
        #expect(await run.exit(within: 10) == 0)
        #expect(Date().timeIntervalSince(stopping) < 5)
        #expect(await watch.exit(within: 60) == 0, "\(watch.stderr.suffix(2000))")

        // Every goal and final of both games once by webhook-id, each game's in order.
        let accepted = receiver.deduplicated
        for (game, ids) in reference {
            let wanted = ids.filter { $0.contains(":goal:") || $0.hasSuffix(":final") }
            #expect(
                accepted.filter { $0.hasPrefix("\(game):") && ($0.contains(":goal:") || $0.hasSuffix(":final")) } == wanted, "game \(game)")
        }
        #expect(Set(accepted).count == accepted.count)
        #expect(receiver.entries.allSatisfy { $0["verified"] as? Bool == true })
        // One outage, logged when it began and when it ended.
        let log = run.stderr
        #expect(log.components(separatedBy: "the NHL API is unreachable").count - 1 == 1, "\(log.suffix(3000))")
        #expect(log.components(separatedBy: "the NHL API is reachable again").count - 1 == 1)
        #expect(log.components(separatedBy: "config reloaded").count - 1 == 2)
        #expect(looking.problems.withLock { $0 } == [])
    }
}

/// What the `status` loop found, and when to stop it.
final class StatusLoop: Sendable {
    let problems = Mutex<[String]>([])
    let stopped = Mutex(false)
}
