import Foundation
import GRDB
import Synchronization
import Testing

@testable import FaceoffKit

@Suite struct OutboxWorkerTests {
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
            name: "hook", outbox: outbox, schedule: WebhookSinkTests.fast, lease: .seconds(10), wake: WakeSignal(), now: { Date() },
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
}
