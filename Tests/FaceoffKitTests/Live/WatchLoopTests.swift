import Foundation
import Testing

@testable import FaceoffAPI
@testable import FaceoffKit

/// The poll loop's decisions, one at a time, without a feed or a clock: both leagues' watchers
/// take them from `WatchLoop` (GameWatcherTests and NBAWatcherTests run the loops whole).
@Suite(.timeLimit(.minutes(5))) struct WatchLoopTests {
    typealias Loop = WatchLoop<ContinuousClock, String>
    let settings = WatcherSettings(poll: .seconds(5), reminders: [.seconds(1800), .seconds(600)])
    let start = Date(timeIntervalSince1970: 1_764_000_000)
    let zero = ContinuousClock.now

    @Test func aGameFirstSeenInProgressIsJoinedOnceAndTheLedgerToldOnce() {
        var loop = Loop(settings: settings, delivered: false)
        #expect(loop.reached(at: start, isFinal: false, inProgress: true) == .init(join: true, catchUp: nil, firstSight: true))
        #expect(loop.reached(at: start + 5, isFinal: false, inProgress: true) == .init(join: false, catchUp: nil, firstSight: false))
    }

    @Test func aGameFirstSeenOverIsJoinedForItsFinal() {
        var loop = Loop(settings: settings, delivered: false)
        #expect(loop.reached(at: start, isFinal: true, inProgress: false).join)
    }

    @Test func aGameWithAnAlertOutAlreadyIsNeverJoined() {
        // A restart, or another process: everything is derived again and the ledger filters.
        var loop = Loop(settings: settings, delivered: true)
        #expect(loop.reached(at: start, isFinal: false, inProgress: true) == .init(join: false, catchUp: nil, firstSight: false))
    }

    @Test func aGameFirstSeenBeforeItsStartIsFollowedFromTheStart() {
        var loop = Loop(settings: settings, delivered: false)
        #expect(loop.reached(at: start, isFinal: false, inProgress: false) == .init(join: false, catchUp: nil, firstSight: true))
        #expect(!loop.reached(at: start + 5, isFinal: false, inProgress: true).join)
    }

    @Test func aGapOfFiveMinutesIsCaughtUpAndAShorterOneIsNot() {
        var loop = Loop(settings: settings, delivered: false)
        _ = loop.reached(at: start, isFinal: false, inProgress: false)
        #expect(loop.reached(at: start + 299, isFinal: false, inProgress: true).catchUp == nil)
        #expect(loop.reached(at: start + 599, isFinal: false, inProgress: true).catchUp == 300)
        // Failed polls in between don't count as seen: the gap runs from the last that reached.
        _ = loop.failed(URLError(.timedOut))
        #expect(loop.reached(at: start + 1000, isFinal: false, inProgress: true).catchUp == 401)
    }

    @Test func failedPollsBackOffUpToAMinuteAndOneThatReachesStartsAgain() {
        var loop = Loop(settings: settings, delivered: false)
        var waits: [Duration] = []
        for _ in 0..<5 {
            loop.polling()
            if case .retry(let after) = loop.failed(URLError(.cannotConnectToHost)) { waits.append(after) }
        }
        #expect(waits == [.seconds(10), .seconds(20), .seconds(40), .seconds(60), .seconds(60)])
        loop.polling()
        _ = loop.reached(at: start, isFinal: false, inProgress: false)
        loop.polling()
        guard case .retry(let after) = loop.failed(URLError(.cannotConnectToHost)) else {
            Issue.record("a failure after a success is retried")
            return
        }
        #expect(after == .seconds(10))
    }

    @Test func noSuchGameAtTheFirstPollStopsButLaterItIsRetried() {
        let missing = APIError(.notFound, url: "http://127.0.0.1/v1/gamecenter/1/play-by-play", detail: "no game 1")
        var first = Loop(settings: settings, delivered: false)
        first.polling()
        guard case .stop(let error) = first.failed(missing) else {
            Issue.record("a game the API never had is not watched")
            return
        }
        #expect((error as? WatchError)?.isFinal == true)

        // Once the game was seen, a 404 is the API's bad moment: poll again.
        var later = Loop(settings: settings, delivered: false)
        later.polling()
        _ = later.reached(at: start, isFinal: false, inProgress: false)
        later.polling()
        guard case .retry = later.failed(missing) else {
            Issue.record("a 404 after the first poll is retried")
            return
        }
    }

    /// A game the schedule lists: a 404 at the first poll is a CDN edge's bad moment, retried
    /// with backoff for as long as the schedule lists it; once it no longer does, watching ends.
    @Test func aScheduledGamesFeed404IsRetriedWhileTheScheduleListsIt() {
        let missing = APIError(.notFound, url: "http://127.0.0.1/v1/gamecenter/1/play-by-play", detail: "no game 1")
        var loop = Loop(settings: settings, delivered: false)
        var waits: [Duration] = []
        for _ in 0..<3 {
            loop.polling()
            guard case .retry(let after) = loop.failed(missing, listed: { true }) else {
                Issue.record("a scheduled game's 404 is retried")
                return
            }
            waits.append(after)
        }
        #expect(waits == [.seconds(10), .seconds(20), .seconds(40)])
        // Only a 404 asks the schedule (under run, asking brings the next refresh closer).
        loop.polling()
        _ = loop.failed(URLError(.timedOut)) {
            Issue.record("the schedule was asked about a failure that is no 404")
            return true
        }
        loop.polling()
        guard case .stop(let error) = loop.failed(missing, listed: { false }) else {
            Issue.record("a game the schedule dropped is not watched on")
            return
        }
        #expect((error as? WatchError)?.isFinal == true)
        #expect("\(error)".contains("no longer lists"))
    }

    @Test func aGameThatWontBePlayedAndACancelledTaskStop() {
        var loop = Loop(settings: settings, delivered: false)
        loop.polling()
        guard case .stop = loop.failed(WatchError("game 1 is postponed; nothing to watch", final: true)) else {
            Issue.record("a postponed game ends the watcher")
            return
        }
        guard case .stop(let error) = loop.failed(CancellationError()) else {
            Issue.record("cancellation ends the watcher")
            return
        }
        #expect(error is CancellationError)
        // A plain WatchError (a stale copy) is retried.
        guard case .retry = loop.failed(WatchError("the feed could not be fetched (timed out)")) else {
            Issue.record("a stale feed is retried")
            return
        }
    }

    @Test func eachReminderIsDueOnceAndNoneOnceTheGameIsOn() {
        var loop = Loop(settings: settings, delivered: false)
        let pregame = GameEvent(kind: .pregame, key: nil, gameId: 1, away: "MTL", home: "TOR", score: .init(away: 0, home: 0))
        var asked: [Set<Int>] = []
        let first = loop.reminder(upcoming: true) { sent, _ in
            asked.append(sent)
            return (pregame, [1800])
        }
        #expect(first.event == pregame)
        let none = loop.reminder(upcoming: true) { sent, _ in
            asked.append(sent)
            return nil
        }
        #expect(none.event == nil)
        #expect(asked == [[], [1800]])
        // Under way: every lead counts as sent, and nothing is asked.
        #expect(loop.reminder(upcoming: false) { _, _ in (pregame, [600]) }.event == nil)
        #expect(loop.remindersSent == [1800, 600])
    }

    /// A game moved 5 minutes or more later after its reminder: reminded again (`due` told,
    /// for a new key) and the move said once; a smaller move, or one before any reminder, no.
    @Test func aGameMovedLaterIsRemindedAgainAndTheMoveSaidOnce() {
        var loop = Loop(settings: settings, delivered: false)
        let pregame = GameEvent(kind: .pregame, key: nil, gameId: 1, away: "MTL", home: "TOR", score: .init(away: 0, home: 0))
        var told: [(Set<Int>, Bool)] = []
        var moves: [Bool] = []
        func poll(_ start: Date, due: Bool) -> GameEvent? {
            let reminding = loop.reminder(upcoming: true, start: start) { sent, moved in
                told.append((sent, moved))
                return due ? (pregame, [1800]) : nil
            }
            moves.append(reminding.moved)
            return reminding.event
        }
        #expect(poll(start, due: false) == nil)
        #expect(poll(start + 240, due: true) == pregame)  // moved before any reminder: nothing to re-arm
        #expect(poll(start + 240 + 120, due: false) == nil)  // 2 minutes: not a move worth a reminder
        #expect(poll(start + 240 + 420, due: true) == pregame)
        // A feed flapping back to the earlier start, then to the later one again: no news.
        #expect(poll(start + 240, due: false) == nil)
        #expect(poll(start + 240 + 420, due: false) == nil)
        // The move is said once, at the poll that saw it.
        #expect(moves == [false, false, false, true, false, false])
        #expect(told.map(\.1) == [false, false, false, true, true, true])
        #expect(told[3].0 == [])
    }

    /// After a restart the reminders sent before are read back from their sightings: a lead
    /// counts as sent when one as short was, and a move since re-arms them.
    @Test func remindersSentBeforeARestartCountAsSent() throws {
        let seen = Date(timeIntervalSince1970: 1_000_000)
        let plain = try #require(PregameReminder.sent([("1:pregame:30", seen), ("1:pregame:x", seen), ("1:pregame", seen)]))
        #expect(plain == .init(start: seen + 1860, leads: [1800], moved: false))
        let moved = PregameReminder.sent([("1:pregame:30", seen), ("1:pregame:10-1000900", seen + 60), ("1:pregame:90s", seen)])
        #expect(moved == .init(start: Date(timeIntervalSince1970: 1_000_900), leads: [600], moved: true))
        #expect(PregameReminder.sent([]) == nil)
        let pregame = GameEvent(kind: .pregame, key: nil, gameId: 1, away: "MTL", home: "TOR", score: .init(away: 0, home: 0))
        var told: [(Set<Int>, Bool)] = []
        func poll(_ loop: inout Loop, _ start: Date) -> Bool {
            loop.reminder(upcoming: true, start: start) { sent, moved in
                told.append((sent, moved))
                return (pregame, [600])
            }.moved
        }
        // The same start (within the bound): the 30-minute one counts as sent, the 10-minute one not.
        var same = Loop(settings: settings, delivered: true, reminded: plain)
        #expect(poll(&same, seen + 1800) == false)
        #expect(told.last! == ([1800], false))
        // Five minutes past the latest start it can have been for: a move, reminded again.
        var later = Loop(settings: settings, delivered: true, reminded: plain)
        #expect(poll(&later, seen + 1860 + 300) == true)
        #expect(told.last! == ([], true))
        // Before, the moved game's own keys go on.
        var again = Loop(settings: settings, delivered: true, reminded: moved)
        #expect(poll(&again, Date(timeIntervalSince1970: 1_000_900)) == false)
        #expect(told.last! == ([1800, 600], true))
    }

    @Test func snapshotsShowInOrderEachWhenItsDelayIsOver() {
        var loop = Loop(settings: settings, delivered: false)
        let delay = Duration.seconds(30)
        loop.show("a", from: zero)
        loop.show("b", from: zero + .seconds(10))
        // Seen earlier by another process, but never shown before the one before it.
        loop.show("c", from: zero + .seconds(5))
        let nextPoll = zero + .seconds(100)
        #expect(loop.due(at: zero + .seconds(29), delay: delay).isEmpty)
        #expect(loop.nextWake(nextPoll, delay: delay) == zero + .seconds(30))
        #expect(loop.due(at: zero + .seconds(30), delay: delay) == ["a"])
        #expect(loop.nextWake(nextPoll, delay: delay) == zero + .seconds(40))
        #expect(loop.due(at: zero + .seconds(40), delay: delay) == ["b", "c"])
        #expect(loop.nextWake(nextPoll, delay: delay) == nextPoll)
        // A delay cut to nothing shows what is held at once.
        loop.show("d", from: zero + .seconds(50))
        #expect(loop.due(at: zero + .seconds(50), delay: .zero) == ["d"])
    }
}
