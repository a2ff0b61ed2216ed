import Foundation
import Testing

@testable import FaceoffBase
@testable import FaceoffFan
@testable import FaceoffKit
@testable import FaceoffNHL

/// The scores table's words for the states the recordings don't have.
@Suite(.timeLimit(.minutes(5))) struct ScoresTextTests {
    /// A shootout under way has no clock: "SO", never "SO 00:00 left".
    @Test func aLiveShootoutShowsNoClock() throws {
        let json = """
            {"currentDate": "2025-10-26", "games": [{"id": 2025020150, "gameState": "LIVE", "startTimeUTC": "2025-10-26T23:00:00Z",
              "periodDescriptor": {"number": 5, "periodType": "SO", "maxRegulationPeriods": 3},
              "clock": {"timeRemaining": "00:00", "secondsRemaining": 0, "running": false, "inIntermission": false},
              "awayTeam": {"abbrev": "PIT", "score": 3}, "homeTeam": {"abbrev": "MIN", "score": 3}}]}
            """
        let time = LocalTime(timeZone: TimeZone(identifier: "UTC")!)
        let report = ScoresReport(score: try JSONDecoder().decode(DailyScore.self, from: Data(json.utf8)), followed: [], time: time)
        let text = FanText(style: .plain, width: 80, time: time).scores(report)
        #expect(text.contains("3–3    SO") && !text.contains("left"), "\(text)")
    }
}
