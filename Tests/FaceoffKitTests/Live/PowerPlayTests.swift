import Foundation
import Testing

@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

/// Power plays read from the penalties, on short invented feeds: what the whole-game
/// fixtures don't have (overtime, a misconduct).
@Suite(.timeLimit(.minutes(5))) struct PowerPlayTests {
    /// One play: period, time into it, kind, and for a penalty or a goal the team ("A" away,
    /// "H" home) and its details.
    struct Step {
        var period: Int
        var time: String
        var kind: String
        var team: String? = nil
        var details: [String: Any] = [:]
    }

    /// A feed of `steps`, CAR (id 12) at NJD (id 1), in the given game type.
    static func feed(_ steps: [Step], gameType: Int = 2) throws -> PlayByPlay {
        let plays: [[String: Any]] = steps.enumerated().map { index, step in
            var details = step.details
            if let team = step.team { details["eventOwnerTeamId"] = team == "A" ? 12 : 1 }
            var play: [String: Any] = [
                "eventId": 100 + index, "sortOrder": index * 5, "timeInPeriod": step.time, "typeDescKey": step.kind,
                "periodDescriptor": ["number": step.period, "periodType": step.period > 3 ? "OT" : "REG", "maxRegulationPeriods": 3],
            ]
            if !details.isEmpty { play["details"] = details }
            return play
        }
        let game: [String: Any] = [
            "id": 2025020999, "gameType": gameType, "gameState": "LIVE",
            "awayTeam": ["id": 12, "abbrev": "CAR", "score": 0], "homeTeam": ["id": 1, "abbrev": "NJD", "score": 0], "plays": plays,
        ]
        return try JSONDecoder().decode(PlayByPlay.self, from: JSONSerialization.data(withJSONObject: game))
    }

    static var minor: [String: Any] { ["typeCode": "MIN", "descKey": "tripping", "duration": 2] }

    /// A CAR minor a minute from the end of the 3rd, then overtime.
    static var lateMinor: [Step] {
        [
            Step(period: 3, time: "19:00", kind: "penalty", team: "A", details: minor),
            Step(period: 3, time: "19:00", kind: "faceoff"),
            Step(period: 3, time: "20:00", kind: "period-end"),
            Step(period: 4, time: "00:00", kind: "period-start"),
            Step(period: 4, time: "00:00", kind: "faceoff"),
            Step(period: 4, time: "01:10", kind: "shot-on-goal"),
        ]
    }

    static func powerPlayEvents(_ feed: PlayByPlay) -> [GameEvent] {
        EventDetector.derive(GameSnapshot(feed)).filter { [.powerPlayStart, .powerPlayChange, .powerPlayEnd].contains($0.kind) }
    }

    static func when(_ event: GameEvent) -> String { "\(event.periodLabel ?? "?") \(event.clock ?? "?")" }

    /// A power play that begins as one of two penalties runs out (4 on 4, then 5 on 4) shows
    /// the time left on the other, not a fresh 2:00; one that starts at the whistle shows its
    /// penalty's length.
    @Test func aPowerPlayStartingAsAPenaltyRunsOutShowsTheTimeLeft() throws {
        let events = Self.powerPlayEvents(
            try Self.feed([
                Step(period: 1, time: "10:00", kind: "penalty", team: "A", details: Self.minor),
                Step(period: 1, time: "10:00", kind: "faceoff"),
                Step(period: 1, time: "11:00", kind: "penalty", team: "H", details: Self.minor),
                Step(period: 1, time: "11:00", kind: "faceoff"),
                Step(period: 1, time: "12:30", kind: "shot-on-goal"),
                Step(period: 1, time: "13:30", kind: "shot-on-goal"),
            ]))
        let starts = events.filter { $0.kind == .powerPlayStart }
        #expect(starts.map(\.team) == ["NJD", "CAR"])
        #expect(starts.map { $0.details["time_left"] } == ["2:00", "1:00"])
        #expect(starts.map(Self.when) == ["1st 10:00", "1st 12:00"])
    }

    /// The same in a real game: Thomas's minor runs out 12 s into the 2nd with Gustafsson's
    /// still on (called at 18:43 of the 1st), so the Blues' power play has 31 s; at 17:43 of
    /// the 1st, Saad back with Ovechkin's running to 19:04, 1:21.
    @Test(.enabled(if: RealFixtures.available, "../shared/nhl-api/fixtures not present"))
    func aRecordedPowerPlayAfterFourOnFourShowsTheTimeLeft() throws {
        let file = RealFixtures.directory.appendingPathComponent("games/play-by-play_2022020269_WSH-at-STL_shootout.json")
        let starts = Self.powerPlayEvents(try Replays.load(file)).filter { $0.kind == .powerPlayStart }
        let shown = starts.map { "\(Self.when($0)) \($0.strength ?? "") \($0.details["time_left"] ?? "-")" }
        #expect(shown.contains("1st 17:43 5v4 1:21"), "\(shown)")
        #expect(shown.contains("1st 18:43 4v3 0:21"), "\(shown)")
        #expect(shown.contains("2nd 00:12 5v4 0:31"), "\(shown)")
        #expect(shown.contains("1st 11:03 5v4 2:00"), "\(shown)")
        #expect(starts.allSatisfy { $0.details["time_left"] != nil })
    }

    /// Regular-season overtime is three on three: the power play carries into it as 4 on 3,
    /// and ends when the penalty does, a minute in.
    @Test func aPowerPlayCarriesIntoThreeOnThree() throws {
        let events = Self.powerPlayEvents(try Self.feed(Self.lateMinor))
        #expect(events.map(\.kind) == [.powerPlayStart, .powerPlayChange, .powerPlayEnd])
        #expect(events.map(\.strength) == ["5v4", "4v3", "4v3"])
        #expect(events.map(Self.when) == ["3rd 19:00", "OT 00:00", "OT 01:00"])
        #expect(events[1].details == ["from": "5v4", "reason": "overtime"])
        #expect(events.allSatisfy { $0.team == "NJD" })
    }

    /// Playoff overtime is five on five: nothing changes shape at the period break.
    @Test func aPlayoffPowerPlayCarriesIntoOvertimeUnchanged() throws {
        let events = Self.powerPlayEvents(try Self.feed(Self.lateMinor, gameType: 3))
        #expect(events.map(\.kind) == [.powerPlayStart, .powerPlayEnd])
        #expect(events.map(Self.when) == ["3rd 19:00", "OT 01:00"])
    }

    /// Misconducts and a penalty shot leave the teams at full strength.
    @Test func callsThatTakeNoSkaterOffMakeNoPowerPlay() throws {
        let steps = [
            Step(
                period: 1, time: "05:00", kind: "penalty", team: "A", details: ["typeCode": "MIS", "descKey": "misconduct", "duration": 10]),
            Step(period: 1, time: "05:00", kind: "faceoff"),
            Step(period: 1, time: "07:00", kind: "penalty", team: "H", details: ["typeCode": "PS", "descKey": "hooking", "duration": 0]),
            Step(period: 1, time: "07:10", kind: "faceoff"),
            Step(period: 1, time: "09:00", kind: "shot-on-goal"),
        ]
        #expect(Self.powerPlayEvents(try Self.feed(steps)).isEmpty)
    }

    /// A goal during coincidental minors ends the penalty that gave the advantage, never one
    /// of the pair served four on four (rule 16.2): no power play appears when the pair ends.
    @Test func aGoalNeverEndsACoincidentalMinor() throws {
        let steps = [
            Step(period: 1, time: "10:00", kind: "penalty", team: "A", details: Self.minor),
            Step(period: 1, time: "10:00", kind: "penalty", team: "H", details: Self.minor),
            Step(period: 1, time: "10:00", kind: "faceoff"),
            Step(period: 1, time: "11:00", kind: "penalty", team: "H", details: Self.minor),
            Step(period: 1, time: "11:00", kind: "faceoff"),
            Step(period: 1, time: "11:30", kind: "goal", team: "A", details: ["scoringPlayerId": 1]),
            Step(period: 1, time: "11:30", kind: "faceoff"),
            Step(period: 1, time: "12:30", kind: "shot-on-goal"),
            Step(period: 1, time: "13:30", kind: "shot-on-goal"),
        ]
        let events = Self.powerPlayEvents(try Self.feed(steps))
        // 4v3 from 11:00, ended by the goal; the four on four runs to 12:00, then five a side.
        #expect(events.map(\.kind) == [.powerPlayStart, .powerPlayEnd])
        #expect(events.map(Self.when) == ["1st 11:00", "1st 11:30"])
        #expect(events.last?.details["reason"] == "goal")
    }

    /// A minor late in a regular-season overtime, then a shootout: the power play doesn't run
    /// into the shootout (no end at an impossible "OT 06:30").
    @Test func aPowerPlayDoesNotRunIntoTheShootout() throws {
        let steps = [
            Step(period: 4, time: "00:00", kind: "period-start"),
            Step(period: 4, time: "04:30", kind: "penalty", team: "A", details: Self.minor),
            Step(period: 4, time: "04:30", kind: "faceoff"),
            Step(period: 4, time: "05:00", kind: "period-end"),
            Step(period: 5, time: "00:00", kind: "period-start"),
            Step(period: 5, time: "00:00", kind: "shot-on-goal"),
        ]
        var feed = try Self.feed(steps)
        for index in feed.plays!.indices where feed.plays![index].periodDescriptor?.number == 5 {
            feed.plays![index].periodDescriptor?.periodType = .so
        }
        let events = Self.powerPlayEvents(feed)
        #expect(events.map(\.kind) == [.powerPlayStart])
        #expect(events.allSatisfy { ($0.period ?? 0) == 4 && (GameClockTime.seconds($0.clock) ?? 999) <= 300 })
    }

    /// A third penalty waits for a place: the team is never below three skaters, and the
    /// waiting penalty starts when the first one ends.
    @Test func aThirdPenaltyWaitsForAPlace() throws {
        let steps = [
            Step(period: 1, time: "02:00", kind: "penalty", team: "H", details: Self.minor),
            Step(period: 1, time: "02:00", kind: "faceoff"),
            Step(period: 1, time: "02:30", kind: "penalty", team: "H", details: Self.minor),
            Step(period: 1, time: "02:30", kind: "faceoff"),
            Step(period: 1, time: "03:00", kind: "penalty", team: "H", details: Self.minor),
            Step(period: 1, time: "03:00", kind: "faceoff"),
            Step(period: 1, time: "05:00", kind: "shot-on-goal"),
            Step(period: 1, time: "07:10", kind: "shot-on-goal"),
        ]
        let events = Self.powerPlayEvents(try Self.feed(steps))
        // 5v4 at 2:00, 5v3 at 2:30; at 4:00 the first ends and the third starts (still 5v3);
        // 4:30 the second ends (5v4); 6:00 the third ends.
        #expect(events.map(\.kind) == [.powerPlayStart, .powerPlayChange, .powerPlayChange, .powerPlayEnd])
        #expect(events.map(\.strength) == ["5v4", "5v3", "5v4", "5v4"])
        #expect(events.map(Self.when) == ["1st 02:00", "1st 02:30", "1st 04:30", "1st 06:00"])
    }
}
