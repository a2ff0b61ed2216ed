import Foundation
import Synchronization
import Testing

@testable import FaceoffDaemon
@testable import FaceoffDelivery
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffStore

@Suite(.timeLimit(.minutes(5))) struct AlertRouterTests {
    final class Log: Sendable {
        let entries = Mutex<[(sink: String, id: String, at: ContinuousClock.Instant)]>([])
        func add(_ sink: String, _ event: GameEvent) { entries.withLock { $0.append((sink, event.id, ContinuousClock.now)) } }
        func ids(_ sink: String) -> [String] { entries.withLock { $0.filter { $0.sink == sink }.map(\.id) } }
    }

    final class Gate: Sendable {
        let isOpen = Mutex(false)
    }

    /// A sink that blocks until the test opens its gate.
    struct GatedSink: Sink {
        let name: String
        let log: Log
        let gate: Gate
        func send(_ event: GameEvent) async -> Delivery {
            while !gate.isOpen.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(10)) }
            log.add(name, event)
            return .delivered("")
        }
    }

    @Test func aStuckSinkNeverHoldsUpAnother() async throws {
        let log = Log()
        let gate = Gate()
        let fast = RecordingSink(name: "fast") { log.add("fast", $0) }
        let router = AlertRouter(
            routes: [
                SinkRoute(sink: GatedSink(name: "stuck", log: log, gate: gate), filter: SinkFilter(teams: ["TOR"])),
                SinkRoute(sink: fast, filter: SinkFilter(teams: ["TOR"])),
            ],
            ledger: nil, clock: ContinuousClock())
        let events = (0..<5).map { SampleEvent.make(.goal, team: "TOR", key: "\($0)") }
        try await router.serving {
            for event in events { router.route(event) }
            // Every alert reaches the fast sink while the other is stuck on the first.
            try #require(await eventually(within: hangGuard) { log.ids("fast").count >= events.count })
            #expect(log.ids("stuck").isEmpty)
            gate.isOpen.withLock { $0 = true }
        }
        #expect(log.ids("fast") == events.map(\.id))
        #expect(log.ids("stuck") == events.map(\.id))
    }

    @Test func eachSinkHasItsDelayItsFilterAndItsLedgerClaims() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
        let clock = TestClock()
        let times = Mutex<[String: [Duration]]>([:])
        func sink(_ name: String) -> RecordingSink {
            RecordingSink(name: name) { _ in times.withLock { $0[name, default: []].append(clock.now.offset) } }
        }
        let router = AlertRouter(
            routes: [
                SinkRoute(sink: sink("now"), filter: SinkFilter(teams: ["TOR"])),
                SinkRoute(sink: sink("later"), filter: SinkFilter(kinds: [.goal], teams: ["TOR"]), delay: .seconds(30)),
            ], ledger: Ledger(store: store), clock: clock)
        try await router.serving {
            router.route(SampleEvent.make(.goal, team: "TOR"))
            router.route(SampleEvent.make(.penalty, team: "TOR"))
            await router.passOver([SampleEvent.make(.periodStart, team: "TOR")])
        }
        #expect(times.withLock { $0["now"]?.count } == 2)
        #expect(times.withLock { $0["later"] } == [.seconds(30)])
        let ledger = Ledger(store: store)
        #expect(try ledger.claimedIDs(gameID: 2025029999, sink: "later") == ["2025029999:goal:sample"])
        #expect(
            Set(try ledger.claimedIDs(gameID: 2025029999, sink: "now")) == [
                "2025029999:goal:sample", "2025029999:penalty:sample", "2025029999:period_start:sample",
            ])
    }

    /// A sink with no session bus, as `notify` is without a desktop.
    struct UnableSink: Sink {
        let name: String
        func send(_ event: GameEvent) async -> Delivery { .skipped("there is no D-Bus session bus") }
    }

    /// `run`'s log: one info line per alert, naming every sink that took it and how it went
    /// (in the config's order), however many sinks; the reason a sink failed is a warning of
    /// its own, once.
    @Test func eachAlertIsOneLogLineWithEverySinksOutcome() async throws {
        let lines = LogLines()
        let router = AlertRouter(
            routes: [
                SinkRoute(sink: RecordingSink(name: "hook") { _ in }, filter: SinkFilter(teams: ["TOR"])),
                SinkRoute(sink: UnableSink(name: "desktop"), filter: SinkFilter(teams: ["TOR"])),
                SinkRoute(sink: RecordingSink(name: "ha") { _ in }, filter: SinkFilter(kinds: [.goal], teams: ["TOR"]), delay: .seconds(1)),
            ], ledger: nil, clock: ContinuousClock(), logger: lines.logger())
        try await router.serving {
            router.route(SampleEvent.make(.goal, team: "TOR"))
            router.route(SampleEvent.make(.penalty, team: "TOR"))
        }
        let info = lines.all.filter { $0.0 == .info }.map(\.1)
        #expect(info.count == 2, "\(info)")
        #expect(info.contains("goal TOR · MTL 1–2 TOR: hook ✓ · desktop ✗ · ha ✓"), "\(info)")
        #expect(info.contains("penalty MTL · MTL 1–2 TOR: hook ✓ · desktop ✗"), "\(info)")
        #expect(lines.all.filter { $0.0 == .warning }.count == 1, "\(lines.all)")
    }

    /// An alert a stop cuts short still gets its one line: what the sinks that had it said,
    /// and how many had not had it yet.
    @Test func anAlertCutShortByAStopIsSaidInItsLine() async throws {
        let lines = LogLines()
        let router = AlertRouter(
            routes: [
                SinkRoute(sink: RecordingSink(name: "fast") { _ in }, filter: SinkFilter(teams: ["TOR"])),
                SinkRoute(sink: RecordingSink(name: "later") { _ in }, filter: SinkFilter(teams: ["TOR"]), delay: .seconds(3600)),
            ],
            ledger: nil, clock: ContinuousClock(), logger: lines.logger())
        await withDiscardingTaskGroup { group in
            group.addTask { await router.run() }
            router.route(SampleEvent.make(.goal, team: "TOR"))
            #expect(await eventually(within: hangGuard) { lines.all.contains { $0.1 == "alert handed over" } })
            group.cancelAll()
        }
        let said = lines.all.map(\.1).filter { $0.hasPrefix("goal TOR") }
        #expect(said == ["goal TOR · MTL 1–2 TOR: fast ✓ · stopped before one sink had it"], "\(lines.all)")
    }
}
