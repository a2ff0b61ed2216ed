import Foundation
import Logging
import Synchronization
import Testing

@testable import FaceoffDelivery
@testable import FaceoffKit
@testable import FaceoffStore

/// `run`'s log says what became of every alert, in one line, once it is known: a webhook's
/// line waits for its outbox to deliver (and names the receiver's answer), a held alert says
/// why it was held, and a row another process queued is said by the process that delivers it.
@Suite(.timeLimit(.minutes(5))) struct DeliveryLogTests {
    @Test func eachAlertsLineWaitsForItsOutboxAndSaysEverySinksOutcome() async throws {
        let setup = try WebhookHarness.Setup { _ in .response(status: 204) }
        defer { setup.close() }
        let lines = LogLines()
        // Quiet hours now, by the wall clock the webhook's outbox also goes by.
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        func clock(_ date: Date) -> String {
            String(format: "%02d:%02d", utc.component(.hour, from: date), utc.component(.minute, from: date))
        }
        let quiet = try #require(QuietHours("\(clock(Date().addingTimeInterval(-3600)))-\(clock(Date().addingTimeInterval(3600)))"))
        let router = AlertRouter(
            routes: [
                SinkRoute(sink: setup.sink(), filter: SinkFilter(teams: ["TOR"])),
                SinkRoute(
                    sink: RecordingSink(name: "night") { _ in }, filter: SinkFilter(teams: ["TOR"]),
                    hold: SinkHold(quietHours: quiet, held: .digest, zone: utc.timeZone)),
            ],
            ledger: Ledger(store: setup.store), clock: ContinuousClock(), logger: lines.logger())
        // A row another process queued before it stopped: this one's worker delivers it.
        let other = SampleEvent.make(.penalty, team: "TOR", key: "7")
        #expect(
            try await Outbox(store: setup.store, owner: "other").enqueue(
                other, sink: "hook", body: Array("{}".utf8), at: Date(), expiresAt: Date().addingTimeInterval(3600)))
        try await router.serving {
            router.route(SampleEvent.make(.goal, team: "TOR"))
            #expect(await eventually(within: hangGuard) { lines.all.filter { $0.0 == .info }.count >= 2 })
        }
        let info = lines.all.filter { $0.0 == .info }.map(\.1)
        #expect(info.count == 2, "\(info)")
        #expect(info.contains("penalty · game 2025029999: hook ✓ 204"), "\(info)")
        let goal = try #require(info.first { $0.hasPrefix("goal TOR") })
        #expect(goal.hasPrefix("goal TOR · MTL 1–2 TOR: hook ✓ 204 · night held (quiet hours"), "\(goal)")
        #expect(goal.hasSuffix(", in the digest)"), "\(goal)")
        // The queued state is there with -v.
        #expect(lines.all.contains { $0.0 == .debug && $0.1 == "goal TOR · MTL 1–2 TOR: hook queued" }, "\(lines.all)")
    }

    /// A row that leaves the outbox by another process's hand closes the line here, without
    /// news of its own (the other process says what became of it).
    @Test func aRowAnotherProcessDeliversClosesTheLine() async throws {
        let setup = try WebhookHarness.Setup { _ in .response(status: 204) }
        defer { setup.close() }
        let lines = LogLines()
        let router = AlertRouter(
            routes: [SinkRoute(sink: setup.sink(), filter: SinkFilter(teams: ["TOR"]))], ledger: Ledger(store: setup.store),
            clock: ContinuousClock(), logger: lines.logger())
        var tally = DeliveryTally(headline: "goal TOR · MTL 1–2 TOR", owed: 1)
        tally.record("hook", .queued)
        router.tallies.withLock { $0["2025029999:goal:x"] = tally }
        await withDiscardingTaskGroup { group in
            group.addTask { await router.followQueued() }
            #expect(await eventually(within: hangGuard) { router.tallies.withLock { $0.isEmpty } })
            group.cancelAll()
        }
        #expect(lines.all.contains { $0.0 == .debug && $0.1 == "goal TOR · MTL 1–2 TOR: hook already handled" }, "\(lines.all)")
    }
}
