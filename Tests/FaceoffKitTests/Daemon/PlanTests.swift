import Foundation
import Testing

@testable import FaceoffCalendar
@testable import FaceoffDaemon
@testable import FaceoffKit
@testable import FaceoffNHL

/// The rules `calendar`, `serve`, `run`, `watch` and `status` share.
@Suite(.timeLimit(.minutes(5))) struct PlanTests {
    @Test func favouritesIsWrittenWithOneTeamAndTheLeagueFeedOnceItExists() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(FeedPlan(teams: []).written == [])
        #expect(FeedPlan(teams: ["TOR"]).written == [.team("TOR"), .favourites(["TOR"])])
        #expect(FeedPlan(teams: ["TOR"]).served == [.team("TOR"), .favourites(["TOR"]), .all])
        #expect(FeedPlan(teams: ["TOR"]).refreshed(in: directory.path) == [.team("TOR"), .favourites(["TOR"])])
        try Data().write(to: directory.appendingPathComponent("all.ics"))
        #expect(FeedPlan(teams: ["TOR"]).refreshed(in: directory.path) == [.team("TOR"), .favourites(["TOR"]), .all])
    }

    static func game(start: Date?, state: String = "FUT", schedule: String = "OK") throws -> ScheduleGame {
        let text = start.map { "\"startTimeUTC\": \"\($0.formatted(.iso8601))\"," } ?? ""
        return try JSONDecoder().decode(
            ScheduleGame.self,
            from: Data(
                """
                {"id": 1, \(text) "gameState": "\(state)", "gameScheduleState": "\(schedule)",
                 "awayTeam": {"abbrev": "TOR"}, "homeTeam": {"abbrev": "MTL"}}
                """.utf8))
    }

    @Test func aGameCountsWhileLiveOrUnderSixHoursPastItsStart() throws {
        let now = Date(timeIntervalSince1970: 1_764_000_000)
        #expect(GameWindow.isCurrent(try Self.game(start: now.addingTimeInterval(-5.9 * 3600)), now: now))
        #expect(!GameWindow.isCurrent(try Self.game(start: now.addingTimeInterval(-6.1 * 3600)), now: now))
        #expect(GameWindow.isCurrent(try Self.game(start: now.addingTimeInterval(-9 * 3600), state: "LIVE"), now: now))
        #expect(!GameWindow.isCurrent(try Self.game(start: now.addingTimeInterval(-1 * 3600), state: "OFF"), now: now))
        #expect(!GameWindow.isCurrent(try Self.game(start: now.addingTimeInterval(3600), schedule: "PPD"), now: now))
        #expect(!GameWindow.isCurrent(try Self.game(start: nil), now: now))
        // run plans two weeks ahead; later games wait for a later refresh.
        #expect(GameWindow.isPlanned(try Self.game(start: now.addingTimeInterval(13 * 86400)), now: now))
        #expect(!GameWindow.isPlanned(try Self.game(start: now.addingTimeInterval(15 * 86400)), now: now))
    }
}
