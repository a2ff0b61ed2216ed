import Foundation
import Testing

@testable import FaceoffKit
@testable import FaceoffMQTT

/// The daemon's plan, as a value: which games are due, what window comes next, and what
/// watching, finishing and abandoning do to it. No clock, no I/O.
@Suite(.timeLimit(.minutes(5))) struct TimelineTests {
    let seven = Date(timeIntervalSince1970: 1_764_000_000)
    let pregame = Duration.seconds(30 * 60)

    func timeline(_ games: [Timeline<ContinuousClock.Instant>.Game]) -> Timeline<ContinuousClock.Instant> {
        var timeline = Timeline(refreshAt: ContinuousClock.now)
        for game in games { timeline.games[game.id] = game }
        return timeline
    }

    func game(_ id: Int, start: Date?, live: Bool = false) -> Timeline<ContinuousClock.Instant>.Game {
        .init(id: id, start: start, away: "PIT", home: "MIN", live: live)
    }

    @Test func aGameIsDueFromItsPregameWindowEarliestFirst() {
        let later = game(2, start: seven.addingTimeInterval(3 * 3600))
        let first = game(1, start: seven)
        let plan = timeline([later, first])
        #expect(plan.due(at: seven.addingTimeInterval(-31 * 60), pregame: pregame).isEmpty)
        #expect(plan.due(at: seven.addingTimeInterval(-30 * 60), pregame: pregame).map(\.id) == [1])
        #expect(plan.due(at: seven.addingTimeInterval(3 * 3600), pregame: pregame).map(\.id) == [1, 2])
        #expect(plan.nextWindow(after: seven.addingTimeInterval(-3600), pregame: pregame)?.game.id == 1)
        #expect(plan.nextWindow(after: seven, pregame: pregame)?.date == later.start!.addingTimeInterval(-30 * 60))
        #expect(plan.nextWindow(after: seven.addingTimeInterval(4 * 3600), pregame: pregame) == nil)
    }

    @Test func aLiveGameIsDueAtOnceAndOneWithNoTimeWaits() {
        let plan = timeline([game(1, start: seven.addingTimeInterval(3600), live: true), game(2, start: nil)])
        // Live before its window (an early start): due now, whatever the clock says.
        #expect(plan.due(at: seven, pregame: pregame).map(\.id) == [1])
        // The one without a time has no window to wait for.
        #expect(plan.nextWindow(after: seven.addingTimeInterval(3600), pregame: pregame) == nil)
    }

    @Test func aWatchedOrFinishedGameIsNeverDueAgain() {
        var plan = timeline([game(1, start: seven), game(2, start: seven)])
        plan.watch(1)
        #expect(plan.watching == [1])
        #expect(plan.due(at: seven, pregame: pregame).map(\.id) == [2])
        plan.finished(1)
        #expect(plan.watching.isEmpty)
        #expect(plan.due(at: seven, pregame: pregame).map(\.id) == [2])
    }

    /// Abandoned (postponed, not in the API): not watched again at the same start; a new
    /// start from the schedule, or the game going live, brings it back.
    @Test func anAbandonedGameComesBackOnlyWithANewStartOrLive() {
        var plan = timeline([game(1, start: seven)])
        plan.watch(1)
        plan.abandoned(1, start: seven)
        #expect(plan.due(at: seven, pregame: pregame).isEmpty)
        plan.games[1] = game(1, start: seven.addingTimeInterval(86400))
        #expect(plan.due(at: seven.addingTimeInterval(86400), pregame: pregame).map(\.id) == [1])
        plan.games[1] = game(1, start: seven, live: true)
        #expect(plan.due(at: seven, pregame: pregame).map(\.id) == [1])
    }
}
