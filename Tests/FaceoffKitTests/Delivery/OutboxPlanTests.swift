import Foundation
import Testing

@testable import FaceoffDaemon
@testable import FaceoffDelivery
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL

/// The outbox loop's decisions, one input at a time: no store, no clock, no receiver.
@Suite(.timeLimit(.minutes(5))) struct OutboxPlanTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)
    static let schedule = RetrySchedule(
        early: .seconds(5), earlyFor: .seconds(60), delays: [.seconds(30), .seconds(120), .seconds(600)], jitter: 0,
        idleCheck: .seconds(30))

    static func item(next: TimeInterval = 0, expires: TimeInterval = 3600, id: Int64 = 1) -> Outbox.Item {
        Outbox.Item(
            id: id, sink: "hook", eventID: "2025020100:goal:1", gameID: 2025020100, kind: "goal", body: [], createdAt: start,
            expiresAt: start.addingTimeInterval(expires), attempts: 0, nextAttemptAt: start.addingTimeInterval(next), lastError: nil)
    }

    static func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }

    @Test func whatAPreviousRunLeftIsTriedAtOnceThenTheHeadWaitsItsTurn() {
        var plan = OutboxPlan(schedule: Self.schedule)
        // Due in an hour by an earlier run's reckoning: tried now.
        #expect(plan.next(Self.item(next: 3000), now: Self.at(0)) == .attempt(Self.item(next: 3000)))
        // Once this process has tried, a head not yet due waits, and what is behind it too.
        #expect(plan.next(Self.item(next: 5), now: Self.at(1)) == .wait(.seconds(4), wakeable: false))
    }

    @Test func earlyInAnOutageANewAlertCutsTheWaitShortUnlessTheReceiverAskedForIt() {
        var plan = OutboxPlan(schedule: Self.schedule)
        _ = plan.next(Self.item(), now: Self.at(0))
        #expect(plan.failed(Self.item(), after: nil, now: Self.at(0)) == .retry(at: Self.at(5), wait: .seconds(5)))
        #expect(plan.next(Self.item(next: 5), now: Self.at(1)) == .wait(.seconds(4), wakeable: true))
        plan.waited(woken: true)
        #expect(plan.next(Self.item(next: 5), now: Self.at(2)) == .attempt(Self.item(next: 5)))
        // A 429 with Retry-After: 20 s is waited out whatever comes in.
        #expect(plan.failed(Self.item(), after: .seconds(20), now: Self.at(2)) == .retry(at: Self.at(22), wait: .seconds(20)))
        #expect(plan.next(Self.item(next: 22), now: Self.at(3)) == .wait(.seconds(19), wakeable: false))
    }

    @Test func theWaitsGrowAfterTheFirstMinuteAndTheLastTryIsBeforeTheExpiry() {
        var plan = OutboxPlan(schedule: Self.schedule)
        var retries: [TimeInterval] = []
        var now: TimeInterval = 0
        var expiredAt: TimeInterval?
        while expiredAt == nil, now < 7200 {
            _ = plan.next(Self.item(next: now), now: Self.at(now))
            switch plan.failed(Self.item(), after: nil, now: Self.at(now)) {
            case .retry(let at, _):
                now = at.timeIntervalSince(Self.start)
                retries.append(now)
            case .expire: expiredAt = now
            }
        }
        #expect(retries == Array(stride(from: 5.0, through: 60, by: 5)) + [90, 210, 810, 1410, 2010, 2610, 3210])
        #expect(expiredAt == 3210)
        // The expired head is said once, however often the store fails to drop it.
        #expect(plan.next(Self.item(), now: Self.at(3600)) == .expire(Self.item(), say: false))
    }

    @Test func anExpiredHeadIsSaidOnceAndNothingOwedEndsTheOutage() {
        var plan = OutboxPlan(schedule: Self.schedule)
        #expect(plan.next(Self.item(expires: 10), now: Self.at(10)) == .expire(Self.item(expires: 10), say: true))
        #expect(plan.next(Self.item(expires: 10), now: Self.at(40)) == .expire(Self.item(expires: 10), say: false))
        _ = plan.next(Self.item(id: 2), now: Self.at(40))
        _ = plan.failed(Self.item(id: 2), after: nil, now: Self.at(40))
        #expect(plan.outage == OutboxPlan.Outage(since: Self.at(40)))
        #expect(plan.next(nil, now: Self.at(50)) == .idle)
        #expect(plan.outage == nil)
        // A row the receiver took but the store could not record is removed, never sent again.
        plan.deliveredUnrecorded(Self.item(id: 3))
        #expect(plan.next(Self.item(id: 3), now: Self.at(60)) == .removeTaken(Self.item(id: 3)))
    }
}
