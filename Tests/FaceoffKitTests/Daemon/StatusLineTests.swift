import Foundation
import Testing

@testable import FaceoffAPI
@testable import FaceoffBase
@testable import FaceoffDaemon
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL
@testable import FaceoffStore

/// `faceoff status` after a game: the final for `[watch] final_hold`, then the next game.
@Suite(.timeLimit(.minutes(5))) struct StatusLineTests {
    /// A store with TOR's cached schedule (the mirror's) and the final of an overtime game
    /// recorded as a watcher records it.
    static func store(final: PlayByPlay, at date: Date) async throws -> (Store, URL) {
        let directory = try TestPaths.temporaryDirectory()
        let store = try Store(path: directory.appendingPathComponent("f.sqlite").path)
        let config = Self.config()
        let body = try Data(contentsOf: TestPaths.mirror.appendingPathComponent("club-schedule-season/TOR/now"))
        try await ResponseCache(store: store).save(
            CachedResponse(
                url: config.apiBase + Endpoint<ClubSchedule>.clubSchedule("TOR").path, body: Array(body), validators: Validators(),
                fetchedAt: date, freshness: .seconds(3600)))
        try await LiveStatus(store: store).record(GameSnapshot(final), at: date)
        return (store, directory)
    }

    static func config(teams: [String] = ["TOR"]) -> Config {
        var config = Config()
        config.teams = teams
        config.timezone = "UTC"
        return config
    }

    /// TOR 3–2 at MTL in overtime, over.
    static func overtimeFinal() throws -> PlayByPlay {
        try Replays.load(TestPaths.fixtures.appendingPathComponent("games/2025020201-TOR-at-MTL-overtime.json"))
    }

    @Test func theFinalShowsForTheHoldThenTheNextGame() async throws {
        let ended = Date(timeIntervalSince1970: 1_761_400_800)  // 2025-10-25 14:00 UTC
        let (store, directory) = try await Self.store(final: try Self.overtimeFinal(), at: ended)
        defer { try? FileManager.default.removeItem(at: directory) }
        var config = Self.config()

        let soon = StatusLine(store: store, config: config, now: ended.addingTimeInterval(3600)).report()
        #expect(soon.state == "final")
        #expect(soon.text.hasPrefix("Final/OT: TOR 3–2 MTL"), "\(soon.text)")
        #expect(soon.text.contains(" · Next: "), "\(soon.text)")

        // Past the hold (6 h by default), only the next game.
        let later = StatusLine(store: store, config: config, now: ended.addingTimeInterval(6 * 3600 + 60)).report()
        #expect(later.state == "next")
        #expect(later.text.hasPrefix("Next: "), "\(later.text)")

        // A shorter hold is a shorter hold.
        config.watch.finalHold = .seconds(1800)
        #expect(StatusLine(store: store, config: config, now: ended.addingTimeInterval(3600)).report().state == "next")
    }

    @Test func tmuxColoursTheFollowedTeamsResult() async throws {
        let ended = Date(timeIntervalSince1970: 1_761_400_800)
        let (store, directory) = try await Self.store(final: try Self.overtimeFinal(), at: ended)
        defer { try? FileManager.default.removeItem(at: directory) }
        let now = ended.addingTimeInterval(600)
        // TOR won.
        let won = StatusLine(store: store, config: Self.config(teams: ["TOR"]), now: now).report(style: .tmux)
        #expect(won.text.hasPrefix("#[fg=green,bold]Final/OT#[default]: "), "\(won.text)")
        // MTL lost.
        let lost = StatusLine(store: store, config: Self.config(teams: ["MTL"]), now: now).report(style: .tmux)
        #expect(lost.text.hasPrefix("#[fg=red,bold]Final/OT#[default]: "), "\(lost.text)")
        // Both followed: neither colour.
        let both = StatusLine(store: store, config: Self.config(teams: ["TOR", "MTL"]), now: now).report(style: .tmux)
        #expect(both.text.hasPrefix("Final/OT: "), "\(both.text)")
        // Plain text has no colour codes.
        #expect(StatusLine(store: store, config: Self.config(teams: ["MTL"]), now: now).report().text.hasPrefix("Final/OT: TOR 3–2 MTL"))
    }

    @Test func aRegulationFinalSaysNothingMore() async throws {
        var final = try Self.overtimeFinal()
        final.periodDescriptor = PeriodDescriptor(number: 3, periodType: .reg, maxRegulationPeriods: 3)
        let ended = Date(timeIntervalSince1970: 1_761_400_800)
        let (store, directory) = try await Self.store(final: final, at: ended)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = StatusLine(store: store, config: Self.config(teams: ["MTL"]), now: ended.addingTimeInterval(60)).report()
        #expect(report.text.hasPrefix("Final: TOR 3–2 MTL · Next") || report.text == "Final: TOR 3–2 MTL", "\(report.text)")
    }
}
