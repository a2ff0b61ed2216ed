import Foundation
import GRDB
import Synchronization
import Testing

@testable import FaceoffBase
@testable import FaceoffDelivery
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL
@testable import FaceoffStore

/// A store with one alert (a goal, unless told) queued for "hook" at `start`, expiring an hour
/// later, and a test clock whose `now` starts there.
struct QueuedOnATestClock {
    let directory: URL
    let store: Store
    let outbox: Outbox
    let clock = TestClock()
    let start = Date(timeIntervalSince1970: 1_790_000_000)

    init(_ kind: GameEvent.Kind = .goal) async throws {
        directory = try TestPaths.temporaryDirectory()
        store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
        outbox = Outbox(store: store)
        _ = try await outbox.enqueue(
            SampleEvent.make(kind, team: "TOR"), sink: "hook", body: [1], at: start, expiresAt: start.addingTimeInterval(3600))
    }

    var now: @Sendable () -> Date {
        let (clock, start) = (clock, start)
        return { start.addingTimeInterval(Double(clock.now.offset.components.seconds)) }
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}

@Suite(.timeLimit(.minutes(5))) struct OutboxWorkerTests {
    /// An expired row the store can't remove (a full or read-only disk; here a trigger that
    /// refuses the DELETE as such a disk does): said once and waited on like any failed write,
    /// never read again and again; removed once the store takes it; never sent.
    @Test func anExpiredRowThatCannotBeRemovedIsNotReadInALoop() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
        let outbox = Outbox(store: store)
        let now = Date()
        _ = try await outbox.enqueue(
            SampleEvent.make(.goal, team: "TOR"), sink: "hook", body: [1], at: now.addingTimeInterval(-7200),
            expiresAt: now.addingTimeInterval(-60))
        try await store.write { db in
            try db.execute(
                sql: "CREATE TRIGGER full_disk BEFORE DELETE ON outbox BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
        }
        let lines = LogLines()
        let attempts = Mutex(0)
        let worker = OutboxWorker(
            name: "hook", outbox: outbox, schedule: WebhookHarness.fast, lease: .seconds(10), wake: WakeSignal(), now: { Date() },
            logger: lines.logger(), disabledReason: { nil },
            attempt: { _, _ in
                attempts.withLock { $0 += 1 }
                return .delivered("")
            }, gone: { _ in })
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await worker.run() }
            try? await Task.sleep(for: .seconds(1))
            #expect(lines.all.filter { $0.1 == "alert expired undelivered" }.count == 1, "\(lines.all.count) lines")
            #expect(lines.all.count <= 3, "\(lines.all.prefix(5))")
            #expect((try? outbox.pending(sink: "hook"))?.count == 1)
            // The disk has room again: the row goes at the next look.
            try? await store.write { db in try db.execute(sql: "DROP TRIGGER full_disk") }
            #expect(await eventually { (try? outbox.pending(sink: "hook"))?.isEmpty == true })
            group.cancelAll()
        }
        #expect(attempts.withLock { $0 } == 0)
    }

    /// A receiver down for over an hour, on a test clock: the head is tried every 5 s for the
    /// first minute, then after 30 s, 2 min and every 10 min, and dropped as expired, said
    /// once, when the next try would come after its hour. Order and counts, not seconds of
    /// real time: the hour passes at once.
    @Test func anOutageIsRetriedOnTheScheduleUntilTheAlertExpires() async throws {
        let world = try await QueuedOnATestClock()
        defer { world.cleanUp() }
        let (outbox, clock, now) = (world.outbox, world.clock, world.now)
        let attempts = Mutex<[Int64]>([])
        let lines = LogLines()
        let schedule = RetrySchedule(
            early: .seconds(5), earlyFor: .seconds(60), delays: [.seconds(30), .seconds(120), .seconds(600)], jitter: 0,
            idleCheck: .seconds(30))
        let worker = OutboxWorker(
            name: "hook", outbox: outbox, schedule: schedule, lease: .seconds(30), wake: WakeSignal(), now: now, logger: lines.logger(),
            disabledReason: { nil },
            attempt: { _, _ in
                attempts.withLock { $0.append(clock.now.offset.components.seconds) }
                return .retry("503", after: nil)
            }, gone: { _ in }, clock: clock)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await worker.run() }
            #expect(await eventually(within: hangGuard) { (try? outbox.pending(sink: "hook"))?.isEmpty == true })
            group.cancelAll()
        }
        let early = Array(stride(from: Int64(0), through: 60, by: 5))
        #expect(attempts.withLock { $0 } == early + [90, 210, 810, 1410, 2010, 2610, 3210], "\(attempts.withLock { $0 })")
        #expect(lines.all.filter { $0.1 == "alert expired undelivered" }.count == 1)
    }

    /// A receiver down for a while with three alerts owed: the failing spell is said once (a
    /// warning) and its end once (`delivering again`); the tries between are debug lines.
    @Test func anOutageIsSaidOnceAndItsEndOnce() async throws {
        let world = try await QueuedOnATestClock()
        defer { world.cleanUp() }
        let (outbox, clock, now) = (world.outbox, world.clock, world.now)
        for key in ["2", "3"] {
            _ = try await outbox.enqueue(
                SampleEvent.make(.goal, team: "TOR", key: key), sink: "hook", body: [1], at: world.start,
                expiresAt: world.start.addingTimeInterval(3600))
        }
        let attempts = Mutex(0)
        let lines = LogLines()
        let schedule = RetrySchedule(early: .seconds(5), earlyFor: .seconds(60), delays: [.seconds(30)], jitter: 0, idleCheck: .seconds(30))
        let worker = OutboxWorker(
            name: "hook", outbox: outbox, schedule: schedule, lease: .seconds(30), wake: WakeSignal(), now: now, logger: lines.logger(),
            disabledReason: { nil },
            attempt: { _, _ in
                let count = attempts.withLock {
                    $0 += 1
                    return $0
                }
                return count <= 8 ? .retry("connection refused", after: nil) : .delivered("204")
            }, gone: { _ in }, clock: clock)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await worker.run() }
            #expect(await eventually(within: hangGuard) { (try? outbox.pending(sink: "hook"))?.isEmpty == true })
            group.cancelAll()
        }
        let said = lines.all.filter { $0.0 > .debug }
        #expect(
            said.map(\.1) == ["delivery failing; alerts wait in the outbox and are retried", "delivering again"], "\(said)")
        #expect(lines.all.filter { $0.1 == "delivery failed; will retry" }.count == 7)
    }

    /// A mute reaches what was queued before it: a `drop` sink drops the row, never sending
    /// it; a `digest` sink keeps it, sends nothing while muted, and sends it within a second of
    /// the mute's end (on a test clock: at 600 s, the end itself).
    @Test(arguments: [SinkConfig.Held.drop, .digest])
    func aMuteReachesWhatWasQueued(held: SinkConfig.Held) async throws {
        let world = try await QueuedOnATestClock()
        defer { world.cleanUp() }
        let (store, outbox, clock, start, now) = (world.store, world.outbox, world.clock, world.start, world.now)
        try await Holds(store: store).mute(["hook"], until: held == .drop ? nil : start.addingTimeInterval(600), at: start)
        let attempts = Mutex<[Int64]>([])
        let lines = LogLines()
        let schedule = RetrySchedule(early: .seconds(5), earlyFor: .seconds(60), delays: [.seconds(30)], jitter: 0, idleCheck: .seconds(30))
        let worker = OutboxWorker(
            name: "hook", outbox: outbox, schedule: schedule, lease: .seconds(30), wake: WakeSignal(), now: now, logger: lines.logger(),
            disabledReason: { nil },
            attempt: { _, _ in
                attempts.withLock { $0.append(clock.now.offset.components.seconds) }
                return .delivered("204")
            }, gone: { _ in }, clock: clock, hold: SinkHold(held: held, zone: TimeZone(identifier: "UTC")!))
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await worker.run() }
            #expect(await eventually(within: hangGuard) { (try? outbox.pending(sink: "hook"))?.isEmpty == true })
            group.cancelAll()
        }
        switch held {
        case .drop:
            #expect(attempts.withLock { $0 }.isEmpty)
            #expect(lines.all.contains { $0.1 == "queued alert dropped: the sink is muted" }, "\(lines.all)")
        case .digest:
            #expect(attempts.withLock { $0 } == [600], "\(attempts.withLock { $0 })")
        }
    }

    /// While muted, a digest at the head of the queue still goes at once, and so does a row the
    /// sink says passes the hold (a correction that edits a message shown before).
    @Test(arguments: [GameEvent.Kind.digest, .goalOverturned])
    func aDigestAndAnEditingCorrectionPassAMute(kind: GameEvent.Kind) async throws {
        let world = try await QueuedOnATestClock(kind)
        defer { world.cleanUp() }
        try await Holds(store: world.store).mute(["hook"], until: nil, at: world.start)
        let attempts = Mutex<[Int64]>([])
        let clock = world.clock
        let schedule = RetrySchedule(early: .seconds(5), earlyFor: .seconds(60), delays: [.seconds(30)], jitter: 0, idleCheck: .seconds(30))
        let worker = OutboxWorker(
            name: "hook", outbox: world.outbox, schedule: schedule, lease: .seconds(30), wake: WakeSignal(), now: world.now,
            logger: LogLines().logger(), disabledReason: { nil },
            attempt: { _, _ in
                attempts.withLock { $0.append(clock.now.offset.components.seconds) }
                return .delivered("204")
            }, gone: { _ in }, clock: clock, hold: SinkHold(held: .drop, zone: TimeZone(identifier: "UTC")!),
            passesHold: { _ in kind == .goalOverturned })
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await worker.run() }
            #expect(await eventually(within: hangGuard) { (try? world.outbox.pending(sink: "hook"))?.isEmpty == true })
            group.cancelAll()
        }
        #expect(attempts.withLock { $0 } == [0])
    }
}
