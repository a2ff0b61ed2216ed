import Foundation
import Testing

@testable import FaceoffDaemon
@testable import FaceoffDelivery
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

/// What a schedule refresh says changed, from two answers: once per change, never for games
/// played or on, never for the first schedule.
@Suite(.timeLimit(.minutes(5))) struct ScheduleChangesTests {
    static let now = Date(timeIntervalSince1970: 1_764_000_000)  // 2025-11-24T16:00:00Z
    let time = LocalTime(timeZone: TimeZone(identifier: "America/Toronto")!)

    static func game(_ id: Int, _ start: String, state: String = "FUT", schedule: String = "OK", venue: String = "Scotiabank Arena")
        -> String
    {
        """
        {"id": \(id), "season": 20252026, "gameType": 2, "startTimeUTC": "\(start)", "gameState": "\(state)",
         "gameScheduleState": "\(schedule)", "venue": {"default": "\(venue)"}, "awayTeam": {"abbrev": "PIT"}, "homeTeam": {"abbrev": "TOR"}}
        """
    }

    static func games(_ items: [String]) throws -> [ScheduleGame] {
        try JSONDecoder().decode([ScheduleGame].self, from: Data("[\(items.joined(separator: ","))]".utf8))
    }

    func changes(_ before: [String], _ after: [String]) throws -> [String] {
        ScheduleChanges.events(team: "TOR", before: try Self.games(before), after: try Self.games(after), now: Self.now, time: time)
            .map { event in
                let text = Renderer.builtIn.text(event)
                return "\(event.gameId) \(text.title) · \(text.body)"
            }
    }

    /// A game whose time is still to be set moving to another day is news too.
    @Test func aGameWithNoTimeMovingToAnotherDayIsSaid() throws {
        let before = [Self.game(4, "2025-12-02T05:00:00Z", schedule: "TBD")]
        let after = [Self.game(4, "2025-12-03T05:00:00Z", schedule: "TBD")]
        #expect(try changes(before, after) == ["4 📅 PIT @ TOR moved · from Tue Dec 2, time TBD to Wed Dec 3, time TBD"])
    }

    @Test func eachKindOfChangeIsSaidFromWhatToWhat() throws {
        let before = [
            Self.game(1, "2025-11-29T00:00:00Z"), Self.game(2, "2025-11-30T00:00:00Z"), Self.game(3, "2025-12-01T00:00:00Z"),
            Self.game(4, "2025-12-02T05:00:00Z", schedule: "TBD"), Self.game(5, "2025-12-03T00:00:00Z"),
        ]
        let after = [
            Self.game(1, "2025-11-29T20:00:00Z"), Self.game(2, "2025-11-30T00:00:00Z", schedule: "PPD"),
            Self.game(3, "2025-12-01T00:00:00Z", schedule: "CNCL"), Self.game(4, "2025-12-03T00:30:00Z"),
            Self.game(5, "2025-12-03T00:00:00Z", venue: "Bell Centre"), Self.game(6, "2025-12-05T00:00:00Z"),
        ]
        #expect(
            try changes(before, after) == [
                "1 📅 PIT @ TOR moved · from Fri Nov 28 19:00 to Sat Nov 29 15:00",
                "2 📅 PIT @ TOR postponed · was Sat Nov 29 19:00",
                "3 📅 PIT @ TOR cancelled · was Sun Nov 30 19:00",
                "4 📅 PIT @ TOR time set · Tue Dec 2 19:30",
                "5 📅 PIT @ TOR new venue · from Scotiabank Arena to Bell Centre",
                "6 📅 PIT @ TOR added · Thu Dec 4 19:00",
            ])
        // The same answer again: nothing new. The same change seen twice has one id.
        #expect(try changes(after, after).isEmpty)
        let again = ScheduleChanges.events(
            team: "TOR", before: try Self.games(before), after: try Self.games(after), now: Self.now, time: time)
        let twice = ScheduleChanges.events(
            team: "TOR", before: try Self.games(before), after: try Self.games(after), now: Self.now, time: time)
        #expect(again.map(\.id) == twice.map(\.id))
        #expect(Set(again.map(\.id)).count == again.count)
    }

    @Test func playedGamesFirstSchedulesAndNewSeasonsAreNoNews() throws {
        // A game under way or over whose start moved (the feed's correction): no news.
        #expect(
            try changes([Self.game(1, "2025-11-24T00:00:00Z", state: "FUT")], [Self.game(1, "2025-11-24T00:10:00Z", state: "OFF")]).isEmpty)
        #expect(try changes([Self.game(1, "2025-11-24T15:00:00Z")], [Self.game(1, "2025-11-24T15:05:00Z", state: "LIVE")]).isEmpty)
        // Nothing to compare with: no "added" for the whole season.
        #expect(try changes([], [Self.game(1, "2025-12-01T00:00:00Z")]).isEmpty)
        // A new season's schedule in place of the last: not a list of added games.
        let next = Self.game(9, "2026-10-10T00:00:00Z").replacingOccurrences(of: "20252026", with: "20262027")
        #expect(try changes([Self.game(1, "2025-12-01T00:00:00Z")], [next]).isEmpty)
    }

    /// A game missing from one answer and back in the next was never "added"; a postponed
    /// game given a new date is "rescheduled" from its old date; moved away and back, each
    /// move is its own event.
    @Test func comebacksReschedulesAndMovesBackAndForth() throws {
        let one = [Self.game(1, "2025-12-01T00:00:00Z"), Self.game(2, "2025-12-02T00:00:00Z")]
        let events = { (before: [String], after: [String], known: Set<Int>) in
            ScheduleChanges.events(
                team: "TOR", before: try Self.games(before), after: try Self.games(after), known: known, now: Self.now, time: self.time)
        }
        #expect(try events([one[0]], one, [1, 2]).isEmpty)
        #expect(try events([one[0]], one, [1]).map { $0.details["change"] } == ["added"])
        let back = try events(
            [Self.game(1, "2025-12-01T00:00:00Z", schedule: "PPD")], [Self.game(1, "2026-02-20T00:00:00Z")], [1])
        #expect(back.map { Renderer.builtIn.text($0).body } == ["from Sun Nov 30 19:00 to Thu Feb 19 19:00"])
        #expect(back.map { $0.details["change"] } == ["rescheduled"])
        let a = Self.game(1, "2025-12-01T00:00:00Z")
        let b = Self.game(1, "2025-12-01T01:00:00Z")
        let there = try events([a], [b], [1])
        let andBack = try events([b], [a], [1])
        let again = try events([a], [b], [1])
        #expect(there.count == 1 && andBack.count == 1 && there.map(\.id) == again.map(\.id))
        #expect(there[0].id != andBack[0].id)
    }
}
