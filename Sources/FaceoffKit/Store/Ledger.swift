import Foundation
import GRDB

/// Which event went to which sink, so a restart or a second process never sends an alert
/// twice and never skips one: watchers derive every event again and send what is unclaimed.
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

    /// Records that a watcher has seen the game, before any alert of it is claimed: a restart
    /// while its first alerts wait out a broadcast delay then sends them, instead of taking
    /// the game for one first seen in progress.
    public func markSeen(gameID: Int, at date: Date = Date()) throws(StoreError) {
        try store.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO ledger (event_id, sink, game_id, kind, claimed_at) VALUES (?, '', ?, 'seen', ?)",
                arguments: ["\(gameID):seen", gameID, date.timeIntervalSince1970])
        }
    }

    /// Whether any alert of this game was claimed already, or a watcher saw it (by this or
    /// another process).
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

    /// Deletes ledger rows older than `date` (housekeeping).
    public func prune(before date: Date) throws(StoreError) {
        try store.write { db in
            try db.execute(sql: "DELETE FROM ledger WHERE claimed_at < ?", arguments: [date.timeIntervalSince1970])
        }
    }
}
