import Foundation
import GRDB

/// Small facts the daemon keeps for other processes to read (`faceoff status`).
public struct DaemonState: Sendable {
    public enum Key: String, Sendable {
        /// When the NHL API stopped answering; absent while it answers.
        case outageSince = "outage_since"
    }

    let store: Store?

    public init(store: Store?) { self.store = store }

    public func set(_ key: Key, _ date: Date?) async throws(StoreError) {
        guard let store else { return }
        try await store.write { db in
            if let date {
                try db.execute(sql: "INSERT OR REPLACE INTO daemon_state (key, value) VALUES (?, ?)", arguments: [key.rawValue, date.timeIntervalSince1970])
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
}
