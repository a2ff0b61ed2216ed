import Foundation
import GRDB

/// Which event went to which sink, and the detector's state per game, so a restart or a
/// second process never sends an alert twice and never skips one.
public struct Ledger: Sendable {
    let store: Store

    public init(store: Store) { self.store = store }

    /// Claims (event, sink): true for the first claimant only, atomically across processes.
    public func claim(_ event: GameEvent, sink: String, at date: Date = Date()) throws(StoreError) -> Bool {
        try store.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO ledger (event_id, sink, game_id, kind, claimed_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [event.id, sink, event.gameId, event.kind.rawValue, date.timeIntervalSince1970])
            return db.changesCount == 1
        }
    }

    /// Whether any alert of this game was claimed already (by this or another process).
    public func hasEvents(gameID: Int) throws(StoreError) -> Bool {
        try store.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM ledger WHERE game_id = ?)", arguments: [gameID]) ?? false
        }
    }

    public func claimedIDs(gameID: Int, sink: String) throws(StoreError) -> [String] {
        try store.read { db in
            try String.fetchAll(db, sql: "SELECT event_id FROM ledger WHERE game_id = ? AND sink = ? ORDER BY rowid", arguments: [gameID, sink])
        }
    }

    public func saveState(_ state: EventDetector.State, gameID: Int, at date: Date = Date()) throws(StoreError) {
        let data = (try? JSONEncoder().encode(state)) ?? Data()
        try store.write { db in
            try db.execute(
                sql: "INSERT INTO detector_state (game_id, state, updated_at) VALUES (?, ?, ?) ON CONFLICT(game_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at",
                arguments: [gameID, data, date.timeIntervalSince1970])
        }
    }

    public func loadState(gameID: Int) throws(StoreError) -> EventDetector.State? {
        let data = try store.read { db in
            try Data.fetchOne(db, sql: "SELECT state FROM detector_state WHERE game_id = ?", arguments: [gameID])
        }
        return data.flatMap { try? JSONDecoder().decode(EventDetector.State.self, from: $0) }
    }

    /// Deletes ledger rows and detector states older than `date` (housekeeping).
    public func prune(before date: Date) throws(StoreError) {
        try store.write { db in
            try db.execute(sql: "DELETE FROM ledger WHERE claimed_at < ?", arguments: [date.timeIntervalSince1970])
            try db.execute(sql: "DELETE FROM detector_state WHERE updated_at < ?", arguments: [date.timeIntervalSince1970])
        }
    }
}
