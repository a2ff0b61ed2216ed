import FaceoffStore
import Foundation
import GRDB

/// Mutes (`faceoff mute`, the MQTT switch) and the alerts held for digests, in the store: every
/// process on it obeys a mute at once, and exactly one of them sends each digest.
public struct Holds: Sendable {
    public struct Mute: Sendable, Equatable {
        public var sink: String
        /// nil: until unmuted.
        public var until: Date?
        public var since: Date
    }

    package let store: Store

    public init(store: Store) { self.store = store }

    /// The mutes in force at `date` (one whose time is up is over).
    public func mutes(at date: Date) throws(StoreError) -> [Mute] {
        try store.read { db -> [Mute] in
            // A store too old to have the table (read-only, for status) has none.
            guard try Store.hasTable(db, "sink_mute") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT sink, until, since FROM sink_mute ORDER BY sink").map { row in
                Mute(
                    sink: row["sink"], until: (row["until"] as Double?).map(Date.init(timeIntervalSince1970:)),
                    since: Date(timeIntervalSince1970: row["since"]))
            }
        }.filter { $0.until.map { $0 > date } ?? true }
    }

    /// A mute and an unmute use the store's reserve: they work on a full disk.
    public func mute(_ sinks: [String], until: Date?, at date: Date) async throws(StoreError) {
        try await store.write(usingReserve: true) { db in
            for sink in sinks {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO sink_mute (sink, until, since) VALUES (?, ?, ?)",
                    arguments: [sink, until?.timeIntervalSince1970, date.timeIntervalSince1970])
            }
        }
    }

    /// Ends the mutes of `sinks` (nil: all); the sinks that were muted.
    @discardableResult
    public func unmute(_ sinks: [String]?, at date: Date) async throws(StoreError) -> [String] {
        let muted = try mutes(at: date).map(\.sink).filter { sinks?.contains($0) ?? true }
        try await store.write(usingReserve: true) { db in
            if let sinks {
                for sink in sinks { try db.execute(sql: "DELETE FROM sink_mute WHERE sink = ?", arguments: [sink]) }
            } else {
                try db.execute(sql: "DELETE FROM sink_mute")
            }
        }
        return muted
    }

    /// Claims the alert for `sink` in the ledger as handled and, with `keep`, keeps it for the
    /// sink's digest, in one transaction; false when it was claimed before.
    public func hold(_ event: GameEvent, sink: String, keep: Bool, at date: Date) async throws(StoreError) -> Bool {
        let body = (try? JSONEncoder().encode(event)) ?? Data()
        return try await store.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO ledger (event_id, sink, game_id, kind, claimed_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [event.id, sink, event.gameId, event.kind.rawValue, date.timeIntervalSince1970])
            guard db.changesCount == 1 else { return false }
            if keep {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO held_alert (sink, event_id, body, held_at) VALUES (?, ?, ?, ?)",
                    arguments: [sink, event.id, body, date.timeIntervalSince1970])
            }
            return true
        }
    }

    /// How many alerts each sink holds for its digest (read every 2 s by a running router).
    public func heldCounts() throws(StoreError) -> [String: Int] {
        try store.read { db -> [String: Int] in
            guard try Store.hasTable(db, "held_alert") else { return [:] }
            return Dictionary(
                try Row.fetchAll(db, sql: "SELECT sink, COUNT(*) AS n FROM held_alert GROUP BY sink").map { ($0["sink"], $0["n"]) },
                uniquingKeysWith: { first, _ in first })
        }
    }

    /// Takes what `sink` holds, oldest first, out of the store: whoever takes it sends the digest.
    public func take(sink: String) async throws(StoreError) -> [GameEvent] {
        let bodies = try await store.write { db -> [Data] in
            let bodies = try Data.fetchAll(db, sql: "SELECT body FROM held_alert WHERE sink = ? ORDER BY id", arguments: [sink])
            try db.execute(sql: "DELETE FROM held_alert WHERE sink = ?", arguments: [sink])
            return bodies
        }
        return bodies.compactMap { try? JSONDecoder().decode(GameEvent.self, from: $0) }
    }
}
