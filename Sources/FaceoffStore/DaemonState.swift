import Foundation
import GRDB

/// Small facts the daemon keeps for other processes to read (`faceoff status`).
public struct DaemonState: Sendable {
    public enum Key: String, Sendable {
        /// When the NHL API stopped answering; absent while it answers.
        case outageSince = "outage_since"
    }

    package let store: Store?

    public init(store: Store?) { self.store = store }

    public func set(_ key: Key, _ date: Date?) async throws(StoreError) {
        guard let store else { return }
        try await store.write { db in
            if let date {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO daemon_state (key, value) VALUES (?, ?)",
                    arguments: [key.rawValue, date.timeIntervalSince1970])
            } else {
                try db.execute(sql: "DELETE FROM daemon_state WHERE key = ?", arguments: [key.rawValue])
            }
        }
    }

    /// The date under `key`; nil when unset, or when the store predates the table.
    public func date(_ key: Key) -> Date? {
        guard let store else { return nil }
        let seconds = try? store.read { db in
            try Double.fetchOne(db, sql: "SELECT value FROM daemon_state WHERE key = ?", arguments: [key.rawValue])
        }
        return seconds.flatMap { $0 }.map(Date.init(timeIntervalSince1970:))
    }

    /// A sentence `run` keeps under `key` for other processes (nil removes it); `since` stays
    /// when the sentence does not change.
    public func note(_ key: String, _ text: String?, at date: Date) async throws(StoreError) {
        guard let store else { return }
        try await store.write { db in
            if let text {
                try db.execute(
                    sql: """
                        INSERT INTO daemon_note (key, text, since) VALUES (?, ?, ?)
                        ON CONFLICT(key) DO UPDATE SET text = excluded.text, since = excluded.since WHERE text != excluded.text
                        """, arguments: [key, text, date.timeIntervalSince1970])
            } else {
                try db.execute(sql: "DELETE FROM daemon_note WHERE key = ?", arguments: [key])
            }
        }
    }

    /// The sentence under `key` and since when; nil when unset or the store predates the table.
    public func note(_ key: String) -> (text: String, since: Date)? {
        guard let store else { return nil }
        let found = try? store.read { db -> (String, Double)? in
            guard let row = try Row.fetchOne(db, sql: "SELECT text, since FROM daemon_note WHERE key = ?", arguments: [key]) else {
                return nil
            }
            return (row["text"], row["since"])
        }
        guard let (text, since) = found ?? nil else { return nil }
        return (text, Date(timeIntervalSince1970: since))
    }
}
