import Foundation
import Logging
import Synchronization
import Testing

@testable import FaceoffAPI
@testable import FaceoffDaemon
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffStore

/// `faceoff run` following a team of a league that exists only in the tests (curling's,
/// `CurlingLeague`): the daemon reads its schedule, watches its game and routes its events
/// through its definition alone, with no line of the daemon or delivery naming it.
@Suite(.timeLimit(.minutes(5))) struct ThirdLeagueRunTests {
    static let launch = Date(timeIntervalSince1970: 1_764_000_000)  // 2025-11-24T16:00:00Z
    static let start = launch.addingTimeInterval(3600)
    /// Each end's points, away (ICE) then home (ROK): ICE goes ahead in the 4th, ROK in the
    /// 6th, ROK wins 6–5.
    static let ends = [(0, 2), (1, 0), (0, 0), (3, 0), (0, 1), (0, 2), (1, 0), (0, 1)]

    /// The game as its feed stands at `date`: an end every 10 minutes from the start, final
    /// 5 minutes after the last.
    static func feed(at date: Date) -> CurlingFeed {
        let minutes = date.timeIntervalSince(start) / 60
        let shown = minutes < 0 ? 0 : min(ends.count, Int(minutes / 10))
        let state = minutes < 0 ? "pre" : minutes >= Double(ends.count * 10 + 5) ? "final" : "live"
        return CurlingFeed(
            id: 42, away: "ICE", home: "ROK", start: start.formatted(.iso8601), state: state,
            ends: ends.prefix(shown).map { CurlingFeed.End(away: $0.0, home: $0.1) })
    }

    @Test func runFollowsACurlingGameToItsFinal() async throws {
        _ = CurlingLeague.registered
        let clock = TestClock()
        let log = LogLines(clock: clock)
        let now: @Sendable () -> Date = { Self.launch.addingTimeInterval(Double(clock.now.offset.components.seconds)) }
        let server = try LoopbackHTTPServer { request in
            let encoder = JSONEncoder()
            if request.path.hasPrefix("/v1/curling/teams/ICE/schedule") {
                return .json(String(decoding: try! encoder.encode([Self.feed(at: now())]), as: UTF8.self))
            }
            if request.path.hasPrefix("/v1/curling/games/42") {
                return .json(String(decoding: try! encoder.encode(Self.feed(at: now())), as: UTF8.self))
            }
            return .response(status: 404)
        }
        defer { server.stop() }
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sent = directory.appendingPathComponent("sent.jsonl")
        let config = directory.appendingPathComponent("config.toml")
        try """
        teams = ["lcl:ice"]
        [watch]
        poll = "10s"
        pregame = "30m"
        [[sink]]
        type = "exec"
        name = "log"
        command = ["/bin/sh", "-c", "cat >> \(sent.path); echo >> \(sent.path)"]
        """.write(to: config, atomically: true, encoding: .utf8)
        let environment = ["HOME": directory.path, "PATH": "/usr/bin:/bin"]
        let store = try Store(path: directory.appendingPathComponent("state/faceoff.sqlite").path)
        let base = server.baseURL + "/v1/"
        let daemon = Daemon(
            Daemon<TestClock>.Dependencies(
                store: store, http: CurlHTTPClient(), clock: clock, now: now, logger: log.logger(),
                loadSession: { try Session(.init(configPath: config.path, apiBase: base, environment: environment)) }))
        func events() -> [[String: Any]] {
            ((try? String(contentsOf: sent, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
        let task = Task { try await daemon.run() }
        let over = await eventually(within: hangGuard) { events().contains { $0["kind"] as? String == "final" } }
        task.cancel()
        _ = await task.result
        try #require(over, "\(log.all.map(\.1).suffix(20))")
        let ids = events().compactMap { $0["id"] as? String }
        // Every event once, and in the game's order. (The test clock jumps to whichever sleeper
        // wakes first, the daemon's minute checks too, so the watcher may meet the game in
        // progress or after a gap and fold what it missed into one summary: which of these
        // are sent is the clock's; their order and the final are the game's.)
        #expect(Set(ids).count == ids.count)
        let order = [
            "42:game_start", "42:period_end:1", "42:period_end:2", "42:period_end:3", "42:lead_change:end4", "42:period_end:4",
            "42:period_end:5", "42:lead_change:end6", "42:period_end:6", "42:period_end:7", "42:period_end:8", "42:final",
        ]
        let played = ids.filter { order.contains($0) }
        #expect(played == order.filter { played.contains($0) } && played.last == "42:final", "\(ids)")
        #expect(ids.allSatisfy { order.contains($0) || $0.contains(":pregame:") || $0.contains(":game_joined") }, "\(ids)")
        let final = try #require(events().last)
        #expect(final["league"] as? String == "lcl")
        #expect((final["score"] as? [String: Int]) == ["away": 5, "home": 6])
        #expect((final["details"] as? [String: String])?["winner"] == "ROK")
        // The status line's copy of the game, keyed as the team is followed.
        let status = try LiveStatus(store: store).games(since: Self.launch)
        #expect(status.first?.awayKey == "lcl:ICE" && status.first?.state == "final")
        // Nothing was asked of the NHL's API for a curling team (its schedule, standings for
        // a calendar): its league's own paths only. Its calendar feed was written through the
        // door, with the game in it.
        #expect(server.requests.allSatisfy { $0.path.hasPrefix("/v1/curling/") }, "\(server.requests.map(\.path))")
        let feed = try String(contentsOf: directory.appendingPathComponent(".local/share/faceoff/calendars/lcl-ICE.ics"), encoding: .utf8)
        #expect(feed.contains("UID:lcl-game-42@faceoff") && feed.contains("CATEGORIES:LCL"), "\(feed)")
    }
}
