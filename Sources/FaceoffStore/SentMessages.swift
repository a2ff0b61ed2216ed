import Foundation
import GRDB

/// What a receiver that can edit its messages called each goal's alert (a notification's id,
/// a Discord message id, an ntfy sequence id), per sink: a correction, even from a `run`
/// started since, edits that message.
public struct SentMessages: Sendable {
    package let store: Store

    public init(store: Store) { self.store = store }

    public func record(sink: String, event: String, message: String, at date: Date) async throws(StoreError) {
        try await store.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO sent_message (sink, event_id, message_id, sent_at) VALUES (?, ?, ?, ?)",
                arguments: [sink, event, message, date.timeIntervalSince1970])
        }
    }

    /// The receiver's id for `event`'s message at `sink`, if it was delivered and recorded.
    public func message(sink: String, event: String) -> String? {
        (try? store.read { db in
            try String.fetchOne(
                db, sql: "SELECT message_id FROM sent_message WHERE sink = ? AND event_id = ?", arguments: [sink, event])
        }) ?? nil
    }

    /// Forgets what was sent before `date` (housekeeping, with the ledger's).
    public func prune(before date: Date) async throws(StoreError) {
        try await store.write { db in
            try db.execute(sql: "DELETE FROM sent_message WHERE sent_at < ?", arguments: [date.timeIntervalSince1970])
        }
    }
}
